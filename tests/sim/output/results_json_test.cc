#include "sim/output/results_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace arfabric::sim::output {
namespace {

using nlohmann::json;

Scenario load(const std::string& name) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/" + name);
  EXPECT_TRUE(s) << s.error().to_string();
  return *s;
}

std::string run(const Scenario& s,
                std::vector<Mode> modes = {Mode::ecmp, Mode::fare}) {
  std::vector<ModeResult> results;
  for (Mode m : modes) {
    auto r = run_mode(s, m);
    EXPECT_TRUE(r) << r.error();
    if (r) results.push_back(std::move(*r));
  }
  return results_json(s, results);
}

// The part of JSON Schema that docs/results.schema.json uses: type (one or
// a list), enum, required, properties, additionalProperties: false, items,
// minItems/maxItems, minimum. Appends a message per violation.
void check(const json& schema, const json& v, const std::string& where,
           std::vector<std::string>& errors) {
  if (schema.contains("type")) {
    auto is = [&](const std::string& t) {
      if (t == "object") return v.is_object();
      if (t == "array") return v.is_array();
      if (t == "string") return v.is_string();
      if (t == "boolean") return v.is_boolean();
      if (t == "null") return v.is_null();
      if (t == "integer") return v.is_number_integer();
      if (t == "number") return v.is_number();
      return false;
    };
    bool ok = false;
    if (schema["type"].is_array()) {
      for (const json& t : schema["type"]) ok = ok || is(t.get<std::string>());
    } else {
      ok = is(schema["type"].get<std::string>());
    }
    if (!ok) {
      errors.push_back(where + ": " + v.dump() + " is not " +
                       schema["type"].dump());
      return;
    }
  }
  if (schema.contains("enum") &&
      std::find(schema["enum"].begin(), schema["enum"].end(), v) ==
          schema["enum"].end()) {
    errors.push_back(where + ": " + v.dump() + " not in " +
                     schema["enum"].dump());
  }
  if (schema.contains("minimum") && v.is_number() &&
      v.get<double>() < schema["minimum"].get<double>()) {
    errors.push_back(where + ": below the minimum");
  }
  if (v.is_object()) {
    for (const json& k : schema.value("required", json::array())) {
      if (!v.contains(k.get<std::string>())) {
        errors.push_back(where + ": missing " + k.get<std::string>());
      }
    }
    const json props = schema.value("properties", json::object());
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (props.contains(it.key())) {
        check(props[it.key()], it.value(), where + "." + it.key(), errors);
      } else if (schema.value("additionalProperties", true) == false) {
        errors.push_back(where + ": unexpected key " + it.key());
      }
    }
  }
  if (v.is_array()) {
    if (schema.contains("minItems") && v.size() < schema["minItems"]) {
      errors.push_back(where + ": too few items");
    }
    if (schema.contains("maxItems") && v.size() > schema["maxItems"]) {
      errors.push_back(where + ": too many items");
    }
    if (schema.contains("items")) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        check(schema["items"], v[i], where + "[" + std::to_string(i) + "]",
              errors);
      }
    }
  }
}

json schema() {
  std::ifstream f(std::string(ARFABRIC_SOURCE_DIR) +
                  "/docs/results.schema.json");
  EXPECT_TRUE(f) << "docs/results.schema.json";
  return json::parse(f);
}

TEST(ResultsJson, TheSchemaCheckerCatchesWhatItShould) {
  const json s = schema();
  std::vector<std::string> errors;
  check(s, json::parse(R"({"format": "arfabric-sim-results", "version": 2,
                           "scenario": {}, "modes": [{"mode": "bgp"}],
                           "extra": 1})"),
        "$", errors);
  std::string all;  // PrintToString would elide most of a long list
  for (const std::string& e : errors) all += e + "\n";
  EXPECT_NE(all.find("$.version"), std::string::npos) << all;
  EXPECT_NE(all.find("missing not_run"), std::string::npos) << all;
  EXPECT_NE(all.find("unexpected key extra"), std::string::npos) << all;
  EXPECT_NE(all.find("$.scenario: missing seed"), std::string::npos) << all;
  EXPECT_NE(all.find("$.modes[0].mode"), std::string::npos) << all;
  EXPECT_NE(all.find("$.modes[0]: missing completion_ps"), std::string::npos)
      << all;
}

