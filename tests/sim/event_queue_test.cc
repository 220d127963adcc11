#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace arfabric::sim {
namespace {

TEST(EventQueue, PopsInTimeOrderAndAdvancesNow) {
  EventQueue q;
  q.push(ns(30), EventType::flow_timer, 3, 0);
  q.push(ns(10), EventType::control, 1, 0, 7);
  q.push(ns(20), EventType::lsn, 2, 0);
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q.top().at, ns(10));
  EXPECT_EQ(q.top().c, 7u);
  Event e = q.pop();
  EXPECT_EQ(e.a, 1u);
  EXPECT_EQ(e.type, EventType::control);
  EXPECT_EQ(q.now(), ns(10));
  EXPECT_EQ(q.pop().a, 2u);
  EXPECT_EQ(q.now(), ns(20));
  EXPECT_EQ(q.pop().a, 3u);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.pushed(), 3u);
}

TEST(EventQueue, TiesPopInInsertionOrder) {
  EventQueue q;
  for (std::uint32_t i = 0; i < 100; ++i) {
    q.push(ns(5), EventType::link_arrival, i, 0);
  }
  for (std::uint32_t i = 0; i < 100; ++i) {
    const Event e = q.pop();
    EXPECT_EQ(e.a, i);
    EXPECT_EQ(e.seq, i);
  }
}

TEST(EventQueue, EventsPushedAtNowDuringARunStayOrdered) {
  EventQueue q;
  q.push(ns(1), EventType::flow_timer, 0, 0);
  q.push(ns(2), EventType::flow_timer, 1, 0);
  (void)q.pop();                               // now = 1 ns
  q.push(ns(1), EventType::flow_timer, 2, 0);  // at now: before the 2 ns one
  q.push(ns(2), EventType::flow_timer, 3, 0);  // ties with 1, after it
  EXPECT_EQ(q.pop().a, 2u);
  EXPECT_EQ(q.pop().a, 1u);
  EXPECT_EQ(q.pop().a, 3u);
}

// A burst of equal times in a slot ahead of the calendar's front (every
// switch sending its periodic frame at once), then a later event in the
// same slot, then more at the burst's time: each of those lands before
// the list's tail, far down a long list, which is left unsorted and
// sorted when it becomes the front. Pops and second() still follow
// (time, insertion). Six earlier events fill the ready window and leave
// the calendar's front in another slot than the burst's.
TEST(EventQueue, AnEqualTimeBurstBehindALaterTailPopsInOrder) {
  EventQueue q;
  for (std::uint32_t i = 0; i < 6; ++i) {
    q.push(ns(1) + Time::from_ps(i), EventType::flow_timer, 0, 0);
  }
  const Time burst = ns(1) + Time::from_ps(EventQueue::kNearHorizon.ps() / 2);
  std::uint32_t a = 1;
  for (int i = 0; i < 50; ++i) q.push(burst, EventType::link_arrival, a++, 0);
  q.push(burst + Time::from_ps(1), EventType::link_arrival, 1000, 0);
  for (int i = 0; i < 50; ++i) q.push(burst, EventType::link_arrival, a++, 0);
  q.push(burst + Time::from_ps(1), EventType::link_arrival, 1001, 0);
  for (std::uint32_t i = 0; i < 6; ++i) EXPECT_EQ(q.pop().a, 0u);
  Event second{};
  for (std::uint32_t want = 1; want < a; ++want) {
    ASSERT_EQ(q.top().a, want);
    ASSERT_TRUE(q.second(second));
    ASSERT_EQ(q.pop().at, burst);
    ASSERT_EQ(q.top().seq, second.seq);
  }
  EXPECT_EQ(q.pop().a, 1000u);
  EXPECT_EQ(q.pop().a, 1001u);
  EXPECT_TRUE(q.empty());
}

