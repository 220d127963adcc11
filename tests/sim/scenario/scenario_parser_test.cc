#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/strformat.h"
#include "sim/scenario/generators.h"
#include "sim/scenario/scenario.h"

namespace arfabric::sim {
namespace {

namespace fs = std::filesystem;

// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("arfabric_scenario_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

constexpr const char* kTiny = R"(stop_at: 10ms
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
)";

TEST(ParseScenario, MinimalClos3WithDefaults) {
  const auto s = parse_scenario(kTiny, "dir/mini.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->name, "mini");  // the file's stem
  EXPECT_EQ(s->seed, 1U);
  EXPECT_EQ(s->stop_at, ms(10));
  EXPECT_EQ(s->modes.size(), 5U);
  EXPECT_EQ(s->topology.hosts().size(), 4U);
  EXPECT_EQ(s->topology.links[0].rate, gbps(400));
  EXPECT_EQ(s->topology.links[0].delay, ns(500));  // fabric default
  EXPECT_EQ(s->switches.hw_notification_delay, us(1));
  EXPECT_EQ(s->hosts.mss_bytes, 4096U);
  EXPECT_TRUE(s->workloads.empty());
  EXPECT_TRUE(s->events.empty());
}

TEST(ParseScenario, WorkloadsEventsAndParams) {
  const std::string text =
      std::string(kTiny) + R"(  host_link: {rate: 100G, delay: 50ns}
  leaf_spine_link: {rate: 200G, delay: 1us, drop_probability: 0.001}
seed: 42
modes: [fare+lsn+arn, ecmp]
switches:
  path_selection: flowlet
  routing: static
  flowlet_gap: 20us
  bgp: {update_processing: 1ms, mrai: 5ms, fib_programming: 2ms}
  lsn: {period: 50us, congestion_sample: 0s, congestion_rise: [10KB, 20KB, 30KB],
        congestion_fall: [5KB, 10KB, 15KB]}
hosts: {mss: 1KB, initial_window: 10, min_rto: 1ms}
workloads:
  - kind: all_to_all
    participants: [host1.1, host0.0]
    bytes: 64KiB
    start: 5us
  - kind: ring_allreduce
    order: across_leaves
    bytes: 1MB
events:
  - {at: 3ms, kind: link_up, link: [spine0, leaf1]}
  - {at: 1ms, kind: link_down, link: [spine0, leaf1]}
  - {at: 2ms, kind: degrade, link: [leaf0, spine1], rate: 50G}
  - {at: 2500us, kind: degrade, link: [leaf0, spine0], fraction: 25%}
  - {at: 4ms, kind: incast, link: [spine1, leaf1], senders: all, bytes: 1MB}
)";
  const auto s = parse_scenario(text, "w.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const Topology& t = s->topology;
  EXPECT_EQ(s->seed, 42U);
  EXPECT_EQ(s->modes, (std::vector<Mode>{Mode::fare_lsn_arn, Mode::ecmp}));
  EXPECT_EQ(t.links[0].rate, gbps(200));
  EXPECT_DOUBLE_EQ(t.links[0].drop_probability, 0.001);
  EXPECT_EQ(s->switches.path_selection, PathSelection::flowlet);
  EXPECT_EQ(s->switches.routing, Routing::static_ecmp);
  EXPECT_EQ(s->switches.bgp_mrai, ms(5));
  EXPECT_EQ(s->switches.lsn_congestion_fall[2], 15'000U);
  EXPECT_EQ(s->switches.lsn_congestion_sample, Time{});
  EXPECT_EQ(s->hosts.mss_bytes, 1000U);
  ASSERT_EQ(s->workloads.size(), 2U);
  EXPECT_EQ(s->workloads[0].kind, WorkloadKind::all_to_all);
  EXPECT_EQ(s->workloads[0].participants,
            (std::vector<NodeIndex>{*t.find("host1.1"), *t.find("host0.0")}));
  EXPECT_EQ(s->workloads[0].bytes, 65'536U);
  EXPECT_EQ(s->workloads[0].start, us(5));
  // across_leaves: host0.0, host1.0, host0.1, host1.1.
  EXPECT_EQ(s->workloads[1].participants,
            (std::vector<NodeIndex>{*t.find("host0.0"), *t.find("host1.0"),
                                    *t.find("host0.1"), *t.find("host1.1")}));
  // Events come back sorted by time.
  ASSERT_EQ(s->events.size(), 5U);
  EXPECT_EQ(s->events[0].kind, EventKind::link_down);
  EXPECT_EQ(s->events[0].line, 29);
  EXPECT_EQ(s->events[1].new_rate, gbps(50));
  EXPECT_DOUBLE_EQ(s->events[1].fraction, 0.25);
  EXPECT_EQ(s->events[2].new_rate, gbps(50));  // 25% of 200G
  EXPECT_EQ(s->events[2].link,
            *t.find_link(*t.find("leaf0"), *t.find("spine0")));
  EXPECT_EQ(s->events[3].kind, EventKind::link_up);
  const EventSpec& incast = s->events[4];
  EXPECT_EQ(incast.receiver, *t.find("host1.0"));  // first host of leaf1
  EXPECT_EQ(incast.senders.size(), 3U);            // all but the receiver
  EXPECT_EQ(incast.bytes, 1'000'000U);
}

// A degrade with fraction 1 (or the link's rate) restores a degraded
// link; a link_up only brings back a cable that is down.
TEST(ScenarioParser, ADegradeOfTheWholeRateRestoresIt) {
  const auto s = parse_scenario(R"(
stop_at: 10ms
topology: {kind: clos3, spines: 1, leaves: 2, hosts_per_leaf: 1}
events:
  - {at: 1ms, kind: degrade, link: [spine0, leaf0], fraction: 0.5}
  - {at: 2ms, kind: degrade, link: [spine0, leaf0], fraction: 1}
  - {at: 3ms, kind: degrade, link: [spine0, leaf0], rate: 400G}
  - {at: 4ms, kind: link_down, link: [spine0, leaf0]}
  - {at: 5ms, kind: link_up, link: [spine0, leaf0]}
)",
                                "restore.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_EQ(s->events.size(), 5U);
  EXPECT_EQ(s->events[0].new_rate, gbps(200));
  EXPECT_EQ(s->events[1].new_rate, gbps(400));
  EXPECT_EQ(s->events[2].new_rate, gbps(400));
}

TEST(ParseScenario, ErrorToString) {
  const ScenarioError e{"default.yaml", 12, 5, "topology.spines",
                        "must be at least 1"};
  EXPECT_EQ(e.to_string(),
            "default.yaml:12:5: topology.spines: must be at least 1");
  EXPECT_EQ((ScenarioError{"f", 0, 0, "", "m"}).to_string(), "f: m");
}

struct BadCase {
  const char* what;
  std::string yaml;
  int line;
  std::string key;
  std::string message;  // a substring of the message
};

std::string tiny_with(const std::string& extra) { return kTiny + extra; }
// kTiny with another stop_at (its first line).
std::string tiny_until(const std::string& stop_at, const std::string& extra) {
  const std::string_view tiny = kTiny;
  EXPECT_TRUE(tiny.starts_with("stop_at: "));
  return "stop_at: " + stop_at + std::string(tiny.substr(tiny.find('\n'))) +
         extra;
}

// LSN's and ARN's queue thresholds default to fractions of the buffer;
// a fall or queue_low left out follows the rise or queue_high given. A
// buffer too small for the defaults is refused only where they are used.
TEST(ParseScenario, QueueThresholdsFollowTheBuffer) {
  auto s = parse_scenario(
      tiny_with(
          "switches:\n  buffer_per_port: 320KB\n  ecn_threshold: 100KB\n"),
      "t.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const SwitchParams& p = s->switches;
  EXPECT_EQ(std::vector<std::uint64_t>(p.lsn_congestion_rise,
                                       p.lsn_congestion_rise + 3),
            (std::vector<std::uint64_t>{20'000, 80'000, 160'000}));
  EXPECT_EQ(std::vector<std::uint64_t>(p.lsn_congestion_fall,
                                       p.lsn_congestion_fall + 3),
            (std::vector<std::uint64_t>{10'000, 40'000, 80'000}));
  EXPECT_EQ(p.arn_queue_high_bytes, 80'000U);
  EXPECT_EQ(p.arn_queue_low_bytes, 20'000U);
  // The struct's own defaults are the default buffer's.
  SwitchParams defaults;
  default_queue_thresholds(defaults);
  const SwitchParams unset;
  EXPECT_TRUE(std::equal(defaults.lsn_congestion_rise,
                         defaults.lsn_congestion_rise + 3,
                         unset.lsn_congestion_rise));
  EXPECT_TRUE(std::equal(defaults.lsn_congestion_fall,
                         defaults.lsn_congestion_fall + 3,
                         unset.lsn_congestion_fall));
  EXPECT_EQ(defaults.arn_queue_high_bytes, unset.arn_queue_high_bytes);
  EXPECT_EQ(defaults.arn_queue_low_bytes, unset.arn_queue_low_bytes);

  s = parse_scenario(
      tiny_with("switches:\n  lsn: {congestion_rise: [10KB, 20KB, 30KB]}\n"
                "  arn: {queue_high: 100KB}\n"),
      "t.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->switches.lsn_congestion_fall[2], 15'000U);
  EXPECT_EQ(s->switches.arn_queue_low_bytes, 25'000U);

  // 6KB holds one 4,160-byte packet: LSN's default level 3 (3KB) might
  // never be reached, which matters only to LSN modes.
  s = parse_scenario(
      tiny_with("modes: [ecmp, fare+arn]\nswitches:\n  buffer_per_port: 6KB\n"
                "  ecn_threshold: 1KB\n"),
      "t.yaml");
  EXPECT_TRUE(s) << s.error().to_string();
}

const std::string kEdgesHead = R"(stop_at: 10ms
topology:
  kind: edges
  nodes:
    - {name: s0, role: spine}
    - {name: l0, role: leaf}
    - {name: l1, role: leaf}
    - {name: h0, role: host}
)";

TEST(ParseScenario, IbcsIsOffUnlessGivenAndTakesEveryKey) {
  auto off = parse_scenario(kTiny, "t.yaml");
  ASSERT_TRUE(off) << off.error().to_string();
  EXPECT_FALSE(off->switches.ibcs);
  auto on = parse_scenario(tiny_with("switches:\n  ibcs:\n"
                                     "    signal: delay\n"
                                     "    sample_interval: 2us\n"
                                     "    estimator: window_max\n"
                                     "    window: 20us\n"
                                     "    max_age: 200us\n"
                                     "    delay_step: 500ns\n"
                                     "    scrub_host_ingress: false\n"),
                           "t.yaml");
  ASSERT_TRUE(on) << on.error().to_string();
  ASSERT_TRUE(on->switches.ibcs);
  const IbcsParams& p = *on->switches.ibcs;
  EXPECT_EQ(p.signal, IbcsSignal::delay);
  EXPECT_EQ(p.sample_interval, us(2));
  EXPECT_EQ(p.estimator, IbcsEstimator::window_max);
  EXPECT_EQ(p.window, us(20));
  EXPECT_EQ(p.max_age, us(200));
  EXPECT_EQ(p.delay_step, ns(500));
  EXPECT_FALSE(p.scrub_host_ingress);
  // The keys of the other estimator and signal.
  auto ewma = parse_scenario(tiny_with("switches:\n  ibcs:\n"
                                       "    signal: abw\n"
                                       "    ewma_weight: 0.5\n"
                                       "    bandwidth_step: 10G\n"),
                             "t.yaml");
  ASSERT_TRUE(ewma) << ewma.error().to_string();
  EXPECT_EQ(ewma->switches.ibcs->estimator, IbcsEstimator::ewma);
  EXPECT_EQ(ewma->switches.ibcs->ewma_weight, 0.5);
  EXPECT_EQ(ewma->switches.ibcs->bandwidth_step, gbps(10));
  // An empty map turns it on with the defaults.
  auto defaults = parse_scenario(tiny_with("switches:\n  ibcs: {}\n"), "t");
  ASSERT_TRUE(defaults) << defaults.error().to_string();
  ASSERT_TRUE(defaults->switches.ibcs);
  EXPECT_EQ(defaults->switches.ibcs->signal, IbcsSignal::abw_c);
}

TEST(ParseScenario, HostsCongestionControlAndItsIbcsTargetDefaults) {
  auto dctcp = parse_scenario(kTiny, "t.yaml");
  ASSERT_TRUE(dctcp) << dctcp.error().to_string();
  EXPECT_EQ(dctcp->hosts.congestion_control, HostCongestionControl::dctcp);
  // The target defaults to the signal's own (ibcs_default_target).
  const std::pair<std::string_view, std::uint32_t> defaults[] = {
      {"abw", 3}, {"abw_c", 3}, {"delay", 1}, {"nqd", 2}};
  for (const auto& [signal, target] : defaults) {
    auto s = parse_scenario(
        tiny_with(strformat("switches:\n  ibcs: {signal: {}}\nhosts:\n"
                            "  congestion_control: ibcs\n",
                            signal)),
        "t.yaml");
    ASSERT_TRUE(s) << s.error().to_string();
    EXPECT_EQ(s->hosts.congestion_control, HostCongestionControl::ibcs);
    EXPECT_EQ(s->hosts.ibcs_target, target) << signal;
    EXPECT_EQ(s->hosts.ibcs_beta, 0.8);
    EXPECT_EQ(s->hosts.ibcs_max_decrease, 0.5);
  }
  auto given =
      parse_scenario(tiny_with("switches:\n  ibcs: {signal: delay}\nhosts:\n"
                               "  congestion_control: ibcs\n  ibcs_target: 0\n"
                               "  ibcs_beta: 0.5\n  ibcs_max_decrease: 0.25\n"),
                     "t.yaml");
  ASSERT_TRUE(given) << given.error().to_string();
  EXPECT_EQ(given->hosts.ibcs_target, 0U);  // any queueing delay at all
  EXPECT_EQ(given->hosts.ibcs_beta, 0.5);
  EXPECT_EQ(given->hosts.ibcs_max_decrease, 0.25);
}

TEST(ParseScenario, IbcsSignalOrderIsTheCsigTables) {
  EXPECT_FALSE(ibcs_signal_is_max(IbcsSignal::abw));
  EXPECT_FALSE(ibcs_signal_is_max(IbcsSignal::abw_c));
  EXPECT_TRUE(ibcs_signal_is_max(IbcsSignal::delay));
  EXPECT_TRUE(ibcs_signal_is_max(IbcsSignal::nqd));
}

TEST(ParseScenario, SetCongestionControlIsWhatTheFileWouldSay) {
  auto s = parse_scenario(tiny_with("switches:\n  ibcs: {signal: delay}\n"),
                          "t.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  ASSERT_TRUE(set_congestion_control(*s, HostCongestionControl::ibcs));
  EXPECT_EQ(s->hosts.congestion_control, HostCongestionControl::ibcs);
  EXPECT_EQ(s->hosts.ibcs_target, ibcs_default_target(IbcsSignal::delay));
  // A file that chose ibcs keeps its own settings.
  auto own = parse_scenario(
      tiny_with("switches:\n  ibcs: {signal: nqd}\nhosts:\n"
                "  congestion_control: ibcs\n  ibcs_target: 9\n"),
      "t.yaml");
  ASSERT_TRUE(own) << own.error().to_string();
  ASSERT_TRUE(set_congestion_control(*own, HostCongestionControl::ibcs));
  EXPECT_EQ(own->hosts.ibcs_target, 9U);
  ASSERT_TRUE(set_congestion_control(*own, HostCongestionControl::dctcp));
  EXPECT_EQ(own->hosts.congestion_control, HostCongestionControl::dctcp);
  // No signal to react to: refused, the scenario unchanged.
  auto plain = parse_scenario(kTiny, "plain.yaml");
  ASSERT_TRUE(plain) << plain.error().to_string();
  const auto refused =
      set_congestion_control(*plain, HostCongestionControl::ibcs);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(),
            "ibcs needs switches.ibcs (the signal it reacts to), which "
            "plain.yaml does not enable");
  EXPECT_EQ(plain->hosts.congestion_control, HostCongestionControl::dctcp);
  EXPECT_EQ(parse_host_congestion_control("ibcs"), HostCongestionControl::ibcs);
  EXPECT_EQ(parse_host_congestion_control("dctcp"),
            HostCongestionControl::dctcp);
  EXPECT_FALSE(parse_host_congestion_control("IBCS"));
}

// Tools that join YAML files leave a '---' (or '...') at the end: an
// empty document after the scenario is nothing to refuse.
TEST(ParseScenario, AnEmptyTrailingDocumentIsIgnored) {
  for (const char* tail : {"---\n", "...\n---\n# end\n", "---\n---\n"}) {
    const auto s = parse_scenario(tiny_with(tail), "tail.yaml");
    ASSERT_TRUE(s) << tail << ": " << s.error().to_string();
    EXPECT_EQ(s->topology.hosts().size(), 4u);
  }
}

// Found by fuzz/scenario_fuzz: yaml-cpp's LoadAll never returns on this
// input (it yields empty documents forever, growing memory). Parsing ends,
// with an error.
TEST(ParseScenario, InputThatHangsYamlCppLoadAllEnds) {
  EXPECT_FALSE(parse_scenario(",ult", "hang.yaml"));
}

// Control characters in the name or description would reach the terminal
// and the SVG: refused, but a description may have several lines.
TEST(ParseScenario, ControlCharactersInTheNameAreRefused) {
  // Refused at `key`, the message holding `message`.
  const auto refused = [](const std::string& extra, const std::string& key,
                          const std::string& message) {
    const auto r = parse_scenario(tiny_with(extra), "c.yaml");
    ASSERT_FALSE(r) << extra;
    EXPECT_EQ(r.error().key, key) << extra;
    EXPECT_NE(r.error().message.find(message), std::string::npos)
        << r.error().to_string();
  };
  refused("name: \"red\\x1b[31m\"\n", "name",
          "a control character U+001B at position 3");
  refused("description: \"a\\0b\"\n", "description",
          "a control character U+0000 at position 1");
  EXPECT_TRUE(
      parse_scenario(tiny_with("description: |\n  two\n  lines\n"), "c.yaml"));
  // A C1 control (U+009B is a terminal's CSI too), and a tab in a name (one
  // cell of the table); a description may hold tabs.
  refused("name: \"a\\x9b31m\"\n", "name",
          "a control character U+009B at position 1");
  refused("name: \"a\\tb\"\n", "name", "U+0009 at position 1");
  EXPECT_TRUE(parse_scenario(tiny_with("description: \"a\\tb\"\n"), "c.yaml"));
  EXPECT_TRUE(parse_scenario(tiny_with("name: \"caf\\xe9\"\n"), "c.yaml"));
  // yaml-cpp decodes "\N" (NEL) and "\_" (no-break space) to the single
  // bytes 0x85 and 0xA0, which are not UTF-8; "\uFFFE" is no character.
  refused("name: \"a\\Nb\"\n", "name", "byte 0x85 at position 1 is not UTF-8");
  refused("description: \"a\\_b\"\n", "description",
          "byte 0xA0 at position 1 is not UTF-8");
  refused("name: \"a\\uFFFEb\"\n", "name",
          "a non-character U+FFFE at position 1");
  EXPECT_TRUE(parse_scenario(tiny_with("name: \"a\\u00A0b\"\n"), "c.yaml"));
  // A line separator is no line feed, and a bidirectional override shows
  // the name in another order than it is.
  refused("name: \"a\\Lb\"\n", "name",
          "a format character U+2028 at position 1");
  refused("description: \"a\\u202Eb\"\n", "description",
          "a format character U+202E at position 1");
}

// A raw character YAML does not allow (NUL, DEL, a C1 control) is named
// where it is: yaml-cpp would misread what follows it ("bad character
// found while scanning hex number" a line later).
TEST(ParseScenario, ARawControlCharacterIsNamedWhereItIs) {
  const auto r = parse_scenario(
      std::string_view("name: t\0x\nstop_at: 1ms\n", 22), "nul.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "nul.yaml:1:8: control character U+0000 is not allowed in YAML "
            "text (write it as an escape in a double-quoted string)");
}

// An LSN period must leave room for the frames a switch sends per period
// on its slowest switch link (control packets are never dropped, so
// shorter ones queue without bound): 4 frames of 84 bytes at 400G take
// 6.72 ns, one (no congestion sampling) 1.68 ns. Without an LSN mode the
// parser does not check it (the runner does, for an LSN mode that the sim
// command's -m adds: Runner.AnLsnModeAddedToTheScenariosChecksThePeriod).
TEST(ParseScenario, AnLsnPeriodLeavesRoomForItsFrames) {
  EXPECT_TRUE(parse_scenario(tiny_with("switches:\n  lsn: {period: 6720ps}\n"),
                             "l.yaml"));
  EXPECT_FALSE(parse_scenario(tiny_with("switches:\n  lsn: {period: 6719ps}\n"),
                              "l.yaml"));
  EXPECT_TRUE(parse_scenario(
      tiny_with("switches:\n  lsn: {period: 1680ps, congestion_sample: 0s}\n"),
      "l.yaml"));
  const auto r = parse_scenario(
      tiny_with("switches:\n  lsn: {period: 1679ps, congestion_sample: 0s}\n"),
      "l.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("per period (1)"), std::string::npos)
      << r.error().to_string();
  EXPECT_TRUE(parse_scenario(
      tiny_with("modes: [ecmp, fare+arn]\nswitches:\n  lsn: {period: 1ps}\n"),
      "l.yaml"));
}

// ARN's link share of the slowest switch link must carry one message per
// hold_time, or receivers revoke every notification before its refresh:
// one 90-byte message at 10% of 10M takes 720 us. Without an ARN mode the
// parser does not check it (the runner does, for an ARN mode that the sim
// command's -m adds: Runner.AnArnModeAddedToTheScenarioChecksItsLinkShare).
TEST(ParseScenario, ArnsLinkShareCarriesAMessagePerHoldTime) {
  const std::string slow = "  leaf_spine_link: {rate: 10M}\n";
  EXPECT_TRUE(parse_scenario(
      tiny_with(slow + "modes: [fare+arn]\nswitches:\n  arn: {hold_time: "
                       "720us}\n"),
      "a.yaml"));
  EXPECT_FALSE(parse_scenario(
      tiny_with(slow + "modes: [fare+arn]\nswitches:\n  arn: {hold_time: "
                       "719us}\n"),
      "a.yaml"));
  EXPECT_TRUE(parse_scenario(
      tiny_with(slow + "modes: [fare+arn]\nswitches:\n  arn: {link_share: "
                       "15%}\n"),
      "a.yaml"));
  EXPECT_TRUE(
      parse_scenario(tiny_with(slow + "modes: [ecmp, fare]\n"), "a.yaml"));
  const auto s = parse_scenario(
      tiny_with("switches:\n  arn: {link_share: 0.25}\n"), "a.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->switches.arn_link_share, 0.25);
  EXPECT_EQ(arn_message_wire_bytes(), 90u);
  EXPECT_EQ(arn_message_spacing(mbps(10), 0.1), us(720));
  EXPECT_EQ(arn_message_spacing(gbps(400), 1), ps(1800));
}

// The byte that is not UTF-8 is named by line and column (in bytes: the
// two-byte e-acute before it counts two).
TEST(ParseScenario, ANonUtf8ByteIsNamedWhereItIs) {
  const auto r = parse_scenario("stop_at: 10ms\ndescription: \xC3\xA9t\xE9\n",
                                "latin1.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "latin1.yaml:2:17: byte 0xE9 is not UTF-8: a scenario file is "
            "UTF-8 text");
}

TEST(ParseScenario, EachClassOfBadInputNamesLineAndKey) {
  const BadCase cases[] = {
      {"yaml syntax", "stop_at: 10ms\ntopology: [a, b\n", 3, "", "YAML"},
      {"not UTF-8", "stop_at: 10ms\nname: caf\xE9\n", 2, "",
       "byte 0xE9 is not UTF-8: a scenario file is UTF-8 text"},
      {"UTF-16", "\xFF\xFEs\0t\0", 1, "", "UTF-16 text"},
      {"a second YAML document", tiny_with("---\nstop_at: 5ms\n"), 8, "",
       "a second YAML document: a scenario file holds one"},
      {"unknown top-level key", "stop_at: 10ms\nstopat: 5ms\n", 2, "stopat",
       "unknown key 'stopat' (did you mean 'stop_at'?)"},
      {"duplicate key", "stop_at: 10ms\nstop_at: 5ms\n", 2, "stop_at",
       "duplicate key"},
      {"missing stop_at", "seed: 1\n", 1, "stop_at", "missing required key"},
      {"time without unit", "stop_at: 10\n", 1, "stop_at",
       "expected a number with a unit"},
      {"missing topology", "stop_at: 10ms\n", 1, "topology",
       "missing required key"},
      {"unknown topology key",
       "stop_at: 10ms\ntopology:\n  kind: clos3\n  spine: 2\n", 4,
       "topology.spine", "did you mean 'spines'?"},
      {"unknown topology kind", "stop_at: 10ms\ntopology:\n  kind: clos4\n", 3,
       "topology.kind", "unknown topology kind 'clos4'"},
      {"zero spines",
       "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: 0\n  leaves: 2\n"
       "  hosts_per_leaf: 1\n",
       4, "topology.spines", "must be at least 1"},
      {"wrong type",
       "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: [2]\n  leaves: 2\n"
       "  hosts_per_leaf: 1\n",
       4, "topology.spines", "expected an integer, found a list"},
      {"negative count",
       "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: -2\n  leaves: 2\n"
       "  hosts_per_leaf: 1\n",
       4, "topology.spines", "not a non-negative integer"},
      {"missing leaves",
       "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: 2\n"
       "  hosts_per_leaf: 1\n",
       3, "topology.leaves", "missing required key"},
      {"bad rate", tiny_with("  host_link: {rate: 40X}\n"), 7,
       "topology.host_link.rate",
       "rate '40X': expected a number with K/M/G/T suffix"},
      {"zero rate", tiny_with("  leaf_spine_link: {rate: 0G}\n"), 7,
       "topology.leaf_spine_link.rate", "must be > 0"},
      {"unknown link key", tiny_with("  host_link: {rat: 1G}\n"), 7,
       "topology.host_link.rat", "did you mean 'rate'?"},
      {"too many leaves for LSN",
       "stop_at: 10ms\nmodes: [fare+lsn]\ntopology:\n  kind: clos3\n"
       "  spines: 1\n  leaves: 16385\n  hosts_per_leaf: 1\n",
       4, "topology", "at most 16384"},
      {"dragonfly too few global links",
       "stop_at: 1ms\ntopology:\n  kind: dragonfly\n  groups: 9\n"
       "  routers_per_group: 2\n  hosts_per_router: 1\n"
       "  global_links_per_router: 3\n",
       7, "topology.global_links_per_router", "cannot reach the other 8"},
      {"unknown mode", tiny_with("modes: [ecmp, fare+lns]\n"), 7, "modes[1]",
       "unknown mode 'fare+lns'"},
      {"repeated mode", tiny_with("modes: [ecmp, ecmp]\n"), 7, "modes[1]",
       "repeated"},
      {"edge to unknown node",
       kEdgesHead + "  links:\n    - [s0, l0]\n"
                    "    - [s0, l9]\n",
       11, "topology.links[1]", "link to unknown node 'l9'"},
      {"duplicate node name",
       kEdgesHead + "    - {name: l0, role: leaf}\n  links: []\n", 9,
       "topology.nodes[4].name", "duplicate node name 'l0'"},
      {"unknown role", kEdgesHead + "    - {name: x, role: router}\n", 9,
       "topology.nodes[4].role", "unknown role 'router'"},
      {"host on two leaves",
       kEdgesHead + "  links:\n    - [s0, l0]\n    - [s0, l1]\n"
                    "    - [h0, l0]\n    - {a: h0, b: l1}\n",
       13, "topology.links[3]", "set allow_multihoming: true"},
      {"host on a spine", kEdgesHead + "  links:\n    - [h0, s0]\n", 10,
       "topology.links[0]", "hosts attach to leaves"},
      {"duplicate link",
       kEdgesHead + "  links:\n    - [s0, l0]\n    - [l0, s0]\n", 11,
       "topology.links[1]", "duplicate link"},
      {"two leaves in one AS",
       "stop_at: 10ms\ntopology:\n  kind: edges\n  nodes:\n"
       "    - {name: s0, role: spine}\n"
       "    - {name: l0, role: leaf, asn: 65001}\n"
       "    - {name: l1, role: leaf, asn: 65001}\n"
       "    - {name: h0, role: host}\n    - {name: h1, role: host}\n"
       "  links: [[s0, l0], [s0, l1], [h0, l0], [h1, l1]]\n",
       7, "topology.nodes[2].asn", "AS 65001 of 'l1' is also 'l0''s"},
      {"a spine in a leaf's AS",
       "stop_at: 10ms\ntopology:\n  kind: edges\n  nodes:\n"
       "    - {name: s0, role: spine, asn: 65001}\n"
       "    - {name: l0, role: leaf, asn: 65001}\n"
       "    - {name: h0, role: host}\n"
       "  links: [[s0, l0], [h0, l0]]\n",
       5, "topology.nodes[0].asn", "AS 65001 of 's0' is also 'l0''s"},
      {"AS_TRANS",
       "stop_at: 10ms\ntopology:\n  kind: edges\n  nodes:\n"
       "    - {name: s0, role: spine}\n"
       "    - {name: l0, role: leaf, asn: 23456}\n",
       6, "topology.nodes[1].asn", "23456 is AS_TRANS (RFC 6793)"},
      {"self loop", kEdgesHead + "  links:\n    - [s0, s0]\n", 10,
       "topology.links[0]", "to itself"},
      {"host without link", kEdgesHead + "  links:\n    - [s0, l0]\n", 8,
       "topology.nodes[3]", "host 'h0' has no link"},
      {"disconnected",
       kEdgesHead + "  links:\n    - [s0, l0]\n    - [h0, l1]\n", 7,
       "topology.nodes[2]", "not connected"},
      {"event on a missing link",
       tiny_with("events:\n  - {at: 1ms, kind: link_down, "
                 "link: [spine0, host0.0]}\n"),
       8, "events[0].link",
       "event at line 8 on a missing link: no link between 'spine0' and "
       "'host0.0'"},
      {"event on an unknown node",
       tiny_with("events:\n  - at: 1ms\n    kind: link_down\n"
                 "    link: [spine0, leaf7]\n"),
       10, "events[0].link", "no node 'leaf7'"},
      {"event after stop_at",
       tiny_with("events:\n  - {at: 20ms, kind: link_down, "
                 "link: [spine0, leaf0]}\n"),
       8, "events[0].at", "not before stop_at 10ms"},
      {"event typo",
       tiny_with("events:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf0], fracton: 0.5}\n"),
       8, "events[0].fracton", "did you mean 'fraction'?"},
      {"degrade without amount",
       tiny_with("events:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf0]}\n"),
       8, "events[0]", "exactly one of fraction or rate"},
      {"degrade above the rate",
       tiny_with("events:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf0], rate: 800G}\n"),
       8, "events[0].rate", "800G is above the link's rate 400G"},
      {"degrade to nothing",
       tiny_with("events:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf0], fraction: 0}\n"),
       8, "events[0].fraction", "must be in (0, 1] (1 restores"},
      {"link_up of a cable that is up",
       tiny_with("events:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf0], fraction: 0.5}\n"
                 "  - {at: 2ms, kind: link_up, link: [leaf0, spine0]}\n"),
       9, "events[1].link",
       "link_up at 2ms of leaf0-spine0, which is not down"},
      {"link_down of a cable that is down, in time order",
       tiny_with("events:\n  - {at: 3ms, kind: link_down, "
                 "link: [spine0, leaf0]}\n"
                 "  - {at: 1ms, kind: link_down, link: [spine0, leaf0]}\n"),
       8, "events[0].link", "link_down at 3ms of spine0-leaf0, which is down"},
      {"unknown event kind",
       tiny_with("events:\n  - {at: 1ms, kind: explode, "
                 "link: [spine0, leaf0]}\n"),
       8, "events[0].kind", "unknown event kind 'explode'"},
      {"workload naming an unknown host",
       tiny_with("workloads:\n  - kind: all_gather\n"
                 "    participants: [host0.0, host9.9]\n    bytes: 1MB\n"),
       9, "workloads[0].participants[1]", "unknown host 'host9.9'"},
      {"workload naming a switch",
       tiny_with("workloads:\n  - kind: all_gather\n"
                 "    participants: [host0.0, leaf1]\n    bytes: 1MB\n"),
       9, "workloads[0].participants[1]", "'leaf1' is a leaf, not a host"},
      {"workload without bytes",
       tiny_with("workloads:\n  - kind: ring_allreduce\n"), 8,
       "workloads[0].bytes", "missing required key"},
      {"poisson key on a collective",
       tiny_with("workloads:\n  - kind: ring_allreduce\n    bytes: 1MB\n"
                 "    load: 0.5\n"),
       10, "workloads[0].load", "unknown key 'load'"},
      {"unknown workload kind", tiny_with("workloads:\n  - kind: allreduce\n"),
       8, "workloads[0].kind", "unknown workload kind 'allreduce'"},
      {"CDF file missing",
       tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                 "    duration: 1ms\n    flow_size_cdf: nope.txt\n"),
       11, "workloads[0].flow_size_cdf", "'nope.txt' not found"},
      {"CDF file a directory",
       tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                 "    duration: 1ms\n    flow_size_cdf: /tmp\n"),
       11, "workloads[0].flow_size_cdf", "flow-size CDF '/tmp' is a directory"},
      {"CDF file a device",
       tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                 "    duration: 1ms\n    flow_size_cdf: /dev/null\n"),
       11, "workloads[0].flow_size_cdf",
       "flow-size CDF '/dev/null' is not a regular file"},
      {"buffer below one packet",
       tiny_with("switches:\n  buffer_per_port: 2KB\n  ecn_threshold: 1KB\n"),
       8, "switches.buffer_per_port", "2KB is smaller than one packet ("},
      {"a YAML merge key", tiny_with("  host_link:\n    <<: {rate: 1G}\n"), 8,
       "topology.host_link.<<",
       "unknown key '<<' (YAML merge keys are not supported: write the keys "
       "out)"},
      {"poisson flows beyond what a run holds",
       tiny_until("2000s",
                  "workloads:\n  - kind: poisson\n    load: 0.5\n"
                  "    duration: 1000s\n"
                  "    flow_size_cdf: WebSearch_distribution.txt\n"),
       9, "workloads[0].load",
       "x 1000s of arrivals / the mean flow size of 1.71125e+06 bytes), more "
       "than the 10000000 a run holds"},
      {"poisson flows beyond what a run holds before stop_at",
       tiny_until("1000s",
                  "workloads:\n  - kind: poisson\n    load: 0.5\n"
                  "    start: 10s\n    duration: 2000s\n"
                  "    flow_size_cdf: WebSearch_distribution.txt\n"),
       9, "workloads[0].load", "x 990s of arrivals"},
      {"LSN period shorter than its frames' time",
       tiny_with("switches:\n  lsn: {period: 2ns}\n"), 8, "switches.lsn.period",
       "2ns: the LSN frames a switch sends on each port per period (4) take "
       "6.72ns on the slowest switch link (400G), so they would queue "
       "without bound; use at least 7ns"},
      {"LSN default period on slow links",
       tiny_with("  leaf_spine_link: {rate: 10M}\n"), 3, "switches.lsn.period",
       "the default 100us: the LSN frames a switch sends on each port per "
       "period (4) take 268.8us on the slowest switch link (10M), so they "
       "would queue without bound; use at least 269us"},
      {"LSN default period on slow links, switches without lsn",
       tiny_with("  leaf_spine_link: {rate: 10M}\nswitches:\n"
                 "  buffer_per_port: 1MB\n"),
       9, "switches.lsn.period", "the default 100us: the LSN frames"},
      {"LSN period after a degrade event",
       tiny_with("switches:\n  lsn: {period: 30ns}\nevents:\n"
                 "  - {at: 1ms, kind: degrade, link: [spine0, leaf1], "
                 "rate: 10G}\n"),
       8, "switches.lsn.period",
       "take 268.8ns on the slowest switch link (10G, after the degrade "
       "event at line 10), so they would queue without bound; use at least "
       "269ns"},
      {"the default LSN period after a degrade event",
       tiny_with("events:\n"
                 "  - {at: 1ms, kind: link_down, link: [spine0, leaf0]}\n"
                 "  - {at: 1us, kind: degrade, link: [spine0, leaf1], "
                 "rate: 1K}\n"),
       9, "events[1]",
       "the default switches.lsn.period, 100us: the LSN frames a switch "
       "sends on each port per period (4) take 2.688s on the slowest switch "
       "link (1K, after the degrade event at line 9), so they would queue "
       "without bound; use at least 3s"},
      {"the default LSN period after the second degrade on a line",
       tiny_with("events: [{at: 1us, kind: degrade, link: [spine0, leaf0], "
                 "fraction: 0.5}, {at: 2us, kind: degrade, "
                 "link: [spine0, leaf1], rate: 1K}]\n"),
       7, "events[1]", "(1K, after the degrade event at line 7)"},
      {"LSN congestion falls that decrease",
       tiny_with("switches:\n  lsn:\n"
                 "    congestion_rise: [100KB, 150KB, 300KB]\n"
                 "    congestion_fall: [60KB, 50KB, 200KB]\n"),
       10, "switches.lsn.congestion_fall",
       "level 2's fall is below level 1's: falls must not decrease"},
      {"an LSN level a full queue never reaches",
       tiny_with("switches:\n  lsn:\n"
                 "    congestion_rise: [64KB, 256KB, 1MB]\n"),
       9, "switches.lsn.congestion_rise[2]",
       "LSN congestion level 3's rise (1MB) might never be reached: a queue "
       "that holds more than 995840B (buffer_per_port 1MB less one 4160B "
       "packet) may refuse every packet"},
      {"an ARN queue_high a full queue never reaches",
       tiny_with("switches:\n  buffer_per_port: 200KB\n"
                 "  arn: {queue_high: 199KB}\n"),
       9, "switches.arn.queue_high",
       "ARN's queue_high (199KB) might never be reached"},
      {"ARN's default link share on slow links",
       tiny_with("  leaf_spine_link: {rate: 10M}\nmodes: [fare+arn]\n"), 3,
       "switches.arn",
       "the default switches.arn.link_share and hold_time: 10% of the "
       "slowest switch link (10M) lets ARN send one 90-byte message every "
       "720us, longer than hold_time (500us): receivers would revoke every "
       "notification before its refresh; raise link_share to at least 15% "
       "or hold_time to at least 720us"},
      {"an ARN link share too small for hold_time",
       tiny_with("  leaf_spine_link: {rate: 10M}\nmodes: [fare+arn]\n"
                 "switches:\n  arn: {link_share: 5%, hold_time: 1ms}\n"),
       10, "switches.arn.link_share",
       "5% of the slowest switch link (10M) lets ARN send one 90-byte "
       "message every 1.44ms, longer than hold_time (1ms): receivers would "
       "revoke every notification before its refresh; raise link_share to "
       "at least 7.2% or hold_time to at least 2ms"},
      {"an ARN hold_time too short for the default link share",
       tiny_with("  leaf_spine_link: {rate: 10M}\nmodes: [fare+arn]\n"
                 "switches:\n  arn: {hold_time: 600us}\n"),
       10, "switches.arn.hold_time",
       "raise link_share to at least 12% or hold_time to at least 720us"},
      {"a link share no share could make enough, with a hold_time",
       tiny_with("  leaf_spine_link: {rate: 1M}\nmodes: [fare+arn]\n"
                 "switches:\n  arn: {link_share: 1, hold_time: 600us}\n"),
       10, "switches.arn.hold_time",
       "100% of the slowest switch link (1M) lets ARN send one 90-byte "
       "message every 720us, longer than hold_time (600us): receivers would "
       "revoke every notification before its refresh; raise hold_time to at "
       "least 720us"},
      {"a link share no share could make enough, without a hold_time",
       tiny_with("  leaf_spine_link: {rate: 100K}\nmodes: [fare+arn]\n"
                 "switches:\n  arn: {link_share: 1}\n"),
       10, "switches.arn",
       "the default switches.arn.hold_time: 100% of the slowest switch link "
       "(100K) lets ARN send one 90-byte message every 7.2ms"},
      {"a tiny ARN link share",
       tiny_with("modes: [fare+arn]\nswitches:\n"
                 "  arn: {link_share: 0.00000000000000000001}\n"),
       9, "switches.arn.link_share",
       "0.000000000000000001% of the slowest switch link (400G) lets ARN send "
       "one 90-byte message every 1000000s or more, longer than hold_time "
       "(500us): receivers would revoke every notification before its "
       "refresh; raise link_share to at least 0.00036%"},
      {"an ARN link share a hair short of what hold_time needs",
       tiny_with("  leaf_spine_link: {rate: 10M}\nmodes: [fare+arn]\n"
                 "switches:\n  arn: {link_share: 0.099999999, hold_time: "
                 "720us}\n"),
       10, "switches.arn.link_share",
       "9.9999999% of the slowest switch link (10M) lets ARN send one 90-byte "
       "message every 720.00001us, longer than hold_time (720us): receivers "
       "would revoke every notification before its refresh; raise link_share "
       "to at least 10% or hold_time to at least 721us"},
      {"ARN's defaults after a degrade event no share can carry",
       tiny_with("modes: [fare+arn]\nevents:\n  - {at: 1ms, kind: degrade, "
                 "link: [spine0, leaf1], rate: 1M}\n"),
       9, "events[0]",
       "the default switches.arn.link_share and hold_time: 10% of the "
       "slowest switch link (1M, after the degrade event at line 9) lets ARN "
       "send one 90-byte message every 7.2ms, longer than hold_time "
       "(500us): receivers would revoke every notification before its "
       "refresh; raise hold_time to at least 8ms"},
      {"ARN link share of nothing",
       tiny_with("switches:\n  arn: {link_share: 0}\n"), 8,
       "switches.arn.link_share", "must be within (0, 1]"},
      {"ARN link share above the whole link",
       tiny_with("switches:\n  arn: {link_share: 150%}\n"), 8,
       "switches.arn.link_share", "above 1"},
      {"a buffer too small for LSN's default levels",
       tiny_with("modes: [fare+lsn]\nswitches:\n  buffer_per_port: 6KB\n"
                 "  ecn_threshold: 1KB\n"),
       9, "switches.buffer_per_port",
       "the default LSN congestion level 3's rise (3KB) might never be "
       "reached"},
      {"LSN congestion sampling below 1ns",
       tiny_with("switches:\n  lsn: {congestion_sample: 1ps}\n"), 8,
       "switches.lsn.congestion_sample", "must be at least 1ns (or 0s: never)"},
      {"bad path selection", tiny_with("switches:\n  path_selection: random\n"),
       8, "switches.path_selection", "unknown path selection 'random'"},
      {"bad routing", tiny_with("switches:\n  routing: ospf\n"), 8,
       "switches.routing", "unknown routing 'ospf' (bgp, static)"},
      {"ECN above the buffer",
       tiny_with("switches:\n  buffer_per_port: 100KB\n"
                 "  ecn_threshold: 1MB\n"),
       9, "switches.ecn_threshold",
       "1MB must not exceed buffer_per_port (100KB)"},
      {"a buffer below the default ECN threshold",
       tiny_with("switches:\n  buffer_per_port: 100KB\n"), 8,
       "switches.buffer_per_port",
       "100KB is below ecn_threshold's default of 200KB: set an "
       "ecn_threshold no larger than the buffer"},
      {"bad size", tiny_with("switches:\n  buffer_per_port: 1Mb\n"), 8,
       "switches.buffer_per_port", "size '1Mb'"},
      {"unknown host key", tiny_with("hosts:\n  mms: 4096\n"), 8, "hosts.mms",
       "did you mean 'mss'?"},
      {"unknown IBCS signal", tiny_with("switches:\n  ibcs: {signal: hops}\n"),
       8, "switches.ibcs.signal",
       "unknown CSIG signal 'hops' (abw, abw_c, delay, nqd)"},
      {"unknown IBCS key", tiny_with("switches:\n  ibcs: {sigal: nqd}\n"), 8,
       "switches.ibcs.sigal", "did you mean 'signal'?"},
      {"unknown IBCS estimator",
       tiny_with("switches:\n  ibcs:\n    estimator: median\n"), 9,
       "switches.ibcs.estimator", "unknown estimator 'median'"},
      {"IBCS weight", tiny_with("switches:\n  ibcs: {ewma_weight: 0}\n"), 8,
       "switches.ibcs.ewma_weight", "must be within (0, 1]"},
      {"IBCS weight of a window estimator",
       tiny_with("switches:\n  ibcs: {estimator: window_min, "
                 "ewma_weight: 0.5}\n"),
       8, "switches.ibcs.ewma_weight", "only estimator: ewma reads it"},
      {"IBCS window of the ewma estimator",
       tiny_with("switches:\n  ibcs: {window: 5us}\n"), 8,
       "switches.ibcs.window",
       "only the window estimators read it (estimator: ewma)"},
      {"IBCS bandwidth step of another signal",
       tiny_with("switches:\n  ibcs: {signal: nqd, bandwidth_step: 1G}\n"), 8,
       "switches.ibcs.bandwidth_step", "only signal: abw reads it"},
      {"IBCS delay step of another signal",
       tiny_with("switches:\n  ibcs: {delay_step: 1us}\n"), 8,
       "switches.ibcs.delay_step", "only signal: delay reads it"},
      {"IBCS max_age below the sample interval",
       tiny_with("switches:\n  ibcs:\n    sample_interval: 10us\n"
                 "    max_age: 5us\n"),
       10, "switches.ibcs.max_age", "must be at least sample_interval"},
      {"unknown congestion control",
       tiny_with("hosts:\n  congestion_control: hpcc\n"), 8,
       "hosts.congestion_control",
       "unknown congestion control 'hpcc' (dctcp, ibcs)"},
      {"IBCS congestion control without IBCS",
       tiny_with("hosts:\n  congestion_control: ibcs\n"), 8,
       "hosts.congestion_control", "ibcs needs switches.ibcs"},
      {"an IBCS key with DCTCP", tiny_with("hosts:\n  ibcs_target: 3\n"), 8,
       "hosts.ibcs_target", "only with congestion_control: ibcs"},
      {"MAX signal's target at its top",
       tiny_with("switches:\n  ibcs: {signal: nqd}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_target: 31\n"),
       11, "hosts.ibcs_target", "31 is the top of the MAX signal nqd"},
      {"MIN signal's target at its bottom",
       tiny_with("switches:\n  ibcs: {signal: abw}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_target: 0\n"),
       11, "hosts.ibcs_target", "0 is the bottom of the MIN signal abw"},
      {"IBCS target beyond the field",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_target: 32\n"),
       11, "hosts.ibcs_target", "32 is above the maximum 31"},
      {"an IBCS key with DCTCP named",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: dctcp\n  ibcs_max_decrease: 0.3\n"),
       11, "hosts.ibcs_max_decrease", "only with congestion_control: ibcs"},
      {"congestion control not a name",
       tiny_with("hosts:\n  congestion_control: [ibcs]\n"), 8,
       "hosts.congestion_control", "expected a string, found a list"},
      {"IBCS target negative",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_target: -1\n"),
       11, "hosts.ibcs_target", "not a non-negative integer"},
      {"IBCS target not an integer",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_target: 2.5\n"),
       11, "hosts.ibcs_target", "not a non-negative integer"},
      {"IBCS beta above 1",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_beta: 1.5\n"),
       11, "hosts.ibcs_beta", "above 1"},
      {"IBCS no cut at all",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_max_decrease: 0\n"),
       11, "hosts.ibcs_max_decrease", "must be in (0, 1)"},
      {"IBCS beta zero",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_beta: 0\n"),
       11, "hosts.ibcs_beta", "must be in (0, 1]"},
      {"IBCS cut to nothing",
       tiny_with("switches:\n  ibcs: {}\nhosts:\n"
                 "  congestion_control: ibcs\n  ibcs_max_decrease: 1\n"),
       11, "hosts.ibcs_max_decrease", "must be in (0, 1)"},
      {"not a map", "- a\n- b\n", 1, "<top>", "expected a map"},
      // Found by fuzz/scenario_fuzz: keys without a name gave an empty key.
      {"null top-level key", ":\n", 1, "<top>", "a key must be a plain word"},
      {"empty key", "stop_at: 10ms\n\"\": 1\n", 2, "<top>",
       "a key must be a plain word"},
      {"list as a key", "stop_at: 10ms\ntopology: {kind: clos3, [a]: 1}\n", 2,
       "topology", "a key must be a plain word"},
  };
  for (const BadCase& c : cases) {
    const auto r = parse_scenario(c.yaml, "bad.yaml");
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().file, "bad.yaml") << c.what;
    EXPECT_EQ(r.error().line, c.line)
        << c.what << ": " << r.error().to_string();
    EXPECT_EQ(r.error().key, c.key) << c.what << ": " << r.error().to_string();
    EXPECT_NE(r.error().message.find(c.message), std::string::npos)
        << c.what << ": " << r.error().to_string();
  }
}

TEST(ParseScenario, ColumnsPointAtTheValue) {
  const auto r = parse_scenario(
      "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: 0\n  leaves: 2\n"
      "  hosts_per_leaf: 1\n",
      "c.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "c.yaml:4:11: topology.spines: must be at least 1");
}

TEST(ParseScenario, MessagesAsTheSchemaDocumentShowsThem) {
  // docs/SCENARIO.md quotes these.
  auto r = parse_scenario("stop_at: 10ms\nstopat: 5ms\n", "bad.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "bad.yaml:2:1: stopat: unknown key 'stopat' (did you mean "
            "'stop_at'?)");
  r = parse_scenario(tiny_with("events:\n  - {at: 1ms, kind: link_down, "
                               "link: [spine0, host0.0]}\n"),
                     "bad.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "bad.yaml:8:38: events[0].link: event at line 8 on a missing "
            "link: no link between 'spine0' and 'host0.0'");
  r = parse_scenario(tiny_with("  host_link: {rate: 40X}\n"), "bad.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "bad.yaml:7:21: topology.host_link.rate: rate '40X': expected a "
            "number with K/M/G/T suffix (e.g. 400G)");
}

TEST(ParseScenario, LsnScaleFabricParsesQuickly) {
  // The LSN §4.2 fabric: 256 spines x 256 leaves (65,536 fabric links),
  // with an event on the example's spine-to-leaf-5 link.
  const auto s = parse_scenario(
      "stop_at: 10ms\ntopology:\n  kind: clos3\n  spines: 256\n"
      "  leaves: 256\n  hosts_per_leaf: 16\nevents:\n"
      "  - {at: 1ms, kind: link_down, link: [spine0, leaf5]}\n",
      "lsn.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->topology.summary(),
            "clos3: 256 spines, 256 leaves, 4096 hosts; 69632 links");
  EXPECT_EQ(s->topology.nodes[*s->topology.find("leaf5")].lsn_node_id, 5);
}

RC_GTEST_PROP(ParseScenarioProperty, YamlClos5MatchesTheGenerator, ()) {
  Clos5Params p;
  p.pods = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.leaves_per_pod = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.spines_per_pod = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.super_spines_per_plane = *rc::gen::inRange<std::uint32_t>(1, 5);
  p.hosts_per_leaf = *rc::gen::inRange<std::uint32_t>(1, 4);
  const auto s = parse_scenario(
      strformat("stop_at: 1ms\ntopology:\n  kind: clos5\n  pods: {}\n"
                "  leaves_per_pod: {}\n  spines_per_pod: {}\n"
                "  super_spines_per_plane: {}\n  hosts_per_leaf: {}\n",
                p.pods, p.leaves_per_pod, p.spines_per_pod,
                p.super_spines_per_plane, p.hosts_per_leaf),
      "p.yaml");
  RC_ASSERT(s.has_value());
  const Topology t = make_clos5(p);
  RC_ASSERT(s->topology.nodes.size() == t.nodes.size());
  RC_ASSERT(s->topology.links.size() == t.links.size());
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    RC_ASSERT(s->topology.nodes[i].name == t.nodes[i].name);
    RC_ASSERT(s->topology.nodes[i].asn == t.nodes[i].asn);
  }
  RC_ASSERT(s->topology.connected());
}

TEST(ParseScenario, ManyLeavesAreFineWithoutLsn) {
  const auto r = parse_scenario(
      "stop_at: 10ms\nmodes: [ecmp, fare]\ntopology:\n  kind: clos3\n"
      "  spines: 1\n  leaves: 16385\n  hosts_per_leaf: 1\n",
      "big.yaml");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->topology.count(NodeRole::leaf), 16'385U);
}

TEST(ParseScenario, CdfBesideTheScenarioFile) {
  TempDir dir;
  dir.write("my.cdf", "# mine\n100 0\n200 1\n");
  const std::string path = dir.write(
      "s.yaml", tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                          "    duration: 1ms\n    flow_size_cdf: my.cdf\n"));
  const auto s = load_scenario_file(path);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->workloads[0].flow_size_cdf_path,
            (dir.path() / "my.cdf").string());
  EXPECT_DOUBLE_EQ(s->workloads[0].flow_size_cdf.mean_bytes(), 150.0);
  EXPECT_EQ(s->workloads[0].participants.size(), 4U);
}

// A duration past stop_at draws flows only until stop_at: 1000s of 800
// Gb/s of web search flows would be about 58 million, refused; 10ms of
// them are about 580.
TEST(ParseScenario, PoissonDurationPastStopAtCountsFlowsUntilStopAt) {
  const auto s = parse_scenario(
      tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                "    duration: 1000s\n"
                "    flow_size_cdf: WebSearch_distribution.txt\n"),
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/s.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->workloads[0].duration, sec(1000));
  EXPECT_EQ(poisson_arrivals_end(s->workloads[0], s->stop_at), ms(10));
}

TEST(ParseScenario, CdfFromTheRepositoryDataDirectory) {
  // A scenario under examples/ finds data/workloads/ by walking up.
  const std::string file =
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/virtual.yaml";
  const auto s = parse_scenario(
      tiny_with(
          "workloads:\n  - kind: poisson\n    load: 30%\n"
          "    duration: 1ms\n    flow_size_cdf: FbHdp_distribution.txt\n"),
      file);
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(fs::path(s->workloads[0].flow_size_cdf_path),
            fs::weakly_canonical(std::string(ARFABRIC_SOURCE_DIR) +
                                 "/data/workloads/FbHdp_distribution.txt"));
  EXPECT_DOUBLE_EQ(s->workloads[0].load, 0.3);
}

TEST(ParseScenario, MalformedCdfNamesTheCdfFileAndLine) {
  TempDir dir;
  const std::string cdf = dir.write("bad.cdf", "0 0\n10 0.5\n5 1\n");
  const std::string path = dir.write(
      "s.yaml", tiny_with("workloads:\n  - kind: poisson\n    load: 0.5\n"
                          "    duration: 1ms\n    flow_size_cdf: bad.cdf\n"));
  const auto r = load_scenario_file(path);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().file, cdf);
  EXPECT_EQ(r.error().line, 3);
  EXPECT_EQ(r.error().key, "workloads[0].flow_size_cdf");
  EXPECT_NE(r.error().message.find(strformat("flow_size_cdf at {}:11", path)),
            std::string::npos)
      << r.error().to_string();
}

TEST(ParseScenario, MissingScenarioFile) {
  const auto r = load_scenario_file("/nonexistent/x.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "/nonexistent/x.yaml: cannot read the scenario file: No such "
            "file or directory");
  // A directory opens and reads as empty: it is named for what it is.
  const auto dir = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR));
  ASSERT_FALSE(dir);
  EXPECT_EQ(dir.error().to_string(),
            std::string(ARFABRIC_SOURCE_DIR) +
                ": cannot read the scenario file: it is a directory");
}

TEST(ParseScenario, EdgesWithExplicitIdentities) {
  const auto s = parse_scenario(
      kEdgesHead +
          "    - {name: s1, role: spine, asn: 65000, router_id: 192.0.2.1}\n"
          "  links:\n    - [s0, l0]\n    - [s0, l1]\n    - [s1, l0]\n"
          "    - {a: h0, b: l1, rate: 25G}\n",
      "e.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  const Topology& t = s->topology;
  const NodeSpec& s1 = t.nodes[*t.find("s1")];
  EXPECT_EQ(s1.asn, 65000U);
  EXPECT_EQ(s1.router_id, 0xc0000201U);
  EXPECT_EQ(t.nodes[*t.find("s0")].asn, kSpineAsnBase);
  EXPECT_EQ(t.nodes[*t.find("l1")].lsn_node_id, 1);
  EXPECT_EQ(t.links[3].rate, gbps(25));
  EXPECT_EQ(t.links[0].rate, gbps(400));
}

}  // namespace
}  // namespace arfabric::sim
