#include "proto/arn/arn_config.h"

#include <gtest/gtest.h>

namespace arfabric::proto::arn {
namespace {

TEST(ArnConfig, NamesTheBadField) {
  ArnConfig c;
  c.port_count = 2;
  c.monitored = {{.port = 1}};
  c.targets = {{.port = 0}};
  EXPECT_TRUE(validate(c));
  auto expect_bad = [](ArnConfig c, const char* field) {
    auto r = validate(c);
    ASSERT_FALSE(r) << field;
    EXPECT_EQ(r.error().field, field);
  };
  ArnConfig b = c;
  b.port_count = 0;
  expect_bad(b, "port_count");
  b = c;
  b.monitored[0].port = 2;
  expect_bad(b, "monitored[0].port");
  b = c;
  b.monitored.push_back({.port = 1});
  expect_bad(b, "monitored[1].port");
  b = c;
  b.monitored[0].queue_low_bytes = b.monitored[0].queue_high_bytes + 1;
  expect_bad(b, "monitored[0].queue_low_bytes");
  b = c;
  b.monitored[0].util_low = 0.99;
  expect_bad(b, "monitored[0].util_low");
  b = c;
  b.targets[0].port = 5;
  expect_bad(b, "targets[0].port");
  b = c;
  b.repeat_interval = Time();
  expect_bad(b, "repeat_interval");
  b = c;
  b.bucket_capacity = 0;
  expect_bad(b, "bucket_capacity");
  b = c;
  b.hold_time = Time();
  expect_bad(b, "hold_time");
  b = c;
  b.destinations = {{.length = 33}};
  expect_bad(b, "destinations[0].length");
  b = c;  // IPv6 prefixes go to 128 bits, not beyond
  b.destinations = {{.prefix = IpAddress::v6({}), .length = 128},
                    {.prefix = IpAddress::v6({}), .length = 129}};
  expect_bad(b, "destinations[1].length");
  b = c;
  b.monitored[0].flows.resize(2);
  b.monitored[0].flows[1].mask = wire::arn::kMaskSource;  // no Destination
  expect_bad(b, "monitored[0].flows[1].mask");
  b.monitored[0].flows[1].mask = 0x3f;
  expect_bad(b, "monitored[0].flows[1].mask");
  b.monitored[0].flows[1].mask = wire::arn::kMaskAll;
  b.monitored[0].flows[1].family = static_cast<wire::arn::AddressFamily>(3);
  expect_bad(b, "monitored[0].flows[1].family");
  b = c;
  b.max_entries = 0;
  expect_bad(b, "max_entries");
}

TEST(ArnConfig, PathIdIsNodeAndPort) {
  static_assert(path_id(0x0102, 0x0304) == 0x01020304u);
  static_assert(path_id_node(0x01020304u) == 0x0102);
}

}  // namespace
}  // namespace arfabric::proto::arn
