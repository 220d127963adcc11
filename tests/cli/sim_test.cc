#include "cli/sim.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>

#include "support/capture.h"
#include "sysdep/linux/memory.h"

namespace arfabric::cli {
namespace {

namespace fs = std::filesystem;

SimOptions tiny(const std::string& out_dir) {
  SimOptions o;
  o.scenario_path =
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/tiny.yaml";
  o.modes = {"ecmp"};
  o.out_dir = out_dir;
  return o;
}

TEST(SimCommand, OutWritesEveryFileAndSaysWhere) {
  const fs::path dir = testing::temp_path("sim-out") + "/run";
  fs::remove_all(dir);
  SimOptions o = tiny(dir.string());
  o.modes = {"ecmp", "fare+lsn"};
  std::ostringstream out, err;
  const int code = run_sim(o, out, err);
  EXPECT_EQ(code, 0) << err.str();
  EXPECT_NE(out.str().find("wrote " + dir.string() +
                           ": control-ecmp.pcap control-fare+lsn.pcap "
                           "results.json timeseries.csv goodput.svg"),
            std::string::npos)
      << out.str();
  for (const char* f : {"results.json", "timeseries.csv", "goodput.svg",
                        "control-ecmp.pcap", "control-fare+lsn.pcap"}) {
    EXPECT_GT(fs::file_size(dir / f), 0u) << f;
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().extension().string().find("partial"), std::string::npos);
    ++files;
  }
  EXPECT_EQ(files, 5u);
  std::ifstream f(dir / "results.json");
  const auto j = nlohmann::json::parse(f);
  EXPECT_EQ(j["modes"].size(), 2u);
  EXPECT_EQ(j["modes"][1]["mode"], "fare+lsn");
  EXPECT_GT(j["modes"][1]["lsn_frames"], 0);
  EXPECT_TRUE(j["not_run"].empty());
  EXPECT_EQ(err.str(), "");  // no progress bar when not a terminal
  // tiny's stop_at cuts BGP short after its link comes back: said, in the
  // table's cell and once below it.
  EXPECT_NE(out.str().find(" >10.211 ms "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("bgp conv. '>': BGP was still at work when the "
                           "run stopped at 20ms"),
            std::string::npos);
  EXPECT_FALSE(j["modes"][0]["bgp_settled"].get<bool>());
}

// Standard output that cannot be written (a reader gone, `| head`; a full
// disk) loses the table but not the files: they are written whole, and
// the run fails saying so. A closed pipe does not kill the process
// (SIGPIPE is ignored): the write fails instead.
TEST(SimCommand, AStandardOutputThatFailsStillWritesTheFiles) {
  const fs::path dir = testing::temp_path("sim-out") + "/failing-stdout";
  fs::remove_all(dir);
  std::ostringstream failing, err;
  failing.setstate(std::ios::badbit);
  EXPECT_EQ(run_sim(tiny(dir.string()), failing, err), 1);
  EXPECT_EQ(err.str(),
            "arfabric sim: could not write the results to standard output "
            "(the files in " +
                dir.string() + " are whole)\n");
  for (const char* f :
       {"results.json", "timeseries.csv", "goodput.svg", "control-ecmp.pcap"}) {
    EXPECT_GT(fs::file_size(dir / f), 0u) << f;
  }
  struct sigaction now {};
  ASSERT_EQ(sigaction(SIGPIPE, nullptr, &now), 0);
  EXPECT_EQ(now.sa_handler, SIG_IGN);
}

// --seed replaces the scenario's seed: the header and results.json say
// which one ran, the run is the scenario's with that seed written in it,
// another seed gives another run (the seed drives the links' random
// loss here), and the option takes counts only.
TEST(SimCommand, SeedReplacesTheScenariosSeed) {
  const fs::path dir = testing::temp_path("sim-seed");
  fs::create_directories(dir);
  auto write_scenario = [&](int seed) {
    const fs::path file = dir / ("lossy" + std::to_string(seed) + ".yaml");
    std::ofstream(file) << "name: lossy\nseed: " << seed << R"(
stop_at: 20ms
modes: [fare]
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 2
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns, drop_probability: 0.01}
workloads:
  - {kind: all_to_all, participants: all, bytes: 256KB}
)";
    return file.string();
  };
  auto run = [&](const std::string& scenario,
                 std::optional<std::uint64_t> seed) {
    const fs::path out_dir = dir / "run";
    fs::remove_all(out_dir);
    SimOptions o;
    o.scenario_path = scenario;
    o.out_dir = out_dir.string();
    o.seed = seed;
    std::ostringstream out, err;
    EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
    std::ifstream f(out_dir / "results.json");
    return std::pair{out.str(), nlohmann::json::parse(f)};
  };
  const std::string seven = write_scenario(7);
  const auto [own_out, own] = run(seven, std::nullopt);
  EXPECT_NE(own_out.find("scenario lossy (seed 7): "), std::string::npos)
      << own_out;
  EXPECT_EQ(own["scenario"]["seed"], 7);
  EXPECT_EQ(run(seven, 7).second, own);
  EXPECT_GT(own["modes"][0]["dropped"]["link_error"].get<int>(), 0);

