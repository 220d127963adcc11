// Sending a hardware notification (an LSN frame, an ARN message) as a
// control packet: what LsnControl and ArnControl share.
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "sim/control_tap.h"
#include "sim/network.h"
#include "sim/payload_slab.h"

namespace arfabric::sim {

struct NotificationSender {
  Network* network = nullptr;
  PacketPool* pool = nullptr;
  PayloadSlab* payloads = nullptr;  // keeps the bytes until arrival or loss
  ControlTap* tap = nullptr;        // shown every packet sent, if set
  ControlProtocol protocol = ControlProtocol::lsn;
  // Bytes on the wire besides the encoded ones (headers the encoding does
  // not include, preamble, inter-frame gap).
  std::uint32_t overhead_bytes = 0;

  // Sends `bytes` from switch `node` out of `port` (1-based). Returns the
  // packet's size on the wire, or 0 (nothing sent) when the port does not
  // exist or its link is down (the packet would only be lost).
  std::uint32_t send(NodeIndex node, proto::PortId port, ByteSpan bytes,
                     Time now) const;
};

}  // namespace arfabric::sim