// second() names the event that pop() returns after top() when nothing is
// pushed in between: in queues smaller than, as large as and larger than
// the ready window (four events), and in a large one with many ties.
TEST(EventQueue, SecondIsTheEventAfterTop) {
  std::mt19937_64 rng(11);
  for (const int n : {0, 1, 2, 3, 4, 5, 6, 1000}) {
    EventQueue q;
    Event e{};
    for (int i = 0; i < n; ++i) {
      q.push(ns(static_cast<std::int64_t>(rng() % 8)), EventType::arn,
             static_cast<std::uint32_t>(i), 0, static_cast<std::uint32_t>(i));
    }
    while (q.size() >= 2) {
      ASSERT_TRUE(q.second(e)) << n;
      (void)q.pop();
      const Event next = q.top();
      EXPECT_EQ(e.seq, next.seq) << n;
      EXPECT_EQ(e.c, next.c) << n;
      // Interleave pushes, as a run does, and re-check from there.
      if (rng() % 3 == 0) {
        q.push(q.now() + ns(static_cast<std::int64_t>(rng() % 8)),
               EventType::arn, 0, 0);
      }
    }
    EXPECT_FALSE(q.second(e)) << n;
  }
}

// second_and_third() names the events that pop() returns after top()
// when nothing is pushed in between: ties within a bucket, thirds in the
// next buckets, and (times over three near horizons) events of the far
// heap among them.
TEST(EventQueue, SecondAndThirdAreTheNextTwoAfterTop) {
  std::mt19937_64 rng(13);
  const std::int64_t horizon = EventQueue::kNearHorizon.ps();
  for (const std::int64_t spread : {std::int64_t{2000}, 3 * horizon}) {
    for (const int n : {0, 2, 3, 4, 5, 7, 1000}) {
      EventQueue q;
      Event second{}, third{};
      const auto draw = [&] {
        return Time::from_ps(static_cast<std::int64_t>(
            rng() % static_cast<std::uint64_t>(spread)));
      };
      for (int i = 0; i < n; ++i) {
        q.push(draw(), EventType::link_arrival, static_cast<std::uint32_t>(i),
               0, static_cast<std::uint32_t>(i));
      }
      while (q.size() >= 3) {
        ASSERT_EQ(q.second_and_third(second, third), 2) << n;
        (void)q.pop();
        EXPECT_EQ(second.seq, q.top().seq) << n;
        (void)q.pop();
        EXPECT_EQ(third.seq, q.top().seq) << n;
        EXPECT_EQ(third.c, q.top().c) << n;
        if (rng() % 2 == 0) {
          q.push(q.now() + draw(), EventType::link_arrival, 0, 0);
        }
      }
      EXPECT_EQ(q.second_and_third(second, third), q.size() == 2 ? 1 : 0) << n;
      if (q.size() == 2) {
        (void)q.pop();
        EXPECT_EQ(second.seq, q.top().seq) << n;
      }
    }
  }
}

// The queue looks a few events ahead (its ready window): an event pushed
// before the last of those, in a queue larger than them, takes its place
// among them, and the one it displaces still pops in its turn, with
// second() and second_and_third() following.
TEST(EventQueue, APushBeforeTheNextFewTakesItsPlaceAmongThem) {
  EventQueue q;
  for (std::uint32_t i = 0; i < 8; ++i) {
    q.push(ns(10 * (i + 1)), EventType::link_arrival, i, 0);  // 10..80 ns
  }
  q.push(ns(25), EventType::link_arrival, 100, 0);  // before 30, 40, ...
  q.push(ns(5), EventType::link_arrival, 101, 0);   // before everything
  q.push(ns(40), EventType::link_arrival, 102, 0);  // ties 40: after it
  const std::vector<std::uint32_t> want = {101, 0, 1, 100, 2, 3,
                                           102, 4, 5, 6,   7};
  Event second{}, third{};
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(q.size(), want.size() - i);
    const int found = q.second_and_third(second, third);
    ASSERT_EQ(found,
              static_cast<int>(std::min<std::size_t>(2, want.size() - i - 1)));
    if (found >= 1) EXPECT_EQ(second.a, want[i + 1]) << i;
    if (found == 2) EXPECT_EQ(third.a, want[i + 2]) << i;
    EXPECT_EQ(q.top().a, want[i]) << i;
    EXPECT_EQ(q.pop().a, want[i]) << i;
  }
  EXPECT_TRUE(q.empty());
}

