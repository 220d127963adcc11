#include "cli/sim_out.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "support/capture.h"

namespace arfabric::cli {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(SimOutput, CreatesAMissingDirectoryWithItsParents) {
  const fs::path dir = testing::fresh_temp_path("out-new") / "a" / "b";
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(SimOutput, AFileIsNotADirectory) {
  const fs::path file = testing::fresh_temp_path("out-file");
  std::ofstream(file) << "x";
  auto out = SimOutput::open(file);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find(file.string()), std::string::npos) << out.error();
  EXPECT_NE(out.error().find("not a directory"), std::string::npos);
  EXPECT_EQ(read(file), "x");  // untouched
}

TEST(SimOutput, ADirectoryUnderAFileCannotBeCreated) {
  const fs::path file = testing::fresh_temp_path("out-parent-file");
  std::ofstream(file) << "x";
  auto out = SimOutput::open(file / "sub");
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find((file / "sub").string()), std::string::npos)
      << out.error();
}

TEST(SimOutput, FilesAppearOnlyWhenComplete) {
  auto s = sim::load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                                   "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const fs::path dir = testing::fresh_temp_path("out-atomic");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  ASSERT_TRUE(out->write_results(*s, {}, {}));
  EXPECT_EQ(read(dir / "results.json").substr(0, 1), "{");
  for (const char* name : {"results.json", "timeseries.csv", "goodput.svg"})
    EXPECT_FALSE(fs::exists(dir / (std::string(name) + ".partial"))) << name;
  // A name that cannot be renamed to (a directory came in the way after
  // the checks): the error names the file, and no partial file stays.
  auto again = SimOutput::open(dir);
  ASSERT_TRUE(again) << again.error();
  fs::remove(dir / "timeseries.csv");
  fs::create_directories(dir / "timeseries.csv");
  auto bad = again->write_results(*s, {}, {});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "cannot write " + (dir / "timeseries.csv").string() +
                             ": Is a directory");
  for (const char* name : {"results.json", "timeseries.csv", "goodput.svg"})
    EXPECT_FALSE(fs::exists(dir / (std::string(name) + ".partial"))) << name;
}

// Counts BGP message types the simulator sent, and passes each capture on.
class CountingTap : public sim::ControlTap {
 public:
  explicit CountingTap(sim::ControlTap* next) : next_(next) {}
  void on_control_sent(const sim::ControlCapture& c) override {
    if (c.bytes.size() >= 19) ++types[c.bytes[18]];
    ++total;
    next_->on_control_sent(c);
  }
  std::map<int, std::size_t> types;
  std::size_t total = 0;

 private:
  sim::ControlTap* next_;
};

