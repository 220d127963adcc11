#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/scenario/scenario.h"

namespace arfabric::sim {
namespace {

const std::string kExamples =
    std::string(ARFABRIC_SOURCE_DIR) + "/examples/scenarios/";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DefaultScenario, IsIssueFivesFabric) {
  const auto s = default_scenario();
  ASSERT_TRUE(s) << s.error().to_string();
  const Topology& t = s->topology;
  EXPECT_EQ(s->name, "default");
  EXPECT_EQ(t.count(NodeRole::spine), 16U);
  EXPECT_EQ(t.count(NodeRole::leaf), 32U);
  EXPECT_EQ(t.hosts().size(), 256U);
  for (const LinkSpec& l : t.links) EXPECT_EQ(l.rate, gbps(400));
  EXPECT_EQ(s->modes, (std::vector<Mode>{Mode::ecmp, Mode::fare, Mode::fare_lsn,
                                         Mode::fare_arn, Mode::fare_lsn_arn}));
  ASSERT_EQ(s->workloads.size(), 1U);
  const WorkloadSpec& w = s->workloads[0];
  EXPECT_EQ(w.kind, WorkloadKind::ring_allreduce);
  ASSERT_EQ(w.participants.size(), 256U);
  // Ring ordered across leaves: neighbours (and the wrap-around) sit under
  // different leaves, so every ring hop crosses a spine.
  const auto ports = t.ports();
  const auto leaf_of = [&](NodeIndex h) { return t.peer(ports[h][0], h); };
  for (std::size_t i = 0; i < w.participants.size(); ++i)
    EXPECT_NE(leaf_of(w.participants[i]),
              leaf_of(w.participants[(i + 1) % w.participants.size()]));
  // One spine-leaf link fails and another halves, both mid-collective
  // (a 32 MB ring all-reduce at 400G takes milliseconds).
  ASSERT_EQ(s->events.size(), 2U);
  EXPECT_EQ(s->events[0].kind, EventKind::link_down);
  EXPECT_FALSE(t.is_host_link(s->events[0].link));
  EXPECT_EQ(s->events[1].kind, EventKind::degrade);
  EXPECT_FALSE(t.is_host_link(s->events[1].link));
  EXPECT_EQ(s->events[1].new_rate, gbps(200));
  EXPECT_NE(s->events[0].link, s->events[1].link);
  EXPECT_LT(s->events[1].at, s->stop_at);
  // The fifth draft: IBCS signals ride on every data packet.
  ASSERT_TRUE(s->switches.ibcs);
  EXPECT_EQ(s->switches.ibcs->signal, IbcsSignal::abw);
}

TEST(DefaultScenario, ShippedFileIsTheEmbeddedText) {
  EXPECT_EQ(read(kExamples + "default.yaml"), default_scenario_yaml());
}

TEST(ExampleScenarios, EveryExampleParses) {
  std::size_t examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kExamples)) {
    if (entry.path().extension() != ".yaml") continue;
    ++examples;
    const std::string name = entry.path().filename().string();
    const auto s = load_scenario_file(entry.path().string());
    ASSERT_TRUE(s) << name << ": " << s.error().to_string();
    EXPECT_FALSE(s->topology.nodes.empty()) << name;
    EXPECT_TRUE(s->topology.connected()) << name;
  }
  EXPECT_GE(examples, 10u);  // the directory was found and read
}

TEST(ExampleScenarios, Shapes) {
  const auto tiny = load_scenario_file(kExamples + "tiny.yaml");
  ASSERT_TRUE(tiny);
  EXPECT_EQ(tiny->topology.nodes.size(), 2U + 2 + 4);
  const auto clos5 = load_scenario_file(kExamples + "clos5.yaml");
  ASSERT_TRUE(clos5);
  EXPECT_EQ(clos5->topology.count(NodeRole::super_spine), 16U);
  EXPECT_EQ(clos5->events[0].new_rate, gbps(200));
  const auto rail = load_scenario_file(kExamples + "rail.yaml");
  ASSERT_TRUE(rail);
  EXPECT_EQ(rail->topology.hosts().size(), 128U);
  EXPECT_EQ(rail->switches.path_selection, PathSelection::per_packet);
  const auto df = load_scenario_file(kExamples + "dragonfly.yaml");
  ASSERT_TRUE(df);
  EXPECT_EQ(df->topology.count(NodeRole::dragonfly_router), 20U);
  EXPECT_EQ(df->events[0].senders.size(), 4U);
  EXPECT_GT(df->workloads[0].flow_size_cdf.mean_bytes(), 1e6);  // web search
  const auto edges = load_scenario_file(kExamples + "edges.yaml");
  ASSERT_TRUE(edges);
  EXPECT_EQ(edges->topology.nodes[*edges->topology.find("leaf2")].asn,
            4'201'000'100U);
}

}  // namespace
}  // namespace arfabric::sim