  const auto [other_out, other] = run(seven, 8);
  EXPECT_NE(other_out.find("scenario lossy (seed 8): "), std::string::npos)
      << other_out;
  EXPECT_EQ(other["scenario"]["seed"], 8);
  EXPECT_NE(other["modes"], own["modes"]);
  EXPECT_EQ(run(write_scenario(8), std::nullopt).second, other);

  CLI::App app;
  SimOptions options;
  add_sim_command(app, options);
  // Parsed as the scenario's `seed:` is: base 10, below 2^64.
  auto parse = [&](const std::string& text) {
    options.seed.reset();
    app.parse(std::vector<std::string>{text, "--seed", "sim"});
    return options.seed;
  };
  EXPECT_EQ(parse("8"), std::optional<std::uint64_t>{8});
  EXPECT_EQ(parse("010"), std::optional<std::uint64_t>{10});
  EXPECT_EQ(parse("18446744073709551615"),
            std::optional<std::uint64_t>{18446744073709551615u});
  for (const char* bad :
       {"-3", "x", "0x10", "18446744073709551616", "8s", "1e3", ""}) {
    EXPECT_THROW(parse(bad), CLI::ParseError) << bad;
  }
}

// -j is a thread count read in base 10 (CLI11 alone took 010 as 8), and a
// bad one is named with the range it must be in.
TEST(SimCommand, JobsIsADecimalThreadCount) {
  CLI::App app;
  SimOptions options;
  add_sim_command(app, options);
  auto parse = [&](const std::string& text) {
    options.jobs = 99;
    app.parse(std::vector<std::string>{text, "-j", "sim"});
    return options.jobs;
  };
  EXPECT_EQ(parse("1"), 1u);
  EXPECT_EQ(parse("010"), 10u);
  EXPECT_EQ(parse("1024"), 1024u);
  for (const char* bad : {"0", "-1", "0x2", "2.5", "1025", "99999999999", "abc",
                          "1e1", " 3", ""}) {
    try {
      parse(bad);
      ADD_FAILURE() << "accepted -j '" << bad << "'";
    } catch (const CLI::ParseError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--jobs: '" + std::string(bad) +
                    "' is not a thread count from 1 to 1024")
          << bad;
    }
  }
}

// A mode given twice is refused, as in a scenario's `modes:`, before
// anything runs or is written (it would have two rows and clash over
// its pcap).
TEST(SimCommand, AModeGivenTwiceIsAnError) {
  const fs::path dir = testing::temp_path("sim-twice") + "/run";
  fs::remove_all(dir);
  SimOptions o = tiny(dir.string());
  o.modes = {"ecmp", "fare", "ecmp"};
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 1);
  EXPECT_EQ(err.str(), "arfabric sim: mode 'ecmp' given twice (-m)\n");
  EXPECT_EQ(out.str(), "");
  EXPECT_FALSE(fs::exists(dir));
}