std::vector<std::string> run_lines(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  std::vector<std::string> out;
  if (!p) {
    ADD_FAILURE() << "cannot run " << cmd;
    return out;
  }
  std::string text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  EXPECT_EQ(::pclose(p), 0) << cmd << " (is tshark installed? scripts/setup)";
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(SimOutput, TsharkDecodesEveryBgpMessageOfTheControlPcap) {
  const std::string root = ARFABRIC_SOURCE_DIR;
  auto s = sim::load_scenario_file(root + "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const fs::path dir = testing::fresh_temp_path("out-pcap");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  auto tap = out->begin_mode(sim::Mode::fare);
  ASSERT_TRUE(tap) << tap.error();
  CountingTap counting(*tap);
  sim::RunOptions options;
  options.tap = &counting;
  auto r = sim::run_mode(*s, sim::Mode::fare, options);
  ASSERT_TRUE(r) << r.error();
  ASSERT_TRUE(out->end_mode(sim::Mode::fare, true));
  ASSERT_TRUE(out->write_results(*s, {*r}, {}));
  const fs::path pcap = dir / "control-fare.pcap";
  ASSERT_TRUE(fs::exists(pcap));
  EXPECT_FALSE(fs::exists(dir / "control-fare.pcap.partial"));
  EXPECT_EQ(counting.total, r->control_messages);
  // OPENs, UPDATEs and KEEPALIVEs; the link failure closes sessions with
  // no NOTIFICATION on a dead link, so those may or may not appear.
  ASSERT_GT(counting.types[1], 0u);
  ASSERT_GT(counting.types[2], 0u);
  ASSERT_GT(counting.types[4], 0u);

  const auto lines = run_lines(
      "tshark -n -r '" + pcap.string() + "' -X lua_script:" + root +
      "/tools/wireshark/arfabric.lua -T fields -E 'separator=|' -e bgp.type "
      "-e tcp.srcport -e tcp.dstport -e ip.src 2>/dev/null");
  ASSERT_EQ(lines.size(), counting.total);
  std::map<int, std::size_t> decoded;
  for (const std::string& l : lines) {
    const std::string type = l.substr(0, l.find('|'));
    ASSERT_FALSE(type.empty()) << "not decoded as BGP: " << l;
    ASSERT_EQ(type.find(','), std::string::npos) << "one message per frame";
    ++decoded[std::stoi(type)];
    EXPECT_NE(l.find("|179|"), std::string::npos) << l;
    EXPECT_NE(l.find("|10.255."), std::string::npos) << l;
  }
  EXPECT_EQ(decoded, counting.types);

  // The simulated timestamps: the first message at or after time 0, none
  // after the end of the run.
  const auto times = run_lines("tshark -n -r '" + pcap.string() +
                               "' -T fields -e frame.time_epoch 2>/dev/null");
  ASSERT_FALSE(times.empty());
  EXPECT_GE(std::stod(times.front()), 0.0);
  EXPECT_LE(std::stod(times.back()),
            (r->warm_up + r->simulated).seconds() + 1e-9);
}

TEST(SimOutput, TsharkDecodesEveryLsnAndArnPacketOfTheControlPcap) {
  const std::string root = ARFABRIC_SOURCE_DIR;
  auto s = sim::load_scenario_file(root + "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const fs::path dir = testing::fresh_temp_path("out-pcap-hw");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  auto tap = out->begin_mode(sim::Mode::fare_lsn_arn);
  ASSERT_TRUE(tap) << tap.error();
  sim::RunOptions options;
  options.tap = *tap;
  auto r = sim::run_mode(*s, sim::Mode::fare_lsn_arn, options);
  ASSERT_TRUE(r) << r.error();
  ASSERT_TRUE(out->end_mode(sim::Mode::fare_lsn_arn, true));
  ASSERT_TRUE(out->write_results(*s, {*r}, {}));
  ASSERT_GT(r->lsn_frames, 0u);
  ASSERT_GT(r->arn_messages, 0u);
  const auto lines = run_lines(
      "tshark -n -r '" + (dir / "control-fare+lsn+arn.pcap").string() +
      "' -X lua_script:" + root +
      "/tools/wireshark/arfabric.lua -T fields -E 'separator=|' "
      "-e arfabric_lsn.msg_type -e arfabric_arn.type -e bgp.type "
      "2>/dev/null");
  std::size_t lsn = 0, arn = 0, bgp = 0;
  for (const std::string& l : lines) {
    if (l.starts_with("|")) {
      (l.starts_with("||") ? bgp : arn) += 1;
    } else {
      ++lsn;
    }
  }
  EXPECT_EQ(lsn, r->lsn_frames);
  EXPECT_EQ(arn, r->arn_messages);
  EXPECT_EQ(bgp, r->control_messages);
}

// libpcap's reason names the file too: the message names it once.
TEST(SimOutput, APcapThatCannotBeCreatedIsNamedOnce) {
  const fs::path dir = testing::fresh_temp_path("out-pcap-blocked");
  fs::create_directories(dir / "control-ecmp.pcap.partial");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  auto tap = out->begin_mode(sim::Mode::ecmp);
  ASSERT_FALSE(tap);
  EXPECT_EQ(tap.error(), "cannot write " +
                             (dir / "control-ecmp.pcap.partial").string() +
                             ": Is a directory");
}

// A directory in the place of a file the run writes is found before
// anything runs, not after every mode has.
TEST(SimOutput, ADirectoryInTheWayIsFoundBeforeTheRun) {
  const fs::path dir = testing::fresh_temp_path("out-in-the-way");
  fs::create_directories(dir / "control-fare.pcap");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  auto tap = out->begin_mode(sim::Mode::fare);
  ASSERT_FALSE(tap);
  EXPECT_EQ(tap.error(), "cannot write " +
                             (dir / "control-fare.pcap").string() +
                             ": it exists and is not a file");
  EXPECT_FALSE(fs::exists(dir / "control-fare.pcap.partial"));
  fs::create_directories(dir / "results.json");
  auto again = SimOutput::open(dir);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error(), "cannot write " + (dir / "results.json").string() +
                               ": it exists and is not a file");
}

// Writing over an earlier run's output: the captures of modes this run
// did not write go (they would pass for this run's); the files arfabric
// does not write stay.
TEST(SimOutput, AnEarlierRunsCapturesOfOtherModesAreRemoved) {
  const fs::path dir = testing::fresh_temp_path("out-stale");
  fs::create_directories(dir);
  for (const char* name :
       {"control-fare.pcap", "control-fare+lsn+arn.pcap", "notes.txt"}) {
    std::ofstream(dir / name) << "earlier";
  }
  auto s = sim::load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                                   "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  ASSERT_TRUE(out->begin_mode(sim::Mode::ecmp));
  ASSERT_TRUE(out->end_mode(sim::Mode::ecmp, true));
  auto written = out->write_results(*s, {}, {});
  ASSERT_TRUE(written) << written.error();
  EXPECT_TRUE(fs::exists(dir / "control-ecmp.pcap"));
  EXPECT_FALSE(fs::exists(dir / "control-fare.pcap"));
  EXPECT_FALSE(fs::exists(dir / "control-fare+lsn+arn.pcap"));
  EXPECT_EQ(read(dir / "notes.txt"), "earlier");
  EXPECT_TRUE(fs::exists(dir / "results.json"));
}

// A directory in the place of a partial file is found before the run
// too (it was found only when the run ended, naming the final file).
TEST(SimOutput, ADirectoryInThePlaceOfAPartialFileIsFoundBeforeTheRun) {
  const fs::path dir = testing::fresh_temp_path("out-partial-in-the-way");
  fs::create_directories(dir / "timeseries.csv.partial");
  auto out = SimOutput::open(dir);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), "cannot write " +
                             (dir / "timeseries.csv.partial").string() +
                             ": it exists and is not a file");
}

