// The ARN engine: detection, notification and reaction
// (draft-wh-rtgwg-adaptive-routing-arn-05 §2, §3).
//
// Sending side (§2.1, sender.cc): per monitored port a PortDetector turns
// measurements and link state into congestion/failure detected/eliminated.
// A detection is notified only when local measures cannot absorb it (§2
// step 2, §2.1 "local rerouting might suffice"): the host tells the engine
// per port, with set_local_alternatives(port, true), that every destination
// reached through the port has another usable local next hop; then no ARN
// is sent (counted `suppressed`). Otherwise one ARN per affected
// destination goes to every target at once, is repeated every
// repeat_interval while the condition lasts, and elimination_repeats
// eliminations follow its end (§2.1 "send the corresponding ARN
// continuously"). Every message spends a token of its target's bucket. A
// message without a token waits in its target's queue and goes as tokens
// come back (on_timer() at next_deadline()): failures first (a failure
// black-holes traffic; congestion only slows it; while failures' repetitions
// outrun the tokens, congestion waits), then congestion, oldest first within
// each. A newer message about an object already waiting (same Path ID,
// congestion or failure, 5-tuple) takes the waiting one's place, so each
// object waits its turn once and a repetition cannot push ahead of objects
// the previous one left waiting (counted `waited`, `superseded`). The node's
// own messages about the objects it monitors are never dropped: at most one
// per object and condition waits. Those about flows set_flows() has since
// dropped from their port's list (eliminations, mostly) are, oldest first
// (congestion before failure), when a target's own messages would outnumber
// two per monitored object: flow lists that change faster than the tokens
// allow cannot grow a queue without bound (counted `evicted`; receivers'
// hold_time ends what they would have eliminated). Relayed messages beyond
// max_waiting_relays a target are dropped (`rate_limited`); a relayed
// failure takes the place of the newest relayed congestion message instead,
// if one waits. A queue longer than hold_time / refill_interval makes each
// object's refresh come later than hold_time, and receivers revoke and
// re-apply it while the condition lasts: size the buckets for a repetition
// of every monitored port (the simulator does, sim/arn_control.h).
//
// Receiving side (§2.2, §3.1, receiver.cc): on_message() parses the
// configured transport, maps the 5-tuple's destination (IPv4 or IPv6) to a
// NodeId (longest-prefix match in config.destinations) and the arrival port to
// "the path through the reporter", and emits for (arrival port, node):
// a VetoChange for a failure, a CongestionChange (level from the Metric)
// for congestion — congestion deprioritises, it never removes a path. The
// matching elimination (same Path ID, same destination, through the same
// port) revokes; so does hold_time without a refresh (§3.1 "mechanisms
// such as timeouts"). Repeated detections refresh the timer without
// repeating records. The same message arriving through another port (a
// copy another neighbour propagated) is another path through a reporter,
// vetoed on its own: in a 5-stage fabric a spine hears of a leaf lost two
// tiers away from every super-spine of its plane, and only once all of
// them are vetoed does it have no way left and propagate to its leaves. When
// this node has no other usable port toward the destination (host table
// set_next_hops, minus ports we hold vetoed), it propagates the message
// unchanged to its own targets (§2.2 last paragraph).
//
// Flow objects (§3.1 "identifiers of flows"): a monitored port may carry
// 5-tuples (MonitoredPort::flows, or set_flows() at run time, e.g. the top
// flows of a congested port); each is notified like a destination. A
// received 5-tuple with Mask bits besides Destination is a flow or an
// aggregate: the receiver maps its Destination to a NodeId as above and
// emits a FlowOverrideChange{node, match = the 5-tuple under its Mask,
// arrival port, vetoed, level} instead, so that its Fib moves only the
// matching traffic. Such a condition is identified by (Path ID, 5-tuple,
// arrival port);
// elimination and hold_time revoke it the same way. Two reporters' flow
// conditions for the same (match, port) are merged (veto if either vetoes,
// the higher level), so one's revocation does not undo the other's.
//
// Sans-I/O: time is an argument, outputs are records drained by the host,
// which applies VetoChange/CongestionChange/FlowOverrideChange (source =
// VetoSource::arn) to its Fib and puts Transmit bytes on the wire.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <expected>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/bytes.h"
#include "common/hash.h"
#include "common/units.h"
#include "proto/arn/arn_config.h"
#include "proto/arn/detector.h"
#include "proto/fib/flow_hash.h"
#include "proto/fib/forwarding_types.h"
#include "proto/fib/prefix_table.h"
#include "wire/arn/arn_message.h"