// --memory-limit is a size (the scenario's units) or none; anything else
// is named with what it must be.
TEST(SimCommand, MemoryLimitIsASizeOrNone) {
  CLI::App app;
  SimOptions options;
  add_sim_command(app, options);
  auto parse = [&](const std::string& text) {
    options.memory_limit.reset();
    app.parse(std::vector<std::string>{text, "--memory-limit", "sim"});
    return options.memory_limit;
  };
  EXPECT_EQ(parse("16GiB"), std::optional<std::uint64_t>{16ull << 30});
  EXPECT_EQ(parse("500MB"), std::optional<std::uint64_t>{500'000'000});
  EXPECT_EQ(parse("4096"), std::optional<std::uint64_t>{4096});
  EXPECT_EQ(parse("none"), std::optional<std::uint64_t>{kNoMemoryLimit});
  for (const char* bad : {"0", "16G", "-1GB", "lots", "1.5B", ""}) {
    try {
      parse(bad);
      ADD_FAILURE() << "accepted --memory-limit '" << bad << "'";
    } catch (const CLI::ParseError& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with(
          "--memory-limit: '" + std::string(bad) +
          "' is not a size above 0 (e.g. 16GiB, 500MB) or none"))
          << e.what();
    }
  }
}

// An ostream that raises a signal once it has been given `trigger`: the
// user's Ctrl-C, at a chosen point of the output.
class SignalAt : public std::stringbuf {
 public:
  SignalAt(std::string trigger, int signal)
      : trigger_(std::move(trigger)), signal_(signal) {}
  int sync() override {
    if (!raised_ && str().find(trigger_) != std::string::npos) {
      raised_ = true;
      std::raise(signal_);
    }
    return 0;
  }

 private:
  std::string trigger_;
  int signal_;
  bool raised_ = false;
};

// Ctrl-C once the first mode's row is printed, with -j 1: the first
// mode's row and files are complete, the last (four modes' run times
// later) and any others not finished say they were interrupted, and the
// exit code is the shell's for SIGINT. The signal's action is back to
// the default afterwards.
TEST(SimCommand, CtrlCStopsTheModesLeftAndKeepsThoseFinished) {
  const fs::path dir = testing::temp_path("sim-interrupt") + "/run";
  fs::remove_all(dir);
  SimOptions o = tiny(dir.string());
  o.modes = {"ecmp", "fare", "fare+lsn", "fare+arn", "fare+lsn+arn"};
  o.jobs = 1;
  SignalAt buffer("\necmp ", SIGINT);
  std::ostream out(&buffer);
  std::ostringstream err;
  EXPECT_EQ(run_sim(o, out, err), 130) << err.str();
  const std::string text = buffer.str();
  EXPECT_TRUE(std::regex_search(text, std::regex("\necmp +7.138 ms +6.7 G ")))
      << text;
  EXPECT_TRUE(std::regex_search(
      text, std::regex("\nfare\\+lsn\\+arn +not run: interrupted by SIGINT; "
                       "(not started|stopped during the (set-up|BGP "
                       "warm-up|workload))")))
      << text;
  const std::regex not_run("not run: (.*)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), not_run);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE((*it)[1].str().starts_with("interrupted by SIGINT; "))
        << (*it)[0];
  }
  EXPECT_EQ(err.str(),
            "arfabric sim: interrupted by SIGINT: the modes that "
            "finished are above and in " +
                dir.string() + "; the others say 'not run'\n");
  std::ifstream f(dir / "results.json");
  const auto j = nlohmann::json::parse(f);
  ASSERT_GE(j["modes"].size(), 1u);
  EXPECT_EQ(j["modes"][0]["mode"], "ecmp");
  ASSERT_GE(j["not_run"].size(), 1u);
  EXPECT_EQ(j["not_run"].back()["mode"], "fare+lsn+arn");
  EXPECT_EQ(j["modes"].size() + j["not_run"].size(), 5u);
  EXPECT_GT(fs::file_size(dir / "control-ecmp.pcap"), 0u);
  EXPECT_FALSE(fs::exists(dir / "control-fare+lsn+arn.pcap"));
  struct sigaction now {};
  sigaction(SIGINT, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);

  // SIGTERM before any mode finished: none ran, exit code 143.
  o.out_dir.clear();
  SignalAt early("\nmode ", SIGTERM);
  std::ostream early_out(&early);
  std::ostringstream early_err;
  EXPECT_EQ(run_sim(o, early_out, early_err), 143) << early_err.str();
  EXPECT_NE(early.str().find("ecmp          not run: interrupted by SIGTERM"),
            std::string::npos)
      << early.str();
  EXPECT_NE(early.str().find("fare+lsn      not run: interrupted by SIGTERM; "
                             "not started"),
            std::string::npos)
      << early.str();

  // Ctrl-C once the only mode has finished: nothing is lost, but the exit
  // code still says the command was interrupted.
  o.modes = {"ecmp"};
  SignalAt late("\necmp ", SIGINT);
  std::ostream late_out(&late);
  std::ostringstream late_err;
  EXPECT_EQ(run_sim(o, late_out, late_err), 130) << late_err.str();
  EXPECT_EQ(late.str().find("not run"), std::string::npos) << late.str();
  EXPECT_EQ(late_err.str(),
            "arfabric sim: interrupted by SIGINT after every mode had "
            "finished; the results are whole\n");
}

