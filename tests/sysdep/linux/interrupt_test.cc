#include "sysdep/linux/interrupt.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <csignal>

namespace arfabric::sysdep {
namespace {

void (*handler_of(int signal))(int) {
  struct sigaction now {};
  sigaction(signal, nullptr, &now);
  return now.sa_handler;
}

TEST(InterruptWatch, TheFirstSignalSetsTheFlagAndRestoresTheDefault) {
  std::atomic<bool> flag{false};
  auto watch = InterruptWatch::start(flag);
  ASSERT_TRUE(watch) << watch.error();
  EXPECT_EQ((*watch)->signal_name(), "");
  EXPECT_NE(handler_of(SIGINT), SIG_DFL);
  EXPECT_NE(handler_of(SIGTERM), SIG_DFL);
  ASSERT_EQ(std::raise(SIGTERM), 0);  // handled: the process lives on
  EXPECT_TRUE(flag);
  EXPECT_EQ((*watch)->signal_name(), "SIGTERM");
  // Either signal now ends the process, as it would without a watch.
  EXPECT_EQ(handler_of(SIGTERM), SIG_DFL);
  EXPECT_EQ(handler_of(SIGINT), SIG_DFL);
}

TEST(InterruptWatch, OneAtATimeAndTheOldActionsComeBack) {
  const auto before = handler_of(SIGINT);
  std::atomic<bool> first{false}, second{false};
  {
    auto watch = InterruptWatch::start(first);
    ASSERT_TRUE(watch) << watch.error();
    auto again = InterruptWatch::start(second);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error(), "an interrupt watch is already live");
  }
  EXPECT_EQ(handler_of(SIGINT), before);
  EXPECT_FALSE(first);
  // Free again, and with a fresh record of the signal.
  auto watch = InterruptWatch::start(second);
  ASSERT_TRUE(watch) << watch.error();
  ASSERT_EQ(std::raise(SIGINT), 0);
  EXPECT_TRUE(second);
  EXPECT_EQ((*watch)->signal_name(), "SIGINT");
}

}  // namespace
}  // namespace arfabric::sysdep
