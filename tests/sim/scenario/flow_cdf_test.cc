#include "sim/scenario/flow_cdf.h"

#include <gtest/gtest.h>

#include <string>

namespace arfabric::sim {
namespace {

const std::string kData = std::string(ARFABRIC_SOURCE_DIR) + "/data/workloads/";

TEST(FlowCdf, EveryShippedFileParses) {
  // Percent files (HPCC) and fraction files (TrafficGenerator) both end at
  // cumulative 1 once parsed.
  for (const char* name :
       {"WebSearch_distribution.txt", "FbHdp_distribution.txt",
        "AliStorage2019.txt", "GoogleRPC2008.txt", "DCTCP_CDF.txt",
        "VL2_CDF.txt", "FB_CDF.txt"}) {
    const auto cdf = load_flow_cdf(kData + name);
    ASSERT_TRUE(cdf) << cdf.error().to_string();
    EXPECT_GE(cdf->points.size(), 9U) << name;
    EXPECT_DOUBLE_EQ(cdf->points.back().cumulative, 1.0) << name;
    EXPECT_DOUBLE_EQ(cdf->points.front().cumulative, 0.0) << name;
  }
}

TEST(FlowCdf, PercentAndFractionFilesOfTheSameWorkloadAgree) {
  // WebSearch (HPCC, percent) and DCTCP_CDF (TrafficGenerator, fraction)
  // are the same DCTCP web-search distribution.
  const auto a = load_flow_cdf(kData + "WebSearch_distribution.txt");
  const auto b = load_flow_cdf(kData + "DCTCP_CDF.txt");
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->points.size(), b->points.size());
  for (std::size_t i = 0; i < a->points.size(); ++i) {
    EXPECT_DOUBLE_EQ(a->points[i].bytes, b->points[i].bytes);
    EXPECT_NEAR(a->points[i].cumulative, b->points[i].cumulative, 1e-12);
  }
}

TEST(FlowCdf, SampleInterpolatesAndMeanIsByHand) {
  // 0..1000 bytes uniform for the first half, 1000..3000 for the second.
  const auto cdf = parse_flow_cdf("0 0\n1000 50\n3000 100\n", "x");
  ASSERT_TRUE(cdf);
  EXPECT_EQ(cdf->sample(0.25), 500U);  // half-way up the first segment
  EXPECT_EQ(cdf->sample(0.5), 1000U);
  EXPECT_EQ(cdf->sample(0.75), 2000U);
  EXPECT_EQ(cdf->sample(0.0), 1U);  // never a 0-byte flow
  EXPECT_EQ(cdf->sample(0.999999), 3000U);
  // Mean: 0.5 * 500 + 0.5 * 2000 = 1250.
  EXPECT_DOUBLE_EQ(cdf->mean_bytes(), 1250.0);
}

TEST(FlowCdf, PointMassAtTheFirstSize) {
  // 30% of flows are exactly 100 bytes.
  const auto cdf = parse_flow_cdf("100 0.3\n200 1\n", "x");
  ASSERT_TRUE(cdf);
  EXPECT_EQ(cdf->sample(0.1), 100U);
  EXPECT_DOUBLE_EQ(cdf->mean_bytes(), 0.3 * 100 + 0.7 * 150);
}

TEST(FlowCdf, CommentsBlankLinesCommasAndCrlf) {
  const auto cdf =
      parse_flow_cdf("# size cdf\r\n\r\n0, 0\r\n10\t0.5  # half\r\n20,1", "x");
  ASSERT_TRUE(cdf) << cdf.error().to_string();
  EXPECT_EQ(cdf->points.size(), 3U);
}

struct Malformed {
  const char* text;
  int line;
  const char* message;
};

TEST(FlowCdf, MalformedFilesNameTheLine) {
  const Malformed cases[] = {
      {"0 0\n10 0.5 7\n20 1\n", 2, "expected 2 fields"},
      // Commas that separate nothing: at the end, doubled, at the start.
      {"0 0\n100,0.5,\n200 1\n", 2, "an empty field"},
      {"0 0\n100,,0.5\n200 1\n", 2, "an empty field"},
      {"0 0\n,100 0.5\n200 1\n", 2, "an empty field"},
      {"0 0\nten 0.5\n20 1\n", 2, "flow size 'ten' is not a number"},
      {"0 0\n10 half\n20 1\n", 2, "cumulative value 'half' is not a number"},
      {"0 0\n-10 0.5\n20 1\n", 2, "negative"},
      {"0 0\n10 0.6\n20 0.5\n30 1\n", 3, "a CDF cannot decrease"},
      {"0 0\n20 0.5\n10 1\n", 3, "below the previous line's"},
      {"0 0\n10 0.5\n20 0.9\n", 3, "expected 1 (fraction) or 100 (percent)"},
      // As written: %g would print 1.
      {"0 0\n20 1.0000001\n", 2,
       "last cumulative value is 1.0000001: expected 1"},
      {"0 0\n10 0.99999995\n20 0.9999999\n30 1\n", 3,
       "cumulative value 0.9999999 is below the previous line's 0.99999995"},
      {"0 0\n10 150\n20 100\n", 2, "above 100"},
      {"# only a comment\n5 1\n", 0, "at least 2"},
      {"", 0, "at least 2"},
      {"0 0\n10 inf\n", 2, "not a number"},
      // Found by fuzz/flow_cdf_fuzz: sample() cast 2.5e19 to uint64_t.
      {"0 0\n1e20 0.5\n2e20 1\n", 2, "above 2^53 bytes"},
  };
  for (const Malformed& c : cases) {
    const auto r = parse_flow_cdf(c.text, "bad.txt");
    ASSERT_FALSE(r) << c.text;
    EXPECT_EQ(r.error().line, c.line) << c.text;
    EXPECT_EQ(r.error().file, "bad.txt");
    EXPECT_NE(r.error().message.find(c.message), std::string::npos)
        << r.error().message;
  }
}

TEST(FlowCdf, LargestFlowSizeSamplesExactly) {
  const auto cdf = parse_flow_cdf("0 0\n9007199254740992 1\n", "x");
  ASSERT_TRUE(cdf) << cdf.error().to_string();
  EXPECT_EQ(cdf->sample(0.999999), 9'007'190'247'541'737ULL);
  EXPECT_EQ(cdf->sample(0.0), 1U);
}

TEST(FlowCdf, FractionFileWithAPercentLookingPoint) {
  // Ends at 1 (fractions) but a middle point says 50: neither scale fits.
  const auto r = parse_flow_cdf("0 0\n10 50\n20 1\n", "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cannot decrease"), std::string::npos);
}

TEST(FlowCdf, MissingFile) {
  const auto r = load_flow_cdf("/nonexistent/cdf.txt");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().to_string(),
            "/nonexistent/cdf.txt: cannot read the file: No such file or "
            "directory");
}

}  // namespace
}  // namespace arfabric::sim
