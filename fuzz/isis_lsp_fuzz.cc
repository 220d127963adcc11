// libFuzzer target for the IS-IS LSP parser (wire/isis/lsp.h) and the
// 802.3/LLC entry point (wire/isis/frame.h). A parsed LSP must re-serialize
// (keeping its checksum) to exactly the PDU bytes it came from, and parse
// back to the same value and checksum verdict.
#include <cstddef>
#include <cstdint>

#include "wire/isis/frame.h"
#include "wire/isis/lsp.h"

using namespace arfabric;
using namespace arfabric::wire::isis;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const ByteSpan in(data, size);
  (void)parse_isis_frame_payload(in);

  auto first = parse_lsp(in);
  if (!first) return 0;
  ByteWriter out;
  if (!serialize(first->lsp, out, {.codec = {}, .compute_checksum = false}))
    __builtin_trap();
  const ByteSpan pdu = in.first(first->pdu_length);
  if (out.size() != pdu.size() ||
      !std::equal(pdu.begin(), pdu.end(), out.data().begin()))
    __builtin_trap();
  auto second = parse_lsp(out.data());
  if (!second || !(second->lsp == first->lsp) ||
      second->checksum_valid != first->checksum_valid)
    __builtin_trap();
  if (encoded_size(first->lsp) != out.size()) __builtin_trap();
  return 0;
}
