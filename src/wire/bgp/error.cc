#include "wire/bgp/error.h"

#include <utility>

namespace arfabric::wire::bgp {

std::string_view rfc7606_action_name(Rfc7606Action a) {
  switch (a) {
    case Rfc7606Action::attribute_discard:
      return "attribute_discard";
    case Rfc7606Action::treat_as_withdraw:
      return "treat_as_withdraw";
    case Rfc7606Action::afi_safi_disable:
      return "afi_safi_disable";
    case Rfc7606Action::session_reset:
      return "session_reset";
  }
  return "unknown";
}

std::string BgpError::to_string() const {
  return decode.to_string() + " [notification " + std::to_string(code) + "/" +
         std::to_string(subcode) + ", " +
         std::string(rfc7606_action_name(action)) + "]";
}

BgpError session_reset(DecodeError decode, std::uint8_t code,
                       std::uint8_t subcode, Bytes data) {
  return BgpError{std::move(decode), code, subcode, std::move(data),
                  Rfc7606Action::session_reset};
}

}  // namespace arfabric::wire::bgp