TEST(ResultsJson, ProducedFileMatchesTheDocumentedSchema) {
  const Scenario s = load("tiny.yaml");
  auto ecmp = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(ecmp) << ecmp.error();
  ModeResult unfinished = *ecmp;  // nulls for what did not happen
  unfinished.mode = Mode::fare;
  unfinished.finished = false;
  unfinished.completion = Time::max();
  unfinished.bgp_convergence = Time::max();
  const std::string text =
      results_json(s, {*ecmp, unfinished},
                   {{Mode::fare_lsn, "mode fare+lsn is not simulated yet"}});
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const json j = json::parse(text);
  std::vector<std::string> errors;
  check(schema(), j, "$", errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);

  EXPECT_EQ(j["scenario"]["name"], "tiny");
  EXPECT_EQ(j["scenario"]["seed"], 7);
  EXPECT_EQ(j["scenario"]["stop_at_ps"], ms(20).ps());
  ASSERT_EQ(j["scenario"]["events"].size(), 2u);
  EXPECT_EQ(j["scenario"]["events"][0]["kind"], "link_down");
  EXPECT_EQ(j["scenario"]["events"][0]["link"], json({"spine0", "leaf1"}));
  EXPECT_DOUBLE_EQ(j["scenario"]["events"][0]["at_s"].get<double>(), 100e-6);

  const json& m = j["modes"][0];
  EXPECT_EQ(m["mode"], "ecmp");
  EXPECT_EQ(m["payload_bytes"], ecmp->payload_bytes);
  EXPECT_EQ(m["completion_ps"], ecmp->completion.ps());
  EXPECT_DOUBLE_EQ(m["completion_s"].get<double>(), ecmp->completion.seconds());
  EXPECT_EQ(m["dropped"]["link_down"],
            ecmp->dropped[static_cast<std::size_t>(DropReason::link_down)]);
  EXPECT_EQ(m["samples"], ecmp->samples.size());
  EXPECT_TRUE(j["modes"][1]["completion_ps"].is_null());
  EXPECT_TRUE(j["modes"][1]["bgp_convergence_s"].is_null());
  EXPECT_EQ(j["not_run"][0]["mode"], "fare+lsn");
}

TEST(ResultsJson, IbcsBlockOnlyWhenEnabledAndMatchesTheSchema) {
  Scenario s = load("tiny.yaml");
  auto plain = run_mode(s, Mode::fare);
  s.switches.ibcs = IbcsParams{};
  auto signalled = run_mode(s, Mode::fare);
  ASSERT_TRUE(plain && signalled);
  const json j = json::parse(results_json(s, {*plain, *signalled}, {}));
  std::vector<std::string> errors;
  check(schema(), j, "$", errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_FALSE(j["modes"][0].contains("ibcs"));
  const json& ibcs = j["modes"][1]["ibcs"];
  EXPECT_EQ(ibcs["signal"], "abw_c");
  EXPECT_EQ(ibcs["delivered"], signalled->ibcs.delivered.delivered);
  EXPECT_EQ(ibcs["rewritten"], signalled->ibcs.switches.rewritten);
  ASSERT_EQ(ibcs["histogram"].size(), 32u);
  EXPECT_GT(ibcs["mean_delivered"].get<double>(), 0);
  EXPECT_LE(ibcs["mean_delivered"].get<double>(), 31);
  EXPECT_EQ(j["scenario"]["congestion_control"], "dctcp");
  EXPECT_FALSE(j["scenario"].contains("ibcs_controller"));
}

// A mode with incast events has an "incast" object, in the schema too
// (the schema lacked it, so every --out of an incast scenario failed it).
TEST(ResultsJson, IncastCountsMatchTheSchema) {
  const Scenario s = load("tiny.yaml");
  auto r = run_mode(s, Mode::ecmp);
  ASSERT_TRUE(r) << r.error();
  r->incast_flows = 3;
  r->incast_steered = 2;
  const json j = json::parse(results_json(s, {*r}, {}));
  std::vector<std::string> errors;
  check(schema(), j, "$", errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(j["modes"][0]["incast"]["flows"], 3);
  EXPECT_EQ(j["modes"][0]["incast"]["steered"], 2);
}

TEST(ResultsJson, TheIbcsControllersSettingsAreRecorded) {
  Scenario s = load("tiny.yaml");
  s.switches.ibcs = IbcsParams{};
  ASSERT_TRUE(set_congestion_control(s, HostCongestionControl::ibcs));
  s.hosts.ibcs_beta = 0.5;
  auto r = run_mode(s, Mode::fare);
  ASSERT_TRUE(r) << r.error();
  const json j = json::parse(results_json(s, {*r}, {}));
  std::vector<std::string> errors;
  check(schema(), j, "$", errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(j["scenario"]["congestion_control"], "ibcs");
  const json& c = j["scenario"]["ibcs_controller"];
  EXPECT_EQ(c["target"], ibcs_default_target(IbcsSignal::abw_c));
  EXPECT_EQ(c["beta"], 0.5);
  EXPECT_EQ(c["max_decrease"], 0.5);
}

TEST(ResultsJson, SameScenarioAndSeedGiveTheSameBytes) {
  const Scenario s = load("tiny.yaml");
  const std::string a = run(s);
  const std::string b = run(s);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.find("wall"), std::string::npos);  // no wall-clock field
}

TEST(ResultsJson, AnotherSeedChangesTheResults) {
  // Random link loss is what the seed drives in these modes.
  Scenario s = load("tiny.yaml");
  for (LinkSpec& l : s.topology.links) {
    if (!s.topology.is_host_link(
            static_cast<std::uint32_t>(&l - s.topology.links.data()))) {
      l.drop_probability = 0.001;
    }
  }
  const std::string a = run(s, {Mode::fare});
  EXPECT_EQ(a, run(s, {Mode::fare}));
  s.seed = 8;
  const std::string b = run(s, {Mode::fare});
  EXPECT_NE(a, b);
  const json ja = json::parse(a), jb = json::parse(b);
  EXPECT_GT(ja["modes"][0]["dropped"]["link_error"].get<int>(), 0);
  EXPECT_GT(jb["modes"][0]["dropped"]["link_error"].get<int>(), 0);
}

}  // namespace
}  // namespace arfabric::sim::output
