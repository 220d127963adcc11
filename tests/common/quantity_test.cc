#include "common/quantity.h"

#include <gtest/gtest.h>

namespace arfabric {
namespace {

TEST(ParseRate, AcceptsSuffixesExactly) {
  EXPECT_EQ(parse_rate("400G").value(), gbps(400));
  EXPECT_EQ(parse_rate("400Gbps").value(), gbps(400));
  EXPECT_EQ(parse_rate("100M").value(), mbps(100));
  EXPECT_EQ(parse_rate("1.6T").value(), 1'600'000'000'000ULL);
  EXPECT_EQ(parse_rate("2.5g").value(), 2'500'000'000ULL);
  EXPECT_EQ(parse_rate("25000000000").value(), gbps(25));
  EXPECT_EQ(parse_rate(" 10K ").value(), 10'000U);
}

TEST(ParseRate, RejectsWithTheValueInTheMessage) {
  const auto e = parse_rate("40X");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(),
            "rate '40X': expected a number with K/M/G/T suffix (e.g. 400G)");
  EXPECT_FALSE(parse_rate(""));
  EXPECT_FALSE(parse_rate("G"));
  EXPECT_FALSE(parse_rate("-1G"));
  EXPECT_NE(parse_rate("0G").error().find("must be > 0"), std::string::npos);
  EXPECT_NE(parse_rate("1.5").error().find("whole number"), std::string::npos);
  EXPECT_FALSE(parse_rate("2000T"));
  EXPECT_FALSE(parse_rate("12Q"));
}

// The 1 Pb/s limit holds for the value, not only its whole part (the
// read-back check of fuzz/daemon_config_fuzz found 1000.5T passing while
// its digits, 1000500000000000, did not, in the bgpd configuration's
// former parser of its own).
TEST(ParseRate, TheLimitIsOnTheWholeValue) {
  EXPECT_EQ(parse_rate("1000T").value(), 1'000'000'000'000'000ULL);
  EXPECT_EQ(parse_rate("999.5T").value(), 999'500'000'000'000ULL);
  EXPECT_FALSE(parse_rate("1000.5T"));
  EXPECT_FALSE(parse_rate("1000000500000000"));
  EXPECT_EQ(parse_rate("1000000000000000").value(), 1'000'000'000'000'000ULL);
}

// Bits per second, however written; a capital B (bytes) is refused rather
// than read as bits, which would be 8x off.
TEST(ParseRate, BytesPerSecondIsRefused) {
  EXPECT_EQ(parse_rate("400G b/s").value(), gbps(400));
  EXPECT_EQ(parse_rate("400GBPS").error(),
            "rate '400GBPS': B is bytes, and rates are in bits per second "
            "(e.g. 400G or 400Gbps)");
  EXPECT_FALSE(parse_rate("50GBps"));
  EXPECT_FALSE(parse_rate("400GB/s"));
  EXPECT_FALSE(parse_rate("100Bps"));
  // Without the "ps" too, and said as much.
  EXPECT_EQ(parse_rate("400GB").error(),
            "rate '400GB': B is bytes, and rates are in bits per second "
            "(e.g. 400G or 400Gbps)");
}

TEST(ParseTime, AcceptsUnitsExactly) {
  EXPECT_EQ(parse_time("10us").value(), us(10));
  EXPECT_EQ(parse_time("5ms").value(), ms(5));
  EXPECT_EQ(parse_time("1.5us").value(), ns(1500));
  EXPECT_EQ(parse_time("0.5ns").value(), ps(500));
  EXPECT_EQ(parse_time("2s").value(), sec(2));
  EXPECT_EQ(parse_time("3ps").value(), ps(3));
  EXPECT_EQ(parse_time("0").value(), Time{});
  EXPECT_EQ(parse_time("0s").value(), Time{});
  EXPECT_EQ(parse_time("7\u00b5s").value(), us(7));
  EXPECT_EQ(parse_time("7\u03bcs").value(), us(7));  // Greek mu
}

TEST(ParseTime, Rejects) {
  EXPECT_NE(parse_time("10").error().find("expected a number with a unit"),
            std::string::npos);
  EXPECT_FALSE(parse_time("10 minutes"));
  EXPECT_NE(parse_time("-1us").error().find("negative"), std::string::npos);
  EXPECT_NE(parse_time("0.1ps").error().find("whole number"),
            std::string::npos);
  EXPECT_FALSE(parse_time("2000000s"));
}

TEST(ParseSize, DecimalAndBinarySuffixes) {
  EXPECT_EQ(parse_size("64KB").value(), 64'000U);
  EXPECT_EQ(parse_size("64kB").value(), 64'000U);  // SI's spelling
  EXPECT_FALSE(parse_size("64kb"));
  EXPECT_EQ(parse_size("64KiB").value(), 65'536U);
  EXPECT_EQ(parse_size("1MB").value(), 1'000'000U);
  EXPECT_EQ(parse_size("1.5MiB").value(), 1'572'864U);
  EXPECT_EQ(parse_size("4096").value(), 4096U);
  EXPECT_EQ(parse_size("10B").value(), 10U);
  EXPECT_EQ(parse_size("0").value(), 0U);
}

TEST(ParseSize, Rejects) {
  EXPECT_NE(parse_size("64Kb").error().find("size '64Kb'"), std::string::npos);
  EXPECT_EQ(parse_size("2TB").value(), 2'000'000'000'000U);
  EXPECT_EQ(parse_size("1TiB").value(), std::uint64_t{1} << 40);
  EXPECT_NE(parse_size("1PB").error().find("TB"), std::string::npos);
  EXPECT_FALSE(parse_size("1.5B"));
  EXPECT_FALSE(parse_size("big"));
  EXPECT_FALSE(parse_size("2048TiB"));
}

TEST(ParseFraction, DecimalOrPercent) {
  EXPECT_DOUBLE_EQ(parse_fraction("0.5").value(), 0.5);
  EXPECT_DOUBLE_EQ(parse_fraction("50%").value(), 0.5);
  EXPECT_DOUBLE_EQ(parse_fraction("1").value(), 1.0);
  EXPECT_FALSE(parse_fraction("1.5"));
  EXPECT_FALSE(parse_fraction("-0.1"));
  EXPECT_FALSE(parse_fraction("half"));
}

TEST(Format, RoundTripsTheUsualValues) {
  EXPECT_EQ(format_rate(gbps(400)), "400G");
  EXPECT_EQ(format_rate(1'600'000'000'000ULL), "1600G");
  EXPECT_EQ(format_rate(123), "123");
  EXPECT_EQ(format_time(us(10)), "10us");
  EXPECT_EQ(format_time(ns(1500)), "1500ns");
  EXPECT_EQ(format_time(ps(7)), "7ps");
  EXPECT_EQ(format_size(200'000), "200KB");
  EXPECT_EQ(format_size(1'500'000), "1500KB");
  EXPECT_EQ(format_size(65'536), "64KiB");
  EXPECT_EQ(format_size(65'537), "65537B");
  EXPECT_EQ(format_size(2'000'000'000'000), "2TB");
}

TEST(Format, RoundsTimesForReading) {
  EXPECT_EQ(format_time_rounded(sec(30)), "30.000 s");
  EXPECT_EQ(format_time_rounded(ms(1)), "1.000 ms");
  EXPECT_EQ(format_time_rounded(us(233'801)), "233.801 ms");
  EXPECT_EQ(format_time_rounded(ns(11'640)), "11.6 us");
  EXPECT_EQ(format_time_rounded(Time{}), "0.0 us");
  // Below a microsecond, nanoseconds: 40 ns is not "0.0 us".
  EXPECT_EQ(format_time_rounded(ns(40)), "40.0 ns");
  EXPECT_EQ(format_time_rounded(ps(999'949)), "999.9 ns");
  // Rounding up into the next unit shows it in that unit.
  EXPECT_EQ(format_time_rounded(ps(999'960)), "1.0 us");
  EXPECT_EQ(format_time_rounded(ns(999'960)), "1.000 ms");
  EXPECT_EQ(format_time_rounded(us(999'960)), "999.960 ms");
  EXPECT_EQ(format_time_rounded(ns(999'999'600)), "1.000 s");
  EXPECT_EQ(format_time_rounded(ns(999'940)), "999.9 us");
  EXPECT_EQ(format_time_rounded(Time::max()), "-");
}

}  // namespace
}  // namespace arfabric