namespace arfabric::proto::arn {

// Bytes to put on `port`: an IPv4 packet (Transport::udp, the host adds
// the link header) or a whole Ethernet frame without FCS (Transport::l2).
struct Transmit {
  PortId port = 0;
  Transport transport = Transport::udp;
  Bytes bytes;
};

struct Outputs {
  std::vector<Transmit> transmits;
  std::vector<VetoChange> vetoes;
  std::vector<CongestionChange> congestion;
  std::vector<FlowOverrideChange> flows;  // for Fib::apply
  void clear() {
    transmits.clear();
    vetoes.clear();
    congestion.clear();
    flows.clear();
  }
};

struct Counters {
  // Sending.
  std::uint64_t detections = 0;    // detected conditions
  std::uint64_t suppressed = 0;    // detections absorbed locally, no ARN
  std::uint64_t sent = 0;          // messages handed to the host
  std::uint64_t waited = 0;        // messages queued for a token
  std::uint64_t superseded = 0;    // waiting messages a newer one replaced
  std::uint64_t evicted = 0;       // own messages about flows no longer listed
  std::uint64_t rate_limited = 0;  // relays dropped: too many waiting
  // Receiving.
  std::uint64_t received = 0;
  std::uint64_t malformed = 0;            // transport or ARN parse error
  std::uint64_t ignored = 0;              // no Path ID / destination, or ours
  std::uint64_t flow_objects = 0;         // messages about a flow object
  std::uint64_t unknown_destination = 0;  // no prefix matched
  std::uint64_t refreshed = 0;            // repeats of a known condition
  std::uint64_t revoked = 0;              // by elimination
  std::uint64_t timed_out = 0;            // by hold_time
  std::uint64_t stale_elimination = 0;    // elimination of nothing we hold
  std::uint64_t table_full = 0;
  std::uint64_t propagated = 0;  // messages re-sent to our targets
};

class ArnEngine {
 public:
  // Errors: those of validate(ArnConfig).
  static std::expected<ArnEngine, ConfigError> create(ArnConfig config);

  // --- Detection inputs (§2.1). Unmonitored ports: ignored, false.
  bool observe(PortId port, std::uint64_t queue_bytes, double utilisation,
               Time now);
  bool link_state(PortId port, bool up, Time now);
  // Whether every destination behind `port` has another usable next hop
  // here. Turning it off while a suppressed condition lasts starts
  // notifying at once. Unmonitored port: ignored, false.
  bool set_local_alternatives(PortId port, bool available, Time now);
  // Replaces the flow objects of a monitored port (MonitoredPort::flows).
  // While a condition of the port is being notified, each announced flow
  // dropped from the list gets one elimination at once (so receivers need not
  // wait for hold_time) and new flows are announced from the next repetition.
  // The repeated eliminations of a condition that has ended name the flows it
  // announced, whatever the list is now.
  // Errors: "port" not monitored; "flows[j].family" / "flows[j].mask" as
  // validate(); nothing changes then.
  std::expected<void, ConfigError> set_flows(
      PortId port, std::span<const wire::arn::FiveTuple> flows, Time now);
  // How often the bucket of each target on `port` gets a token back
  // (ArnConfig::refill_interval until set): a slow link's targets may need
  // a longer interval, so that its messages take no more than a share of
  // the link. Tokens earned by `now` at the old interval are kept, and
  // the time since the last counts toward the next, up to one new
  // interval (so a faster pace never dates a token back before `now`);
  // what waits for the target goes if a token is there (outputs()). The
  // same interval again changes nothing.
  // Errors: "port" has no target; "refill_interval" not positive; nothing
  // changes then.
  std::expected<void, ConfigError> set_refill_interval(PortId port,
                                                       Time interval, Time now);

