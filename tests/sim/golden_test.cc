// Golden result files (issue 5, "Tests that must exist"): the results.json
// of two tiny scenarios, compared byte for byte with tests/sim/golden/.
// Any change to what the simulator computes shows up here as a diff; when
// the change is intended, rewrite the files and review them in the commit:
//
//   scripts/update-golden
//   (or: ARFABRIC_UPDATE_GOLDEN=1 ctest --test-dir build/test -R golden)
//
// Every mode the scenario lists is run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/output/results_json.h"
#include "sim/runner.h"

namespace arfabric::sim {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The first differing lines with a little context, "-" expected, "+" got.
std::string first_difference(const std::string& expected,
                             const std::string& actual) {
  const auto a = lines(expected), b = lines(actual);
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::ostringstream out;
  out << "first difference at line " << i + 1 << ":\n";
  for (std::size_t k = i >= 2 ? i - 2 : 0; k < i; ++k) {
    out << "  " << a[k] << "\n";
  }
  for (std::size_t k = i; k < std::min(a.size(), i + 6); ++k) {
    out << "- " << a[k] << "\n";
  }
  for (std::size_t k = i; k < std::min(b.size(), i + 6); ++k) {
    out << "+ " << b[k] << "\n";
  }
  return out.str();
}

void check_golden(const std::string& scenario_file, const std::string& name) {
  const std::string root = ARFABRIC_SOURCE_DIR;
  auto s = load_scenario_file(root + "/examples/scenarios/" + scenario_file);
  ASSERT_TRUE(s) << s.error().to_string();
  std::vector<ModeResult> results;
  for (Mode m : s->modes) {
    auto r = run_mode(*s, m);
    ASSERT_TRUE(r) << r.error();
    results.push_back(std::move(*r));
  }
  const std::string actual = output::results_json(*s, results);
  const std::string path = root + "/tests/sim/golden/" + name + ".json";
  const char* update = std::getenv("ARFABRIC_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << actual;
    ASSERT_TRUE(f) << "cannot write " << path;
    std::cout << "updated " << path << "\n";
    return;
  }
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f) << "missing " << path
                 << "; create it with scripts/update-golden";
  std::stringstream expected;
  expected << f.rdbuf();
  if (expected.str() != actual) {
    ADD_FAILURE() << path << " differs from this build's results.json for "
                  << scenario_file << "\n"
                  << first_difference(expected.str(), actual)
                  << "If the change is intended: scripts/update-golden "
                     "(ARFABRIC_UPDATE_GOLDEN=1 ctest --test-dir build/test "
                     "-R golden), then review the diff.";
  }
}

TEST(SimGolden, tiny_matches_golden) { check_golden("tiny.yaml", "tiny"); }

TEST(SimGolden, tiny_degrade_matches_golden) {
  check_golden("tiny_degrade.yaml", "tiny_degrade");
}

TEST(SimGolden, TheDiffShowsTheFirstDifferingLines) {
  const std::string d = first_difference("a\nb\nc\nd\n", "a\nb\nX\nd\n");
  EXPECT_NE(d.find("line 3"), std::string::npos) << d;
  EXPECT_NE(d.find("- c"), std::string::npos) << d;
  EXPECT_NE(d.find("+ X"), std::string::npos) << d;
  EXPECT_NE(d.find("  b"), std::string::npos) << d;
}

}  // namespace
}  // namespace arfabric::sim
