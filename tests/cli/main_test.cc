// The command line's own errors: a bad option or value exits 1 (as a bad
// scenario or configuration does), --help 0.
#include "cli/main.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

namespace arfabric::cli {
namespace {

int exit_code(const std::string& arguments) {
  const std::string command =
      std::string(ARFABRIC_BINARY) + " " + arguments + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status)) << command;
  return WEXITSTATUS(status);
}

TEST(Main, CommandLineErrorsExitOneAndHelpZero) {
  EXPECT_EQ(exit_code("--help"), 0);
  EXPECT_EQ(exit_code("sim --help"), 0);
  EXPECT_EQ(exit_code(""), 1);  // no subcommand
  EXPECT_EQ(exit_code("sim --seed 1 --seed 2"), 1);
  EXPECT_EQ(exit_code("sim --seed x"), 1);
  EXPECT_EQ(exit_code("sim extra"), 1);
  EXPECT_EQ(exit_code("decode --no-such-option"), 1);
}

}  // namespace
}  // namespace arfabric::cli
