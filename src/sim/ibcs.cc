#include "sim/ibcs.h"

#include <algorithm>
#include <optional>

#include "wire/ibcs/csig_tag.h"

namespace arfabric::sim {

namespace ibcs = proto::ibcs;

namespace {

// Where the CSIG tag sits in a frame: right after the MAC addresses, as
// the binding's locate() expects it.
constexpr std::size_t kTagAt = 12;
constexpr std::uint32_t kTop = wire::ibcs::kCsigMaxSignalValue;  // 31

ibcs::Estimator estimator(IbcsEstimator e) {
  switch (e) {
    case IbcsEstimator::ewma:
      return ibcs::Estimator::ewma;
    case IbcsEstimator::window_mean:
      return ibcs::Estimator::window_mean;
    case IbcsEstimator::window_min:
      return ibcs::Estimator::window_min;
    case IbcsEstimator::window_max:
      return ibcs::Estimator::window_max;
  }
  return ibcs::Estimator::ewma;
}

std::uint32_t fraction_bucket(double fraction) {
  const double b = std::clamp(fraction, 0.0, 1.0) * kTop;
  return static_cast<std::uint32_t>(b);
}

}  // namespace

IbcsSwitches::IbcsSwitches(Network& network, const IbcsParams& params)
    : network_(&network), params_(params) {}

std::expected<std::unique_ptr<IbcsSwitches>, std::string> IbcsSwitches::create(
    Network& network, const IbcsParams& params) {
  std::unique_ptr<IbcsSwitches> s(new IbcsSwitches(network, params));
  s->signal_type_ = static_cast<std::uint8_t>(params.signal);
  const auto type = wire::ibcs::csig_signal_type(s->signal_type_);
  if (!type) return std::unexpected("ibcs.signal: not a CSIG signal type");
  s->uninitialized_ = type->uninitialized;

  BitsPerSecond fastest = 0;
  for (LinkIndex l = 0; l < network.link_count(); ++l)
    fastest = std::max(fastest, network.link(l).rate());
  s->bandwidth_step_ = params.bandwidth_step != 0
                           ? params.bandwidth_step
                           : std::max<BitsPerSecond>(fastest / kTop, 1);

  ibcs::BindingRule rule;
  rule.binding = wire::ibcs::Binding::csig_l2;
  rule.signal_type = s->signal_type_;
  rule.metric.estimator = estimator(params.estimator);
  rule.metric.ewma_weight = params.ewma_weight;
  rule.metric.window = params.window;
  rule.metric.max_age = params.max_age;

  s->busy_at_sample_.resize(network.link_count());
  s->engine_of_.assign(network.node_count(), kNone);
  for (NodeIndex n = 0; n < network.node_count(); ++n) {
    if (network.is_host(n)) continue;
    s->engine_of_[n] = static_cast<std::uint32_t>(s->engines_.size());
    const auto& out = network.out_links(n);
    ibcs::SufConfig config;
    config.rules = {rule};
    config.ports.resize(out.size() + 1);  // PortIds are 1-based
    for (std::size_t i = 0; i < out.size(); ++i) {
      const NodeIndex peer = network.link(out[i]).config().to;
      config.ports[i + 1].untrusted_ingress =
          params.scrub_host_ingress && network.is_host(peer);
    }
    auto engine = ibcs::SignalUpdateFunction::create(std::move(config));
    if (!engine) {
      return std::unexpected("ibcs." + engine.error().field + ": " +
                             engine.error().reason);
    }
    s->engines_.push_back(std::move(*engine));
  }
  // The field: where wire::ibcs::locate finds the S field of a CSIG tag of
  // this signal type in a minimum frame (MACs, the tag, IPv4's EtherType,
  // padding). Packets carry its value; the engines read its type,
  // operator, UNINITIALIZED and range from it.
  ByteWriter frame;
  frame.zeros(kTagAt);  // MAC addresses
  if (auto ok = wire::ibcs::serialize(
          wire::ibcs::CsigTag{
              .signal_type = s->signal_type_,
              .signal_value = static_cast<std::uint8_t>(s->uninitialized_)},
          frame);
      !ok) {
    return std::unexpected("ibcs: the CSIG tag cannot be written: " +
                           ok.error().to_string());
  }
  frame.u16(0x0800);  // IPv4
  frame.zeros(60 - frame.size());
  auto field = wire::ibcs::locate(wire::ibcs::Binding::csig_l2, frame.data(),
                                  ibcs::SufConfig{}.wire);  // as the engines
  if (!field) {
    return std::unexpected("ibcs: the CSIG tag is not found: " +
                           field.error().to_string());
  }
  s->field_ = *field;
  return s;
}

void IbcsSwitches::sample(LinkIndex l, ibcs::SignalUpdateFunction& engine,
                          proto::PortId port, Time now) {
  const std::optional<Time> last = engine.last_sample(port);
  const Link& link = network_->link(l);
  const Time elapsed = now - last.value_or(Time{});
  // A faster rate re-times queued bytes and can lower the busy counter
  // (LinkCounters::busy): utilisation stays within [0, 1].
  const Time busy = link.counters().busy - busy_at_sample_[l];
  const double u =
      elapsed > Time{}
          ? std::clamp(busy.seconds() / elapsed.seconds(), 0.0, 1.0)
          : 0.0;
  busy_at_sample_[l] = link.counters().busy;
  std::uint32_t value = 0;
  switch (params_.signal) {
    case IbcsSignal::abw: {
      const double available = static_cast<double>(link.rate()) * (1 - u);
      value = std::min<std::uint32_t>(
          kTop, static_cast<std::uint32_t>(
                    available / static_cast<double>(bandwidth_step_)));
      break;
    }
    case IbcsSignal::abw_c:
      value = fraction_bucket(1 - u);
      break;
    case IbcsSignal::delay: {
      const std::uint64_t queued = network_->queued_bytes(l, now);
      const Time delay = transmission_time(queued, link.rate());
      value = static_cast<std::uint32_t>(
          std::min<std::int64_t>(kTop, delay / params_.delay_step));
      break;
    }
    case IbcsSignal::nqd: {
      const std::uint32_t buffer = link.buffer_bytes();
      const std::uint64_t queued = network_->queued_bytes(l, now);
      value = buffer == 0 ? 0
                          : fraction_bucket(static_cast<double>(queued) /
                                            static_cast<double>(buffer));
      break;
    }
  }
  engine.record_sample(port, value, now);
}

void IbcsSwitches::on_host_ingress(LinkIndex l, Packet& packet, Time now) {
  // The leaf's engine, at the port the packet arrives on.
  const Link& link = network_->link(l);
  engines_[engine_of_[link.to()]].process_ingress_value(
      field_, packet.transport.signal, link.to_port(), now);
}

void IbcsSwitches::on_egress(LinkIndex l, Packet& packet, Time now) {
  // The sending switch's engine and port, from the link (whose line
  // enqueueing reads) and two per-node tables, rather than a per-link one.
  const NodeIndex from = network_->link(l).from();
  const std::uint32_t e = engine_of_[from];
  if (e == kNone) return;  // a host's NIC
  const proto::PortId port = network_->port_of(l);
  ibcs::SignalUpdateFunction& engine = engines_[e];
  // Whether the port is due a sample is asked of the engine: it is in the
  // L_Metric's line, which the SUF reads next anyway, where a table of the
  // simulator's own cost a hop a line more at 4,096 hosts.
  if (!engine.sampled_after(port, now - params_.sample_interval)) {
    sample(l, engine, port, now);
  }
  engine.process_egress_value(field_, packet.transport.signal, port, now);
}

ibcs::Counters IbcsSwitches::counters() const {
  ibcs::Counters sum;
  for (const auto& e : engines_) sum += e.counters();
  return sum;
}

}  // namespace arfabric::sim
