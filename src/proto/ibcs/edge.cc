#include "proto/ibcs/edge.h"

#include <algorithm>
#include <cstring>

#include "wire/ibcs/csig_tag.h"
#include "wire/inet/ethernet.h"

namespace arfabric::proto::ibcs {

std::optional<std::size_t> strip_csig_tag(std::span<std::uint8_t> frame,
                                          std::size_t tag_offset) {
  constexpr std::size_t kTag = wire::ibcs::kCsigTagSize;
  if (tag_offset < 12 || tag_offset > frame.size() ||
      frame.size() - tag_offset < kTag)
    return std::nullopt;
  std::uint8_t* at = frame.data() + tag_offset;
  std::memmove(at, at + kTag, frame.size() - tag_offset - kTag);
  std::size_t length = frame.size() - kTag;
  if (frame.size() >= wire::kEthernetMinFrameSize &&
      length < wire::kEthernetMinFrameSize) {
    std::fill(frame.begin() + static_cast<std::ptrdiff_t>(length),
              frame.begin() + wire::kEthernetMinFrameSize, 0);
    length = wire::kEthernetMinFrameSize;
  }
  return length;
}

}  // namespace arfabric::proto::ibcs