// Past the memory limit, no mode starts (a limit below what the process
// already holds trips before the first), each row and results.json say
// why, and the command says what would need less. Exit code 2, as for any
// mode not run.
TEST(SimCommand, AMemoryLimitPassedStopsTheModesSayingWhy) {
  const fs::path dir = testing::temp_path("sim-memory") + "/run";
  fs::remove_all(dir);
  SimOptions o = tiny(dir.string());
  o.modes = {"ecmp", "fare"};
  o.jobs = 2;
  o.memory_limit = 1 << 20;  // 1 MiB
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 2) << err.str();
  const std::string reason =
      R"(memory use reached [0-9.]+ [MG]iB, over the limit of 1 MiB )"
      R"(\(--memory-limit\))";
  for (const char* mode : {"ecmp", "fare"}) {
    EXPECT_TRUE(std::regex_search(
        out.str(), std::regex(std::string("\n") + mode +
                              " +not run: " + reason + "; not started\n")))
        << out.str();
  }
  EXPECT_TRUE(std::regex_match(
      err.str(),
      std::regex("arfabric sim: stopped at the memory limit: " + reason +
                 R"(\. Fewer modes at once \(-j 1\), fewer )"
                 R"(modes \(-m\) or a smaller scenario need )"
                 "less\\.\n")))
      << err.str();
  std::ifstream f(dir / "results.json");
  const auto j = nlohmann::json::parse(f);
  EXPECT_TRUE(j["modes"].empty());
  ASSERT_EQ(j["not_run"].size(), 2u);
  EXPECT_EQ(j["not_run"][1]["mode"], "fare");
  EXPECT_TRUE(j["not_run"][1]["reason"].get<std::string>().starts_with(
      "memory use reached "));

  // Without a limit, or with the default one, the same run runs.
  for (const std::optional<std::uint64_t> limit :
       {std::optional<std::uint64_t>{kNoMemoryLimit},
        std::optional<std::uint64_t>{}}) {
    o.memory_limit = limit;
    std::ostringstream runs_out, runs_err;
    EXPECT_EQ(run_sim(o, runs_out, runs_err), 0) << runs_err.str();
    EXPECT_EQ(runs_out.str().find("not run"), std::string::npos);
  }
}

