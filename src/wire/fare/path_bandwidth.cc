#include "wire/fare/path_bandwidth.h"

#include <bit>
#include <cmath>

#include "wire/fare/binary16.h"

namespace arfabric::wire::fare {

double PathBandwidth::gigabytes_per_second() const {
  return binary16_to_double(bandwidth_bits);
}

bool PathBandwidth::valid() const {
  if (binary16_is_nan(bandwidth_bits)) return false;
  return !binary16_is_negative(bandwidth_bits) || bandwidth_bits == 0x8000;
}

PathBandwidth make_path_bandwidth(std::uint32_t router_id,
                                  double gigabytes_per_second,
                                  bool transitive) {
  return {transitive, router_id, double_to_binary16(gigabytes_per_second)};
}

PathBandwidth max_path_bandwidth(std::uint32_t router_id, bool transitive) {
  return {transitive, router_id, kBinary16MaxFinite};
}

std::optional<PathBandwidth> decode_path_bandwidth(
    const bgp::ExtendedCommunity& ec, std::uint8_t sub_type) {
  if ((ec.type() != kPathBandwidthTransitiveType &&
       ec.type() != kPathBandwidthNonTransitiveType) ||
      ec.sub_type() != sub_type) {
    return std::nullopt;
  }
  const auto& b = ec.bytes;
  PathBandwidth pb;
  pb.transitive = ec.transitive();
  pb.router_id = std::uint32_t{b[2]} << 24 | std::uint32_t{b[3]} << 16 |
                 std::uint32_t{b[4]} << 8 | b[5];
  pb.bandwidth_bits = static_cast<std::uint16_t>(b[6] << 8 | b[7]);
  return pb;
}

bgp::ExtendedCommunity encode(const PathBandwidth& pb, std::uint8_t sub_type) {
  bgp::ExtendedCommunity ec;
  ec.bytes = {pb.transitive ? kPathBandwidthTransitiveType
                            : kPathBandwidthNonTransitiveType,
              sub_type,
              static_cast<std::uint8_t>(pb.router_id >> 24),
              static_cast<std::uint8_t>(pb.router_id >> 16),
              static_cast<std::uint8_t>(pb.router_id >> 8),
              static_cast<std::uint8_t>(pb.router_id),
              static_cast<std::uint8_t>(pb.bandwidth_bits >> 8),
              static_cast<std::uint8_t>(pb.bandwidth_bits)};
  return ec;
}

double LinkBandwidth::bytes_per_second() const {
  return std::bit_cast<float>(bandwidth_bits);
}

LinkBandwidth make_link_bandwidth(std::uint16_t as_number,
                                  float bytes_per_second, bool transitive) {
  return {transitive, as_number,
          std::bit_cast<std::uint32_t>(bytes_per_second)};
}

std::optional<LinkBandwidth> decode_link_bandwidth(
    const bgp::ExtendedCommunity& ec) {
  if ((ec.type() != kLinkBandwidthTransitiveType &&
       ec.type() != kLinkBandwidthNonTransitiveType) ||
      ec.sub_type() != kLinkBandwidthSubType) {
    return std::nullopt;
  }
  const auto& b = ec.bytes;
  LinkBandwidth lb;
  lb.transitive = ec.transitive();
  lb.as_number = static_cast<std::uint16_t>(b[2] << 8 | b[3]);
  lb.bandwidth_bits = std::uint32_t{b[4]} << 24 | std::uint32_t{b[5]} << 16 |
                      std::uint32_t{b[6]} << 8 | b[7];
  return lb;
}

bgp::ExtendedCommunity encode(const LinkBandwidth& lb) {
  bgp::ExtendedCommunity ec;
  ec.bytes = {lb.transitive ? kLinkBandwidthTransitiveType
                            : kLinkBandwidthNonTransitiveType,
              kLinkBandwidthSubType,
              static_cast<std::uint8_t>(lb.as_number >> 8),
              static_cast<std::uint8_t>(lb.as_number),
              static_cast<std::uint8_t>(lb.bandwidth_bits >> 24),
              static_cast<std::uint8_t>(lb.bandwidth_bits >> 16),
              static_cast<std::uint8_t>(lb.bandwidth_bits >> 8),
              static_cast<std::uint8_t>(lb.bandwidth_bits)};
  return ec;
}

}  // namespace arfabric::wire::fare
