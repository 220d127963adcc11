#include "cli/text_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arfabric::cli {
namespace {

const std::vector<TextColumn> kColumns = {
    {"mode", 6}, {"count", 7}, {"rate", 9}};

TEST(TextTable, CellsThatFitAreAlignedInTheirColumns) {
  EXPECT_EQ(text_table_header(kColumns), "mode    count     rate\n");
  const std::string cells[] = {"ecmp", "12", "400.0 G"};
  EXPECT_EQ(text_table_line(kColumns, cells), "ecmp       12  400.0 G\n");
}

// A cell as wide as its column, or wider, still has a space before it
// and pushes the rest of the row to the right.
TEST(TextTable, AWideCellNeverRunsIntoItsNeighbour) {
  const std::string full[] = {"fare+l", "1234567", "1234.5 G"};
  EXPECT_EQ(text_table_line(kColumns, full), "fare+l 1234567 1234.5 G\n");
  const std::string wider[] = {"fare+lsn", "123456789", "147553.3 G"};
  EXPECT_EQ(text_table_line(kColumns, wider),
            "fare+lsn 123456789 147553.3 G\n");
}

TEST(TextTable, MissingCellsAreBlankAndExtraOnesIgnored) {
  const std::string one[] = {"ecmp"};
  EXPECT_EQ(text_table_line(kColumns, one), "ecmp                  \n");
  const std::string four[] = {"ecmp", "1", "2", "extra"};
  EXPECT_EQ(text_table_line(kColumns, four), "ecmp        1        2\n");
}

}  // namespace
}  // namespace arfabric::cli