// A set-up that goes on growing past the limit (building a wide fabric's
// FIBs cannot stop part way) ends the process with exit code 3 and the
// reason, before the system's OOM killer would end it without one.
TEST(SimCommandDeathTest, MemoryThatRunsAwayInTheSetUpExitsWithAMessage) {
  const std::string path = testing::temp_path("sim-runaway.yaml");
  std::ofstream(path) << "name: wide\nseed: 1\nstop_at: 1ms\n"
                         "modes: [ecmp]\ntopology:\n  kind: clos3\n"
                         "  spines: 16\n  leaves: 2400\n"
                         "  hosts_per_leaf: 1\n"
                         "  host_link: {rate: 400G, delay: 100ns}\n"
                         "  leaf_spine_link: {rate: 400G, delay: 500ns}\n"
                         "switches:\n  routing: static\n";
  SimOptions o;
  o.scenario_path = path;
  o.jobs = 1;
  // Its capture's partial file goes with it.
  const fs::path dir = testing::fresh_temp_path("sim-runaway-out");
  o.out_dir = dir.string();
  // Routes stop when asked; building the FIBs (325 MB here) does not, and
  // is read many times while it grows.
  o.memory_check_interval = std::chrono::milliseconds(5);
  EXPECT_EXIT(
      {
        const auto resident = sysdep::resident_bytes();
        if (!resident) std::_Exit(1);
        o.memory_limit = *resident + (64 << 20);
        std::ostringstream out;
        run_sim(o, out, std::cerr);
        std::_Exit(0);  // not reached when the guard works
      },
      ::testing::ExitedWithCode(3),
      "arfabric sim: memory use reached .* over the limit of .* "
      "\\(--memory-limit\\), and still grows: a mode's set-up, which does "
      "not stop part way, went on; exiting before the system kills the "
      "process\\. Fewer modes \\(-m\\) or a smaller scenario need less\\.");
  EXPECT_TRUE(fs::is_directory(dir));  // made before the run
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(SimCommand, ParallelModesGiveTheSameFiles) {
  std::string json[2];
  for (unsigned jobs : {1u, 2u}) {
    const fs::path dir =
        testing::temp_path("sim-jobs-" + std::to_string(jobs)) + "/run";
    fs::remove_all(dir);
    SimOptions o = tiny(dir.string());
    o.modes = {"ecmp", "fare+lsn", "fare+arn"};
    o.jobs = jobs;
    std::ostringstream out, err;
    ASSERT_EQ(run_sim(o, out, err), 0) << err.str();
    std::ifstream f(dir / "results.json");
    std::stringstream text;
    text << f.rdbuf();
    json[jobs - 1] = text.str();
    // Rows in mode order whatever finished first.
    const std::string table = out.str();
    EXPECT_LT(table.find("\necmp"), table.find("\nfare+lsn"));
    EXPECT_LT(table.find("\nfare+lsn"), table.find("\nfare+arn"));
  }
  EXPECT_FALSE(json[0].empty());
  EXPECT_EQ(json[0], json[1]);
}

TEST(SimCommand, IbcsTablePrintsWhenTheScenarioEnablesIt) {
  const std::string file = testing::temp_path("sim-ibcs") + ".yaml";
  {
    std::ifstream in(std::string(ARFABRIC_SOURCE_DIR) +
                     "/examples/scenarios/tiny.yaml");
    std::ofstream o(file);
    o << in.rdbuf() << "switches:\n  ibcs: {signal: nqd}\n";
  }
  SimOptions o = tiny("");
  o.scenario_path = file;
  o.modes = {"ecmp", "fare"};
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
  const std::string text = out.str();
  const auto table = text.find(
      "IBCS, CSIG signal nqd (0..31 at receivers; hosts' congestion "
      "control: dctcp):");
  ASSERT_NE(table, std::string::npos) << text;
  EXPECT_NE(text.find("\necmp ", table), std::string::npos) << text;
  EXPECT_NE(text.find("\nfare ", table), std::string::npos) << text;
  fs::remove(file);
  // Without the key there is no IBCS table.
  std::ostringstream plain_out, plain_err;
  o.scenario_path =
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/tiny.yaml";
  EXPECT_EQ(run_sim(o, plain_out, plain_err), 0) << plain_err.str();
  EXPECT_EQ(plain_out.str().find("IBCS"), std::string::npos);
  // The example whose hosts act on the signal says so.
  std::ostringstream cc_out, cc_err;
  o.scenario_path =
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/ibcs_incast.yaml";
  o.modes = {"ecmp"};
  EXPECT_EQ(run_sim(o, cc_out, cc_err), 0) << cc_err.str();
  EXPECT_NE(cc_out.str().find("nqd (0..31 at receivers; hosts' congestion "
                              "control: ibcs):"),
            std::string::npos)
      << cc_out.str();
}

// --congestion-control runs a scenario's hosts with the other controller:
// the same incast, with DCTCP, ends differently.
TEST(SimCommand, CongestionControlOptionReplacesTheScenarios) {
  SimOptions o = tiny("");
  o.scenario_path =
      std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/ibcs_incast.yaml";
  std::ostringstream ibcs_out, ibcs_err, dctcp_out, dctcp_err;
  EXPECT_EQ(run_sim(o, ibcs_out, ibcs_err), 0) << ibcs_err.str();
  o.congestion_control = "dctcp";
  EXPECT_EQ(run_sim(o, dctcp_out, dctcp_err), 0) << dctcp_err.str();
  EXPECT_NE(dctcp_out.str().find("hosts' congestion control: dctcp):"),
            std::string::npos)
      << dctcp_out.str();
  // The ecmp row less its wall time: the drops differ (42 and 33).
  const auto row = [](const std::string& text) {
    const auto at = text.find("\necmp ");
    if (at == std::string::npos) return std::string("no ecmp row");
    const std::string line = text.substr(at, text.find('\n', at + 1) - at);
    return std::regex_replace(line, std::regex(" +[0-9.]+ s$"), "");
  };
  ASSERT_NE(row(ibcs_out.str()), "no ecmp row") << ibcs_out.str();
  EXPECT_NE(row(ibcs_out.str()), row(dctcp_out.str()));

  // Bad values: named, and nothing runs.
  o.congestion_control = "hpcc";
  std::ostringstream bad_out, bad_err;
  EXPECT_EQ(run_sim(o, bad_out, bad_err), 1);
  EXPECT_NE(bad_err.str().find("--congestion-control: unknown 'hpcc' "
                               "(dctcp, ibcs)"),
            std::string::npos)
      << bad_err.str();
  EXPECT_EQ(bad_out.str(), "");
  o = tiny("");  // tiny.yaml has no switches.ibcs
  o.congestion_control = "ibcs";
  std::ostringstream none_out, none_err;
  EXPECT_EQ(run_sim(o, none_out, none_err), 1);
  EXPECT_NE(none_err.str().find("--congestion-control: ibcs needs "
                                "switches.ibcs"),
            std::string::npos)
      << none_err.str();
}

// The summary table gives notifications' bytes next to their count (the
// issue's "notification overhead (frames, bytes)"), and a line for drops
// without a column: here random link errors.
TEST(SimCommand, TableShowsNotificationBytesAndLinkErrors) {
  const std::string file = testing::temp_path("sim-errors") + ".yaml";
  {
    std::ifstream in(std::string(ARFABRIC_SOURCE_DIR) +
                     "/examples/scenarios/tiny.yaml");
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    const std::string key = "leaf_spine_link: {rate: 100G, delay: 500ns";
    ASSERT_NE(text.find(key), std::string::npos);
    text.replace(text.find(key), key.size(), key + ", drop_probability: 0.01");
    std::ofstream(file) << text;
  }
  SimOptions o = tiny("");
  o.scenario_path = file;
  o.modes = {"fare+lsn"};
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
  fs::remove(file);
  const std::string text = out.str();
  const auto header = text.find("hw msgs   hw bytes    wall\n");
  ASSERT_NE(header, std::string::npos) << text;
  // The row's hw msgs and hw bytes: LSN frames of 84 bytes on the wire.
  std::istringstream row(text.substr(text.find("\nfare+lsn ", header) + 1));
  std::vector<std::string> cells;
  for (std::string cell; row >> cell && cell != "s";) cells.push_back(cell);
  ASSERT_GE(cells.size(), 3u) << text;
  const std::uint64_t frames = std::stoull(cells[cells.size() - 3]);
  const std::uint64_t bytes = std::stoull(cells[cells.size() - 2]);
  EXPECT_GT(frames, 0u) << text;
  EXPECT_EQ(bytes, frames * 84) << text;
  EXPECT_NE(text.find("packets lost to link errors (drop_probability)"),
            std::string::npos)
      << text;
}

TEST(SimCommand, TimingShowsWhereTheWallTimeWent) {
  SimOptions o = tiny("");
  o.modes = {"fare"};
  o.timing = true;
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
  const std::string text = out.str();
  const auto at = text.find("wall time (s):\nmode ");
  ASSERT_NE(at, std::string::npos) << text;
  std::istringstream row(text.substr(text.find("\nfare ", at) + 1));
  std::string mode;
  double setup = -1, warm_up = -1, start = -1, loop = -1, rate = -1;
  double events_per_hop = -1;
  std::uint64_t hops = 0;
  std::string mega;
  row >> mode >> setup >> warm_up >> start >> loop >> hops >> rate >> mega >>
      events_per_hop;
  EXPECT_EQ(mode, "fare");
  EXPECT_GE(setup, 0);
  EXPECT_GE(warm_up, 0);
  EXPECT_GE(start, 0);
  EXPECT_GE(loop, 0);
  EXPECT_GT(hops, 1000u);  // the collective's packets
  EXPECT_GT(rate, 0);
  EXPECT_EQ(mega, "M");
  // Every hop is an arrival event; transport timers and BGP add a few.
  EXPECT_GE(events_per_hop, 1.0);
  EXPECT_LT(events_per_hop, 1.5);
  EXPECT_TRUE(std::regex_search(
      text, std::regex("\npeak memory: [0-9.]+ [MG]iB \\(resident, the "
                       "whole process\\)\n")))
      << text;
  // Off by default.
  o.timing = false;
  std::ostringstream quiet, quiet_err;
  EXPECT_EQ(run_sim(o, quiet, quiet_err), 0);
  EXPECT_EQ(quiet.str().find("wall time"), std::string::npos);
}

TEST(SimCommand, OutIntoAFileFailsBeforeRunningAndNamesIt) {
  const std::string file = testing::temp_path("sim-out-file");
  fs::remove_all(file);
  std::ofstream(file) << "keep";
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(tiny(file), out, err), 1);
  EXPECT_NE(err.str().find("arfabric sim: cannot write output to " + file),
            std::string::npos)
      << err.str();
  EXPECT_EQ(out.str(), "");  // nothing ran
  std::ifstream f(file);
  std::string content;
  f >> content;
  EXPECT_EQ(content, "keep");
}