// remove_if drops exactly the chosen events and leaves the rest in their
// order (by time, then insertion), whatever the heap's size, and the queue
// keeps working after it.
TEST(EventQueue, RemoveIfKeepsTheOrderOfTheRest) {
  std::mt19937_64 rng(5);
  for (const std::uint32_t n : {0u, 1u, 2u, 5u, 6u, 17u, 3000u}) {
    EventQueue q;
    std::vector<std::pair<std::int64_t, std::uint32_t>> kept;  // (time, id)
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::int64_t at = static_cast<std::int64_t>(rng() % 50);
      q.push(ns(at), EventType::flow_timer, i, 0);
      if (i % 3 != 0) kept.emplace_back(at, i);
    }
    EXPECT_EQ(q.remove_if([](const Event& e) { return e.a % 3 == 0; }),
              n - kept.size());
    ASSERT_EQ(q.size(), kept.size());
    // Ids were pushed in order, so (time, id) is the (time, seq) order.
    std::sort(kept.begin(), kept.end());
    q.push(ns(100), EventType::control, n, 0);
    kept.emplace_back(100, n);
    for (const auto& [at, id] : kept) {
      const Event e = q.pop();
      EXPECT_EQ(e.at, ns(at)) << n;
      EXPECT_EQ(e.a, id) << n;
    }
    EXPECT_TRUE(q.empty());
  }
}

// Against a reference (a sorted list by time, then insertion), with pushes
// interleaved with pops as a simulation does. `delay` draws how far ahead
// of now() each event is pushed; `queue` is the size the run starts from
// and hovers around.
template <typename Delay>
void match_reference(std::uint64_t seed, std::size_t queue, Delay delay) {
  std::mt19937_64 rng(seed);
  EventQueue q;
  using Ref = std::tuple<std::int64_t, std::uint64_t, std::uint32_t>;
  std::vector<Ref> ref;  // kept as a heap by std::greater
  std::uint64_t seq = 0;
  std::uint32_t payload = 0;
  auto push = [&] {
    const Time at = q.now() + delay(rng);
    q.push(at, EventType::link_arrival, payload, payload ^ 0x5a5a, payload);
    ref.emplace_back(at.ps(), seq++, payload++);
    std::push_heap(ref.begin(), ref.end(), std::greater<>());
  };
  for (std::size_t i = 0; i < queue; ++i) push();
  Event second{}, third{};
  for (int step = 0; step < 200000; ++step) {
    if (!ref.empty() && rng() % 2 == 0) {
      const bool has_second = q.second(second);
      ASSERT_EQ(has_second, ref.size() >= 2);
      const int found = q.second_and_third(second, third);
      ASSERT_EQ(found,
                static_cast<int>(std::min<std::size_t>(2, ref.size() - 1)));
      std::pop_heap(ref.begin(), ref.end(), std::greater<>());
      const Ref want = ref.back();
      ref.pop_back();
      ASSERT_EQ(q.top().seq, std::get<1>(want)) << "step " << step;
      const Event got = q.pop();
      ASSERT_EQ(got.at.ps(), std::get<0>(want)) << "step " << step;
      ASSERT_EQ(got.seq, std::get<1>(want)) << "step " << step;
      ASSERT_EQ(got.type, EventType::link_arrival);
      ASSERT_EQ(got.a, std::get<2>(want));
      ASSERT_EQ(got.b, std::get<2>(want) ^ 0x5a5a);
      ASSERT_EQ(got.c, std::get<2>(want));
      ASSERT_EQ(q.now(), got.at);
      if (has_second) {
        ASSERT_EQ(second.seq, q.top().seq) << "step " << step;
      }
      if (found == 2) {
        ASSERT_EQ(third.seq, q.second(second) ? second.seq : ~0ull)
            << "step " << step;
      }
    } else {
      push();
    }
    ASSERT_EQ(q.size(), ref.size());
  }
  while (!ref.empty()) {
    std::pop_heap(ref.begin(), ref.end(), std::greater<>());
    ASSERT_EQ(q.pop().seq, std::get<1>(ref.back()));
    ref.pop_back();
  }
  EXPECT_TRUE(q.empty());
}

