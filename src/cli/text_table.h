// Fixed-width text tables for the terminal: `arfabric sim`'s summary, IBCS
// and timing tables. The first column is left-aligned, the others
// right-aligned, and two cells are always at least one space apart: a
// value wider than its column pushes the rest of its row to the right
// instead of running into its neighbour.
#pragma once

#include <span>
#include <string>

namespace arfabric::cli {

struct TextColumn {
  std::string header;
  // Characters the column takes when its cells fit, counting the space
  // that separates it from the column before (none for the first).
  std::size_t width = 0;
};

// One line of a table, ending in '\n': `cells[i]` in `columns[i]`. Cells
// past the last column are ignored; missing cells are blank.
std::string text_table_line(std::span<const TextColumn> columns,
                            std::span<const std::string> cells);

// The header line: each column's header as its cell.
std::string text_table_header(std::span<const TextColumn> columns);

}  // namespace arfabric::cli