// The files of a run replace an earlier run's all together: when one
// cannot be written, none is replaced (the pcaps this run kept included),
// and no partial file stays.
TEST(SimOutput, AnEarlierRunsFilesAreReplacedAllOrNone) {
  const fs::path dir = testing::fresh_temp_path("out-all-or-none");
  fs::create_directories(dir);
  for (const char* name :
       {"results.json", "timeseries.csv", "goodput.svg", "control-ecmp.pcap"}) {
    std::ofstream(dir / name) << "earlier";
  }
  auto s = sim::load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                                   "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  ASSERT_TRUE(out->begin_mode(sim::Mode::ecmp));
  ASSERT_TRUE(out->end_mode(sim::Mode::ecmp, true));
  // Not yet in place: the results decide.
  EXPECT_EQ(read(dir / "control-ecmp.pcap"), "earlier");
  // goodput.svg's partial cannot be written (made so after the checks).
  fs::create_directories(dir / "goodput.svg.partial");
  auto written = out->write_results(*s, {}, {});
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error(), "cannot write " +
                                 (dir / "goodput.svg.partial").string() +
                                 ": Is a directory");
  for (const char* name :
       {"results.json", "timeseries.csv", "goodput.svg", "control-ecmp.pcap"}) {
    EXPECT_EQ(read(dir / name), "earlier") << name;
  }
  EXPECT_FALSE(fs::exists(dir / "results.json.partial"));
  EXPECT_FALSE(fs::exists(dir / "timeseries.csv.partial"));
  EXPECT_FALSE(fs::exists(dir / "control-ecmp.pcap.partial"));
  EXPECT_TRUE(out->written().empty());

  // And when all can be, all are.
  fs::remove(dir / "goodput.svg.partial");
  auto again = SimOutput::open(dir);
  ASSERT_TRUE(again) << again.error();
  ASSERT_TRUE(again->begin_mode(sim::Mode::ecmp));
  ASSERT_TRUE(again->end_mode(sim::Mode::ecmp, true));
  ASSERT_TRUE(again->write_results(*s, {}, {}));
  for (const char* name :
       {"results.json", "timeseries.csv", "goodput.svg", "control-ecmp.pcap"}) {
    EXPECT_NE(read(dir / name), "earlier") << name;
  }
  EXPECT_EQ(again->written(),
            (std::vector<std::string>{"control-ecmp.pcap", "results.json",
                                      "timeseries.csv", "goodput.svg"}));
}

// A run that ends without writing its results (an error) leaves its kept
// captures' partial files behind it no more than the earlier run's.
TEST(SimOutput, KeptCapturesOfARunThatWritesNoResultsAreRemoved) {
  const fs::path dir = testing::fresh_temp_path("out-abandoned");
  {
    auto out = SimOutput::open(dir);
    ASSERT_TRUE(out) << out.error();
    ASSERT_TRUE(out->begin_mode(sim::Mode::fare));
    ASSERT_TRUE(out->end_mode(sim::Mode::fare, true));
    EXPECT_TRUE(fs::exists(dir / "control-fare.pcap.partial"));
    // And one still open.
    ASSERT_TRUE(out->begin_mode(sim::Mode::ecmp));
    EXPECT_TRUE(fs::exists(dir / "control-ecmp.pcap.partial"));
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(SimOutput, AModeThatDidNotRunLeavesNoPcap) {
  const fs::path dir = testing::fresh_temp_path("out-discard");
  auto out = SimOutput::open(dir);
  ASSERT_TRUE(out) << out.error();
  ASSERT_TRUE(out->begin_mode(sim::Mode::fare_lsn));
  ASSERT_TRUE(out->end_mode(sim::Mode::fare_lsn, false));
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_TRUE(out->written().empty());
}

}  // namespace
}  // namespace arfabric::cli
