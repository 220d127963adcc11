// The progress bar of `arfabric sim` on stderr: shown only when stderr is a
// terminal and the run has taken more than a couple of seconds (short runs
// and logs stay clean), redrawn in place with '\r' at most ten times a
// second, and erased before anything else is printed.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace arfabric::cli {

class ProgressBar {
 public:
  // Wall-clock seconds from any fixed origin (steady clock by default;
  // tests pass their own).
  using Clock = std::function<double()>;

  // `enabled` false: every call does nothing (stderr is not a terminal).
  ProgressBar(std::ostream& out, bool enabled, Clock clock = {},
              double show_after_s = 2.0, double redraw_every_s = 0.1);

  // The bar's label from now on (the mode being run).
  void set_label(std::string label);
  // Text shown after the percentage from the next redraw on (say, where
  // a BGP warm-up has got before the bar moves); empty: none.
  void set_note(std::string note);
  // The terminal's width: a line is cut to one column less, so that it
  // never wraps (a wrapped line cannot be redrawn in place).
  void set_columns(std::size_t columns);
  // Progress of the current label in [0, 1] (clamped).
  void update(double fraction);
  // Erases the bar if it is shown; the next update() draws it again.
  void clear();

 private:
  std::ostream* out_;
  bool enabled_;
  Clock clock_;
  double show_after_s_, redraw_every_s_;
  double started_ = 0;
  double last_draw_ = -1e300;
  std::size_t shown_width_ = 0;
  std::string label_;
  std::string note_;
  std::size_t columns_ = 80;
};

}  // namespace arfabric::cli
