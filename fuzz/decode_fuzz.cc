// libFuzzer target: `arfabric decode`'s dispatch of one captured frame
// (cli/decode.h, decode_link_frame) over every link type it decodes, and
// of a hex line's bytes (decode_hex_frame): Ethernet, raw IP and Linux
// cooked (SLL, SLL2) headers, VLAN and CSIG tags (cli/link_layer), and
// the wire codecs and JSON builders behind them. The first byte picks the
// link type, whether the capture cut the frame (from what length on the
// wire) and --fcs.
//
// Whatever the bytes, the answer is a JSON object that either names an
// error (a non-empty field and reason; an offset, when given, inside the
// frame) or says which protocol it decoded, and it serialises (bytes
// that are not UTF-8 replaced, as `arfabric decode` prints them).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/decode.h"

using namespace arfabric;

namespace {

void check(const nlohmann::json& j, std::size_t frame_size) {
  if (!j.is_object()) __builtin_trap();
  if (const auto e = j.find("error"); e != j.end()) {
    if (!e->is_object()) __builtin_trap();
    const std::string field = e->value("field", "");
    const std::string reason = e->value("reason", "");
    if (field.empty() || reason.empty()) __builtin_trap();
    if (const auto at = e->find("offset"); at != e->end()) {
      if (!at->is_number_unsigned() || at->get<std::size_t>() > frame_size) {
        __builtin_trap();
      }
    }
  } else if (!j.contains("protocol")) {
    __builtin_trap();
  }
  (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  // Ethernet, raw IP (12, 228 and, last so that the seeds keep their
  // types, 229), Linux cooked v1 and v2, and one that is not decoded (9).
  static constexpr std::array<int, 7> kLinkTypes = {1,   12, 228, 113,
                                                    276, 9,  229};
  const int link_type = kLinkTypes[data[0] % kLinkTypes.size()];
  // The top bit: cut, from a wire length a little longer than what is
  // here (or far longer: 64 KB).
  cli::DecodeOptions options;
  const ByteSpan frame(data + 1, size - 1);
  if (data[0] & 0x80) {
    options.cut_from_length = (data[0] & 0x40) ? 65536 : frame.size() + 9;
  }
  options.fcs = (data[0] & 0x20) != 0;
  check(cli::decode_link_frame(link_type, frame, options), frame.size());
  check(cli::decode_hex_frame(frame), frame.size());
  return 0;
}
