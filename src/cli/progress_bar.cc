#include "cli/progress_bar.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace arfabric::cli {

ProgressBar::ProgressBar(std::ostream& out, bool enabled, Clock clock,
                         double show_after_s, double redraw_every_s)
    : out_(&out),
      enabled_(enabled),
      clock_(clock ? std::move(clock) : Clock([] {
        return std::chrono::duration<double>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
      })),
      show_after_s_(show_after_s),
      redraw_every_s_(redraw_every_s) {
  if (enabled_) started_ = clock_();
}

void ProgressBar::set_label(std::string label) {
  label_ = std::move(label);
  last_draw_ = -1e300;  // a new label is drawn at once
}

void ProgressBar::set_note(std::string note) { note_ = std::move(note); }

void ProgressBar::set_columns(std::size_t columns) {
  columns_ = std::max<std::size_t>(columns, 2);
}

void ProgressBar::update(double fraction) {
  if (!enabled_) return;
  const double now = clock_();
  if (now - started_ < show_after_s_ || now - last_draw_ < redraw_every_s_) {
    return;
  }
  last_draw_ = now;
  constexpr int kCells = 30;
  const double f = std::clamp(fraction, 0.0, 1.0);
  const int full = static_cast<int>(std::floor(f * kCells));
  std::string line = "\r" + label_ + " [" + std::string(full, '#') +
                     std::string(kCells - full, '.') + "] " +
                     std::to_string(static_cast<int>(std::floor(f * 100))) +
                     "%" + (note_.empty() ? "" : "  " + note_);
  if (line.size() > columns_) line.resize(columns_);  // '\r' + columns - 1
  // Pad over a longer previous line (a longer label or note).
  const std::size_t width = line.size() - 1;
  if (width < shown_width_) line += std::string(shown_width_ - width, ' ');
  shown_width_ = std::max(shown_width_, width);
  *out_ << line << std::flush;
}

void ProgressBar::clear() {
  if (!enabled_ || shown_width_ == 0) return;
  *out_ << '\r' << std::string(shown_width_, ' ') << '\r' << std::flush;
  shown_width_ = 0;
  last_draw_ = -1e300;
}

}  // namespace arfabric::cli
