#include "cli/text_table.h"

#include <fmt/format.h>

#include <vector>

namespace arfabric::cli {

std::string text_table_line(std::span<const TextColumn> columns,
                            std::span<const std::string> cells) {
  static const std::string kBlank;
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& cell = i < cells.size() ? cells[i] : kBlank;
    const std::size_t width = columns[i].width;
    if (i == 0) {
      line += fmt::format("{:<{}}", cell, width);
    } else {
      line += fmt::format(" {:>{}}", cell, width > 0 ? width - 1 : 0);
    }
  }
  line += '\n';
  return line;
}

std::string text_table_header(std::span<const TextColumn> columns) {
  std::vector<std::string> headers;
  headers.reserve(columns.size());
  for (const TextColumn& c : columns) headers.push_back(c.header);
  return text_table_line(columns, headers);
}

}  // namespace arfabric::cli