// Coarse times a few nanoseconds apart, so that ties are frequent: all in
// the near calendar, several events to a bucket.
TEST(EventQueue, MatchesAReferenceWithManyTies) {
  match_reference(7, 3000, [](std::mt19937_64& rng) {
    return ns(static_cast<std::int64_t>(rng() % 64));
  });
}

// Picosecond times spread over three near horizons: a third of the events
// go to the far heap, and time catches up with them there while near
// events keep arriving.
TEST(EventQueue, MatchesAReferenceAcrossTheNearHorizon) {
  const std::int64_t horizon = EventQueue::kNearHorizon.ps();
  match_reference(8, 3000, [&](std::mt19937_64& rng) {
    return Time::from_ps(static_cast<std::int64_t>(rng() % (3 * horizon)));
  });
}

// A few events far apart in the calendar: finding the next non-empty
// bucket crosses many empty bitmap words and wraps around the ring; some
// events land exactly on the horizon's edges.
TEST(EventQueue, MatchesAReferenceWhenSparse) {
  const std::int64_t horizon = EventQueue::kNearHorizon.ps();
  match_reference(9, 3, [&](std::mt19937_64& rng) {
    switch (rng() % 4) {
      case 0:
        return Time::from_ps(horizon - 1 -
                             static_cast<std::int64_t>(rng() % 64));
      case 1:
        return Time::from_ps(horizon + static_cast<std::int64_t>(rng() % 64));
      case 2:
        return ms(static_cast<std::int64_t>(rng() % 3));
      default:
        return Time::from_ps(static_cast<std::int64_t>(rng() % horizon));
    }
  });
}

// remove_if across both parts: near events and far ones, then the queue
// keeps ordering new pushes against what is left.
TEST(EventQueue, RemoveIfReachesNearAndFarEvents) {
  std::mt19937_64 rng(3);
  EventQueue q;
  std::vector<std::pair<std::int64_t, std::uint32_t>> kept;  // (time, id)
  for (std::uint32_t i = 0; i < 2000; ++i) {
    const std::int64_t at =
        static_cast<std::int64_t>(rng() % (4 * EventQueue::kNearHorizon.ps()));
    q.push(Time::from_ps(at), EventType::flow_timer, i, 0);
    if (i % 2 != 0) kept.emplace_back(at, i);
  }
  EXPECT_EQ(q.remove_if([](const Event& e) { return e.a % 2 == 0; }), 1000u);
  ASSERT_EQ(q.size(), kept.size());
  std::sort(kept.begin(), kept.end());
  for (std::uint32_t i = 2000; i < 2100; ++i) {
    const std::int64_t at = static_cast<std::int64_t>(rng() % 1000);
    q.push(Time::from_ps(at), EventType::flow_timer, i, 0);
    kept.emplace_back(at, i);
  }
  std::sort(kept.begin(), kept.end());
  for (const auto& [at, id] : kept) {
    const Event e = q.pop();
    ASSERT_EQ(e.at.ps(), at);
    ASSERT_EQ(e.a, id);
  }
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace arfabric::sim

namespace arfabric::sim {
namespace {

TEST(PendingTimer, OnlyAnEarlierDeadlineNeedsAnEventAndLateOnesAreIgnored) {
  PendingTimer t;
  EXPECT_TRUE(t.arm(us(10)));
  EXPECT_FALSE(t.arm(us(20)));   // the pending event at 10 us covers it
  EXPECT_TRUE(t.arm(us(5)));     // earlier: a new event
  EXPECT_FALSE(t.fire(us(10)));  // superseded by the one at 5 us
  EXPECT_TRUE(t.fire(us(5)));
  EXPECT_EQ(t.at(), Time::max());
  EXPECT_FALSE(t.fire(us(5)));       // fired once only
  EXPECT_TRUE(t.arm(us(20)));        // nothing pending: any deadline arms
  EXPECT_FALSE(t.arm(Time::max()));  // "no deadline" never needs an event
}

}  // namespace
}  // namespace arfabric::sim