  // --- Receiving (§2.2). The ports through which `destination` is routed
  // here (replaces the previous set); used to decide propagation.
  void set_next_hops(NodeId destination, std::span<const PortId> ports);
  // One ARN as an IPv4 packet (udp) or Ethernet frame (l2). Errors are
  // counted (malformed, ignored, unknown_destination, table_full), never
  // returned: a bad notification must not stop the data plane.
  void on_message(PortId arrival_port, ByteSpan bytes, Time now);

  // --- Timers: repetitions, eliminations, hold-time expiry. Like every
  // `now` given to the engine, on_timer()'s never goes back (the expiry
  // queue below relies on it; debug builds check it).
  Time next_deadline() const;  // Time::max() when nothing is pending
  void on_timer(Time now);

  Outputs& outputs() { return outputs_; }
  Outputs drain() { return std::exchange(outputs_, Outputs{}); }
  const Counters& counters() const { return counters_; }
  const ArnConfig& config() const { return config_; }

 private:
  enum class Phase : std::uint8_t { idle, suppressed, notifying, eliminating };
  struct Condition {
    Phase phase = Phase::idle;
    std::uint8_t eliminations_left = 0;
    Time next_send;
    // The port's flows when the condition's last detection was sent, which
    // its eliminations name (set_flows() may have changed the list since).
    std::vector<wire::arn::FiveTuple> announced_flows;
  };
  enum Kind : std::uint8_t { kCongestion = 0, kFailure = 1 };
  struct Bucket {
    std::uint32_t tokens = 0;
    Time last_refill;
    Time refill_interval;  // one token per interval
  };
  struct Entry {
    bool used = false;
    bool is_flow = false;  // a flow object: `match` identifies it
    bool active = false;   // false: revoked, kept until expiry to match
                           // repeated eliminations
    bool vetoed = false;
    std::uint8_t level = 0;
    std::uint32_t path_id = 0;
    NodeId destination = 0;
    PortId port = 0;
    Time expires;
    FlowMatch match{};
  };
  // Propagation of one reporter's notification about one object (Path ID
  // and destination, or flow match), shared by its entries on every
  // arrival port: copies that several neighbours pass on are passed on
  // once, not once per copy. Kept while any of those entries is held.
  struct RelayKey {
    std::uint32_t path_id = 0;
    NodeId destination = 0;
    bool is_flow = false;
    FlowMatch match{};  // flow objects only
    bool operator==(const RelayKey&) const = default;
  };
  // Mixed with mix64: absl::flat_hash_map takes its probe position and tag
  // from different bits of the hash as given, so every bit must depend on
  // every key bit (a multiplication alone leaves the low bits to the
  // destination's).
  struct RelayKeyHash {
    std::size_t operator()(const RelayKey& k) const {
      std::uint64_t x = mix64(std::uint64_t{k.path_id} << 32 | k.destination);
      if (k.is_flow) x = mix64(x ^ fib::flow_hash(k.match.key, k.match.fields));
      return static_cast<std::size_t>(x);
    }
  };
  struct Relay {
    std::uint32_t entries = 0;
    bool propagated = false;      // a detection was passed on
    bool eliminated = false;      // an elimination was passed on
    PortId elimination_port = 0;  // the port it arrived on
    Time last_detection;
    Time last_elimination;
  };
  // Looked up, never iterated (as object_entries_): an absl map's order
  // differs from run to run, and nothing it decides may.
  absl::flat_hash_map<RelayKey, Relay, RelayKeyHash> relays_;
  static RelayKey relay_key(const Entry& e) {
    return {e.path_id, e.destination, e.is_flow,
            e.is_flow ? e.match : FlowMatch{}};
  }
  // Whether to pass on an elimination of `r` that arrived on `port`: the
  // detection was passed on, and this is not a copy, through another port,
  // of an elimination passed on in the last half repeat_interval. (Copies
  // through several neighbours arrive microseconds apart; the reporter's
  // own repeats come a whole interval apart, and each is passed on.)
  bool pass_elimination(Relay& r, PortId port, Time now);
  // Copies of one message closer than this are one burst, passed on once.
  Time burst_window() const { return ps(config_.repeat_interval.ps() / 2); }

