#include "sim/output/goodput_svg.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace arfabric::sim::output {
namespace {

// Well-formed enough for any SVG reader: every element closed in order,
// attribute values quoted, no bare '&' or '<' in text. Returns "" or what
// is wrong.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '&') {
      const std::size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi - i > 6) {
        return "bare & at " + std::to_string(i);
      }
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    const std::size_t end = s.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = s.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with("?")) continue;
    if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) {
      return "unbalanced quotes in <" + tag + ">";
    }
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.substr(1)) {
        return "</" + tag.substr(1) + "> closes " +
               (open.empty() ? std::string("nothing") : open.back());
      }
      open.pop_back();
    } else if (!tag.ends_with("/")) {
      open.push_back(tag.substr(0, tag.find(' ')));
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos;
       p = s.find(what, p + 1)) {
    ++n;
  }
  return n;
}

TEST(GoodputSvg, TheCheckerSeesBrokenXml) {
  EXPECT_EQ(xml_problem("<a><b/></a>"), "");
  EXPECT_NE(xml_problem("<a><b></a>"), "");
  EXPECT_NE(xml_problem("<a x=\"1></a>"), "");
  EXPECT_NE(xml_problem("<a>x & y</a>"), "");
}

TEST(GoodputSvg, OnePolylinePerModeAndADashedLinePerEvent) {
  auto s = load_scenario_file(std::string(ARFABRIC_SOURCE_DIR) +
                              "/examples/scenarios/tiny.yaml");
  ASSERT_TRUE(s) << s.error().to_string();
  s->name = "tiny <&>";  // escaped in the title
  std::vector<ModeResult> results;
  for (Mode m : {Mode::ecmp, Mode::fare}) {
    auto r = run_mode(*s, m);
    ASSERT_TRUE(r) << r.error();
    results.push_back(std::move(*r));
  }
  const std::string svg = goodput_svg(*s, results);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_TRUE(svg.starts_with("<?xml")) << svg.substr(0, 40);
  EXPECT_EQ(count(svg, "<svg "), 1u);
  EXPECT_EQ(count(svg, "<polyline "), 2u);
  EXPECT_EQ(count(svg, "data-mode=\"ecmp\""), 1u);
  EXPECT_EQ(count(svg, "data-mode=\"fare\""), 1u);
  // Every sample is a point.
  const std::size_t p = svg.find("data-mode=\"fare\"");
  const std::size_t pts = svg.find("points=\"", p);
  const std::string points =
      svg.substr(pts + 8, svg.find('"', pts + 8) - pts - 8);
  EXPECT_EQ(count(points, ","), results[1].samples.size());
  EXPECT_EQ(count(svg, "stroke-dasharray"), s->events.size());
  EXPECT_NE(svg.find(">link_down spine0-leaf1<"), std::string::npos);
  EXPECT_NE(svg.find(">link_up spine0-leaf1<"), std::string::npos);
  EXPECT_NE(svg.find(">ecmp</text>"), std::string::npos);  // legend
  EXPECT_NE(svg.find("tiny &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(svg.find("goodput (Gb/s)"), std::string::npos);
  EXPECT_NE(svg.find("time after warm-up (ms)"), std::string::npos);
}

TEST(GoodputSvg, NoResultsStillGiveAValidPlot) {
  Scenario s;
  s.name = "empty";
  s.stop_at = ms(1);
  const std::string svg = goodput_svg(s, {});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "<polyline "), 0u);
}

// The longest run a scenario allows (10^6 s) has plain tick labels.
TEST(GoodputSvg, LongRunsTickInPlainDigits) {
  Scenario s;
  s.name = "long";
  s.stop_at = sec(1'000'000);
  const std::string svg = goodput_svg(s, {});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(svg.find("e+"), std::string::npos);
  EXPECT_NE(svg.find(">1000000</text>"), std::string::npos);
}

TEST(GoodputSvg, TickStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_step(0.7), 1);
  EXPECT_DOUBLE_EQ(nice_step(1), 1);
  EXPECT_DOUBLE_EQ(nice_step(1.2), 2);
  EXPECT_DOUBLE_EQ(nice_step(3), 5);
  EXPECT_DOUBLE_EQ(nice_step(6), 10);
  EXPECT_DOUBLE_EQ(nice_step(0.013), 0.02);
  EXPECT_DOUBLE_EQ(nice_step(0), 1);
}

}  // namespace
}  // namespace arfabric::sim::output
