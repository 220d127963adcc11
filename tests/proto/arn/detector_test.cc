#include "proto/arn/detector.h"

#include <gtest/gtest.h>

namespace arfabric::proto::arn {
namespace {

MonitoredPort port() {
  return {.port = 1,
          .queue_high_bytes = 100'000,
          .queue_low_bytes = 20'000,
          .util_high = 0.9,
          .util_low = 0.5};
}

TEST(Detector, QueueHysteresis) {
  PortDetector d(port());
  EXPECT_EQ(d.observe(99'999, 0.1), Event::none);
  EXPECT_EQ(d.observe(100'000, 0.1), Event::congestion_detected);
  EXPECT_EQ(d.metric(), 64);  // s = 1.0 -> 64
  // Between the marks: still congested, no event.
  EXPECT_EQ(d.observe(50'000, 0.1), Event::none);
  EXPECT_TRUE(d.congested());
  EXPECT_EQ(d.observe(20'000, 0.1), Event::congestion_eliminated);
  EXPECT_EQ(d.metric(), 0);
  EXPECT_EQ(d.observe(50'000, 0.1), Event::none);  // below high: stays clear
}

TEST(Detector, UtilisationAlsoTriggersAndBothMustFall) {
  PortDetector d(port());
  EXPECT_EQ(d.observe(0, 0.95), Event::congestion_detected);
  EXPECT_EQ(d.metric(), 67);                       // 64 * 0.95 / 0.9 = 67.6
  EXPECT_EQ(d.observe(0, 0.6), Event::none);       // above util_low
  EXPECT_EQ(d.observe(30'000, 0.4), Event::none);  // queue above low
  EXPECT_EQ(d.observe(10'000, 0.4), Event::congestion_eliminated);
}

TEST(Detector, MetricFollowsSeverityAndSaturates) {
  const MonitoredPort c = port();
  EXPECT_EQ(congestion_metric(c, 250'000, 0), 160);  // s = 2.5
  EXPECT_EQ(congestion_metric(c, 10'000'000, 0), 255);
  EXPECT_EQ(congestion_level(64), 1);
  EXPECT_EQ(congestion_level(160), 2);
  EXPECT_EQ(congestion_level(192), 3);
  EXPECT_EQ(congestion_level(255), 3);
  EXPECT_EQ(congestion_level(10), 1);  // a congestion ARN is at least 1
  PortDetector d(c);
  d.observe(150'000, 0);
  EXPECT_EQ(d.metric(), 96);
  d.observe(300'000, 0);  // still congested, metric follows
  EXPECT_EQ(d.metric(), 192);
}

TEST(Detector, LinkDownUp) {
  PortDetector d(port());
  EXPECT_EQ(d.link(true), Event::none);
  EXPECT_EQ(d.link(false), Event::failure_detected);
  EXPECT_EQ(d.link(false), Event::none);
  EXPECT_TRUE(d.failed());
  EXPECT_EQ(d.link(true), Event::failure_eliminated);
}

}  // namespace
}  // namespace arfabric::proto::arn