  explicit ArnEngine(ArnConfig config);

  // sender.cc
  void handle(std::size_t monitor, Event event, Time now);
  void tick(std::size_t monitor, Kind kind, Time now);
  void notify(std::size_t monitor, Kind kind, bool detection, Time now);
  wire::arn::ArnMessage message(std::size_t monitor, Kind kind,
                                bool detection) const;
  bool take_token(std::size_t target, Time now);
  // Adds the tokens `target`'s bucket has earned by `now`.
  void refill(std::size_t target, Time now);
  void send_to_targets(const wire::arn::ArnMessage& message, PortId except_port,
                       bool exclude, Time now);
  // Sends what waits for target `t` while its tokens last.
  void serve(std::size_t t, Time now);
  void wait_for_token(std::size_t t, const wire::arn::ArnMessage& message);
  void transmit(std::size_t t, const wire::arn::ArnMessage& message);

  // receiver.cc
  // Whether `e` is a held failure veto of a whole destination's path, the
  // kind that can_reroute() looks for.
  static bool vetoes_path(const Entry& e) {
    return e.used && e.active && e.vetoed && !e.is_flow;
  }
  bool can_reroute(NodeId destination, PortId arrival) const;
  void revoke(Entry& e);
  void emit_flow(const Entry& e);
  // The held entry of (path_id, destination or flow `match`, arrival
  // port): the same notification arriving through another neighbour is
  // another path found broken.
  Entry* find(std::uint32_t path_id, NodeId destination, const FlowMatch* match,
              PortId port);
  Entry* allocate();