TEST(SimCommand, OutUnderAFileFailsAndNamesTheDirectory) {
  const std::string file = testing::temp_path("sim-out-parent");
  fs::remove_all(file);
  std::ofstream(file) << "x";
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(tiny(file + "/results"), out, err), 1);
  EXPECT_NE(err.str().find(file + "/results"), std::string::npos) << err.str();
}

// The error `arfabric sim OPTION VALUE` gets from the command line, or ""
// when it parses.
std::string option_error(const std::string& option, const std::string& value) {
  CLI::App app;
  SimOptions options;
  add_sim_command(app, options);
  try {
    app.parse(std::vector<std::string>{value, option, "sim"});
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

// --out '' would write nothing, silently: it is refused.
TEST(SimCommand, OutNeedsADirectory) {
  const std::string e = option_error("--out", "");
  EXPECT_NE(e.find("an empty path: name a directory"), std::string::npos) << e;
}

// -s '' would run the embedded default, silently: it is refused.
TEST(SimCommand, ScenarioNeedsAFile) {
  const std::string e = option_error("-s", "");
  EXPECT_NE(e.find("an empty path: name a scenario file, or leave -s out"),
            std::string::npos)
      << e;
}

// An LSN mode that -m adds to a file without one meets the checks the
// parser makes for the file's own: a period too short for LSN's frames
// is refused before anything runs (exit 1), not run without it (exit 2).
TEST(SimCommand, AnLsnModeAddedByMIsCheckedLikeTheFilesOwn) {
  const std::string file = testing::temp_path("sim-lsn-period") + ".yaml";
  std::ofstream(file) << R"(name: short
stop_at: 1ms
modes: [ecmp]
topology:
  kind: clos3
  spines: 2
  leaves: 2
  hosts_per_leaf: 1
  host_link: {rate: 100G, delay: 100ns}
  leaf_spine_link: {rate: 100G, delay: 500ns}
switches:
  lsn: {period: 1ns}
workloads:
  - {kind: all_to_all, participants: [host0.0, host1.0], bytes: 10KB}
)";
  SimOptions o = tiny("");
  o.scenario_path = file;
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();  // ecmp: no LSN
  o.modes = {"ecmp", "fare+lsn+arn"};
  std::ostringstream out2, err2;
  EXPECT_EQ(run_sim(o, out2, err2), 1);
  EXPECT_EQ(out2.str(), "");
  EXPECT_TRUE(err2.str().starts_with("arfabric sim: -m fare+lsn+arn: " + file +
                                     ": switches.lsn.period: 1ns: "))
      << err2.str();

  // And the queue thresholds the added mode reads: a 5KB buffer holds one
  // packet, so ARN's default queue_high (1/4 of it) might never be
  // reached; ecmp and fare, which read none, run.
  std::ofstream(file) << R"(stop_at: 1ms
modes: [ecmp]
topology: {kind: clos3, spines: 2, leaves: 2, hosts_per_leaf: 1}
switches: {routing: static, buffer_per_port: 5KB, ecn_threshold: 1KB}
hosts: {mss: 4KB, header_bytes: 64}
)";
  o.modes = {"ecmp", "fare"};
  std::ostringstream out3, err3;
  EXPECT_EQ(run_sim(o, out3, err3), 0) << err3.str();
  o.modes = {"ecmp", "fare+arn"};
  std::ostringstream out4, err4;
  EXPECT_EQ(run_sim(o, out4, err4), 1);
  EXPECT_TRUE(err4.str().starts_with(
      "arfabric sim: -m fare+arn: " + file +
      ": switches.arn.queue_high: ARN's queue_high (1250B) might never be "
      "reached"))
      << err4.str();
  EXPECT_NE(err4.str().find("; set it (by default 1/4 of the buffer) or a "
                            "larger buffer_per_port\n"),
            std::string::npos)
      << err4.str();
  fs::remove(file);
}

