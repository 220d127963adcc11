#include "proto/lsn/lsn_engine.h"

#include <utility>

namespace arfabric::proto::lsn {

std::expected<Engine, ConfigError> Engine::create(const Config& config) {
  auto originator = Originator::create(config);
  if (!originator) return std::unexpected(originator.error());
  // validate() already passed: the receiver cannot fail.
  auto receiver = Receiver::create(config);
  if (!receiver) return std::unexpected(receiver.error());
  return Engine(std::move(*originator), std::move(*receiver));
}

}  // namespace arfabric::proto::lsn