  ArnConfig config_;
  std::vector<int> monitor_of_port_;  // port -> monitored index or -1
  std::vector<PortDetector> detectors_;
  std::vector<std::array<Condition, 2>> conditions_;
  // The earliest next_send of the conditions being notified or eliminated
  // (what next_deadline() and on_timer() look for), recomputed only after
  // a condition changed (handle() and tick(), which make every change,
  // mark it stale): a switch asks for its deadline after every message.
  mutable Time sends_due_ = Time::max();
  mutable bool sends_due_stale_ = false;
  Time sends_due() const;
  std::vector<bool> local_alternatives_;
  std::vector<Bucket> buckets_;  // per target
  // Per target, the messages waiting for a token (see the overview), in
  // two lanes, failures (served first) and congestion, oldest first in
  // each. A message's place is its sequence number in its lane (the
  // key's `failure`): `first` is the lane front's, and `place` finds a
  // waiting object's.
  struct WaitingKey {
    std::uint32_t path_id = 0;
    bool failure = false;
    wire::arn::FiveTuple flow{};
    bool operator==(const WaitingKey&) const = default;
  };
  struct WaitingKeyHash {  // mixed as RelayKeyHash
    std::size_t operator()(const WaitingKey& k) const;
  };
  struct Waiting {
    wire::arn::ArnMessage message;
    bool evicted = false;  // dropped where it stood: skipped, no token spent
  };
  struct Lane {
    std::deque<Waiting> messages;
    std::uint64_t first = 0;
  };
  struct TargetQueue {
    std::array<Lane, 2> lanes;  // [kCongestion], [kFailure]
    std::uint32_t relays = 0;   // of the messages not evicted: relayed
    std::uint32_t own = 0;      // and ours
    absl::flat_hash_map<WaitingKey, std::uint64_t, WaitingKeyHash> place;
    bool empty() const {
      return lanes[kCongestion].messages.empty() &&
             lanes[kFailure].messages.empty();
    }
  };
  // Evicts the oldest waiting message of ours about a dropped flow,
  // congestion before failure (wait_for_token()).
  void evict_one_about_a_dropped_flow(TargetQueue& queue);
  // Evicts the newest relayed congestion message waiting, counted
  // rate_limited; false when none waits.
  bool evict_newest_congestion_relay(TargetQueue& queue);
  static WaitingKey waiting_key(const wire::arn::ArnMessage& message);
  // Whether `message` is another node's, passed on (ours carry our Path
  // IDs, and a message of ours that comes back is ignored).
  bool relayed(const wire::arn::ArnMessage& message) const;
  // Whether our `message` is about a flow its port no longer lists.
  bool about_a_dropped_flow(const wire::arn::ArnMessage& message) const;
  // Two per monitored object (a congestion and a failure condition): the
  // most own messages a target's queue holds but for those about dropped
  // flows. Recomputed when set_flows() changes a list.
  std::size_t own_limit_ = 0;
  void update_own_limit();
  std::vector<TargetQueue> queues_;  // per target
  std::size_t targets_waiting_ = 0;  // queues not empty
  // When the next token comes back to a target with messages waiting.
  Time tokens_due() const;
  std::vector<Entry> entries_;
  // One past the last used entry: scans stop here. A switch often holds
  // few conditions in a table of max_entries (1,024 by default), and
  // every timer scanned all of it.
  std::size_t held_end_ = 0;
  std::span<Entry> held() { return {entries_.data(), held_end_}; }
  std::span<const Entry> held() const { return {entries_.data(), held_end_}; }
  // A bit per entry in use (Entry::used), so that allocate() finds the
  // lowest free entry without reading the entries.
  std::vector<std::uint64_t> used_bits_;
  // The expiries hold() set, in the order it set them, which is their
  // order in time (every expiry is now + hold_time, and time never goes
  // back), one record per change of an entry's expiry: on_timer() and
  // next_deadline() read the front instead of scanning the table, whose
  // entries under load are hundreds of cache lines. A record whose entry
  // was refreshed or freed since is stale (current() is false) and is
  // dropped when it reaches the front.
  struct Expiry {
    Time at;
    std::uint32_t entry = 0;
  };
  mutable std::deque<Expiry> expiries_;
  bool current(const Expiry& x) const {
    const Entry& e = entries_[x.entry];
    return e.used && e.expires == x.at;
  }
  std::vector<std::uint32_t> expired_;  // on_timer() scratch
  // Sets e's expiry to now + hold_time.
  void hold(Entry& e, Time now);
  // Held destination objects (not flows) by (path_id, destination,
  // arrival port), so that a message finds its entry without a scan: under
  // load a switch holds hundreds of them. Flow objects are found by a scan.
  struct ObjectKey {
    std::uint32_t path_id = 0;
    NodeId destination = 0;
    PortId port = 0;
    bool operator==(const ObjectKey&) const = default;
  };
  struct ObjectKeyHash {  // mixed as RelayKeyHash
    std::size_t operator()(const ObjectKey& k) const {
      return static_cast<std::size_t>(mix64(
          mix64(std::uint64_t{k.path_id} << 32 | k.destination) ^ k.port));
    }
  };
  absl::flat_hash_map<ObjectKey, std::uint32_t, ObjectKeyHash> object_entries_;
  // Held entries for which vetoes_path() holds. Under congestion alone
  // there are none, and can_reroute() then need not scan the table for
  // each message it is asked about.
  std::size_t path_vetoes_ = 0;
  fib::PrefixTable destinations_;  // config_.destinations, IPv4 and IPv6
  std::vector<std::pair<NodeId, std::vector<PortId>>> next_hops_;
  ByteWriter scratch_;
  Outputs outputs_;
  Counters counters_;
};

}  // namespace arfabric::proto::arn
