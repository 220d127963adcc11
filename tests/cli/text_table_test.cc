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
  const std::string full[] = {"fare+l", "1234567", "147.6 T"};
  EXPECT_EQ(text_table_line(kColumns, full), "fare+l 1234567  147.6 T\n");
  const std::string wider[] = {"fare+lsn", "123456789", "12345.6 G"};
  EXPECT_EQ(text_table_line(kColumns, wider), "fare+lsn 123456789 12345.6 G\n");
}

TEST(TextTable, MissingCellsAreBlankAndExtraOnesIgnored) {
  const std::string one[] = {"ecmp"};
  EXPECT_EQ(text_table_line(kColumns, one), "ecmp                  \n");
  const std::string four[] = {"ecmp", "1", "2", "extra"};
  EXPECT_EQ(text_table_line(kColumns, four), "ecmp        1        2\n");
}

TEST(TextTable, GoodputTakesTheUnitThatKeepsItShort) {
  EXPECT_EQ(format_gbps(0), "0.0 G");
  EXPECT_EQ(format_gbps(400), "400.0 G");
  EXPECT_EQ(format_gbps(9999.9), "9999.9 G");
  EXPECT_EQ(format_gbps(10000), "10.0 T");
  EXPECT_EQ(format_gbps(147553.3), "147.6 T");
  EXPECT_EQ(format_gbps(12.3e6), "12.3 P");
}

}  // namespace
}  // namespace arfabric::cli
