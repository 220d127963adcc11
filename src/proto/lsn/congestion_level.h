// Queue depth -> LSN congestion level 0..3 with hysteresis
// (draft-camarillo-rtgwg-lsn-00 §3.1 Msg-types 1..3, §3.2.2: "the mapping of
// queue congestion levels ... is implementation-specific").
//
// Without hysteresis a queue hovering at a threshold would trigger an LSN
// frame per packet; with it, the level changes only when the depth crosses
// rise[N-1] upward or fall[N-1] downward.
#pragma once

#include <cstdint>

#include "proto/lsn/lsn_config.h"

namespace arfabric::proto::lsn {

// The level after observing `depth` bytes when the level was `level`.
// Thresholds must have passed validate(); then the result is stable: calling
// again with the same depth returns the same level.
inline std::uint8_t next_congestion_level(const CongestionThresholds& t,
                                          std::uint8_t level,
                                          std::uint64_t depth) {
  while (level < 3 && depth >= t.rise[level]) ++level;
  while (level > 0 && depth < t.fall[level - 1]) --level;
  return level;
}

}  // namespace arfabric::proto::lsn
