#include "cli/progress_bar.h"

#include <gtest/gtest.h>

#include <sstream>

namespace arfabric::cli {
namespace {

struct FakeClock {
  double now = 100;
  ProgressBar::Clock fn() {
    return [this] { return now; };
  }
};

TEST(ProgressBar, NotATerminalMeansNothingIsWritten) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, false, clock.fn());
  bar.set_label("fare");
  clock.now += 10;
  bar.update(0.5);
  bar.clear();
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressBar, ShortRunsShowNoBar) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, true, clock.fn());
  bar.set_label("fare");
  clock.now += 1.9;
  bar.update(0.9);
  bar.clear();
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressBar, DrawsInPlaceAtMostTenTimesASecondAndClears) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, true, clock.fn());
  bar.set_label("ecmp");
  clock.now += 2.5;
  bar.update(0.5);
  EXPECT_EQ(out.str(), "\recmp [###############...............] 50%");
  clock.now += 0.05;
  bar.update(0.6);  // too soon: not redrawn
  EXPECT_EQ(out.str().find("60%"), std::string::npos);
  clock.now += 0.06;
  bar.update(1.7);  // clamped
  EXPECT_NE(out.str().find("\recmp [" + std::string(30, '#') + "] 100%"),
            std::string::npos);
  const std::size_t before = out.str().size();
  bar.clear();
  const std::string erased = out.str().substr(before);
  EXPECT_EQ(erased, "\r" + std::string(42, ' ') + "\r");
  bar.clear();  // nothing shown: nothing written
  EXPECT_EQ(out.str().size(), before + erased.size());
}

TEST(ProgressBar, ANewLabelIsDrawnAtOnceOverTheOldOne) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, true, clock.fn());
  bar.set_label("fare+lsn+arn");
  clock.now += 3;
  bar.update(0.1);
  bar.set_label("ecmp");
  bar.update(0);  // same instant, new label: drawn, padded over the old
  const std::string s = out.str();
  const std::size_t second = s.rfind('\r');
  EXPECT_EQ(s.substr(second).size(), s.substr(0, second).size());
  EXPECT_NE(s.find("\recmp [", second), std::string::npos);
}

// A note follows the percentage from the next redraw on (it does not
// force one); an empty note removes it, and the shorter line is padded.
TEST(ProgressBar, ANoteFollowsThePercentage) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, true, clock.fn());
  bar.set_columns(200);
  bar.set_label("fare");
  clock.now += 3;
  bar.set_note("fare: BGP warm-up, 12.000 ms simulated, 900 messages");
  bar.update(0);
  EXPECT_EQ(out.str(), "\rfare [" + std::string(30, '.') +
                           "] 0%  fare: BGP warm-up, 12.000 ms simulated, "
                           "900 messages");
  const std::size_t before = out.str().size();
  bar.set_note("");
  bar.update(0.5);  // too soon after the last draw: nothing
  EXPECT_EQ(out.str().size(), before);
  clock.now += 0.2;
  bar.update(0.5);
  const std::string half = "fare [###############...............] 50%";
  EXPECT_EQ(out.str().substr(before),
            "\r" + half + std::string(before - 1 - half.size(), ' '));
}

// A line is cut one column short of the terminal's width, so that it
// never wraps (a wrapped line cannot be redrawn in place).
TEST(ProgressBar, ALineNeverWraps) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(out, true, clock.fn());
  bar.set_columns(50);
  bar.set_label("fare");
  bar.set_note("fare BGP warm-up 12.000 ms: 900 msgs, 40 routes");
  clock.now += 3;
  bar.update(0);
  EXPECT_EQ(out.str(), "\rfare [" + std::string(30, '.') + "] 0%  fare BG");
  EXPECT_EQ(out.str().size(), 50u);  // '\r' and 49 columns
}

}  // namespace
}  // namespace arfabric::cli