// An unfinished mode says below the table how many workload flows are
// open and which has been open longest, with its progress.
TEST(SimCommand, AnUnfinishedModeNamesItsOldestOpenFlow) {
  const std::string file = testing::temp_path("sim-cut") + ".yaml";
  std::ofstream(file) << R"(stop_at: 1ms
modes: [ecmp]
topology: {kind: clos3, spines: 1, leaves: 2, hosts_per_leaf: 1}
switches: {routing: static}
workloads:
  - {kind: all_to_all, bytes: 1MB}
events:
  - {at: 1us, kind: link_down, link: [leaf1, host1.0]}
)";
  SimOptions o = tiny("");
  o.scenario_path = file;
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
  const std::string text = out.str();
  const std::size_t at = text.find(
      "ecmp          unfinished at 1ms: 2 "
      "workload flows open; the oldest, host");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_NE(text.find(" from 0.0 us, had ", at), std::string::npos) << text;
  EXPECT_NE(text.find(" of its 1000000 bytes\n", at), std::string::npos)
      << text;
  fs::remove(file);
}

// No signal delivered: the IBCS table's mean is "-", as results.json's
// mean_delivered is null, not 0.00.
TEST(SimCommand, IbcsMeanOfNothingDeliveredIsADash) {
  const std::string file = testing::temp_path("sim-ibcs-none") + ".yaml";
  std::ofstream(file) << "stop_at: 1ms\n"
                         "topology: {kind: clos3, spines: 1, leaves: 2, "
                         "hosts_per_leaf: 1}\n"
                         "switches:\n  routing: static\n  ibcs: {}\n";
  SimOptions o = tiny("");
  o.scenario_path = file;
  o.modes = {"ecmp"};
  std::ostringstream out, err;
  EXPECT_EQ(run_sim(o, out, err), 0) << err.str();
  const std::string text = out.str();
  const auto row = text.find("\necmp ", text.find("IBCS, CSIG"));
  ASSERT_NE(row, std::string::npos) << text;
  const std::string line =
      text.substr(row + 1, text.find('\n', row + 1) - row - 1);
  EXPECT_EQ(line.back(), '-') << line;
  fs::remove(file);
}

}  // namespace
}  // namespace arfabric::cli
