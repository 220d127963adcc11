#include "common/bytes.h"

#include <string>

namespace arfabric {

DecodeError ByteReader::truncated(std::string_view field,
                                  std::size_t need) const {
  return error(field, "truncated: need " + std::to_string(need) + " byte" +
                          (need == 1 ? "" : "s") + ", have " +
                          std::to_string(remaining()));
}

}  // namespace arfabric
