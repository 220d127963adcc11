#include "cli/json/ibcs_json.h"

#include "common/hex.h"

namespace arfabric::cli {

using namespace wire::ibcs;

nlohmann::json to_json(const CsigTag& tag) {
  const auto type = csig_signal_type(tag.signal_type);
  return {{"tpid", tag.tpid},
          {"signal_type", tag.signal_type},
          {"signal", type ? type->name : "unassigned"},
          {"reserved", tag.reserved},
          {"signal_value", tag.signal_value},
          {"locator_metadata", tag.locator_metadata}};
}

nlohmann::json to_json(const HpccOption& o) {
  return {{"type", o.type},
          {"version", o.version},
          {"flags", o.flags},
          {"locator", o.locator},
          {"max_utilisation", o.max_utilisation},
          {"max_utilisation_ratio",
           static_cast<double>(o.max_utilisation) / kHpccUtilisationOne}};
}

nlohmann::json to_json(const UdpShim& s) {
  const auto type = udp_signal_type(s.signal_type);
  return {{"version", s.version},
          {"signal_type", s.signal_type},
          {"signal", type ? type->name : "unknown"},
          {"metric", s.metric},
          {"reserved", to_hex(s.reserved)}};
}

namespace {

// The tag that holds `f`, parsed where locate() found it.
nlohmann::json tag_json(ByteSpan frame, const SignalField& f,
                        const BindingConfig& config) {
  switch (f.binding) {
    case Binding::csig_l2:
      if (auto t = parse_csig_tag(frame.subspan(f.offset - 2), f.offset - 2,
                                  config.csig_ethertype))
        return to_json(*t);
      break;
    case Binding::hpcc_int:
      if (auto o = parse_hpcc_option(frame.subspan(f.offset - 4), f.offset - 4,
                                     config.hpcc_option_type))
        return to_json(*o);
      break;
    case Binding::ipv4_udp:
      if (auto s = parse_udp_shim(frame.subspan(f.offset - 1), f.offset - 1))
        return to_json(*s);
      break;
  }
  return nullptr;
}

std::string_view signal_name(const SignalField& f) {
  if (f.binding == Binding::csig_l2) {
    if (auto t = csig_signal_type(f.signal_type)) return t->description;
  } else if (f.binding == Binding::ipv4_udp) {
    if (auto t = udp_signal_type(f.signal_type)) return t->name;
  }
  return binding_info(f.binding).signal;
}

}  // namespace

nlohmann::json decode_ibcs_frame(ByteSpan frame, const BindingConfig& config) {
  nlohmann::json out = nlohmann::json::array();
  for (const BindingInfo& b : kBindings) {
    auto f = locate(b.binding, frame, config);
    if (!f) continue;
    auto metric = read_metric(frame, *f);
    if (!metric) continue;
    out.push_back({{"binding", b.name},
                   {"offset", f->offset},
                   {"signal_type", f->signal_type},
                   {"signal", signal_name(*f)},
                   {"operator", to_string(f->op)},
                   {"uninitialized", f->uninitialized},
                   {"metric", *metric},
                   {"is_uninitialized", *metric == f->uninitialized},
                   {"tag", tag_json(frame, *f, config)}});
  }
  return out;
}

}  // namespace arfabric::cli
