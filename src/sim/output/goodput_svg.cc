#include "sim/output/goodput_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace arfabric::sim::output {

namespace {

constexpr double kWidth = 960, kHeight = 540;
constexpr double kLeft = 80, kRight = 190, kTop = 50, kBottom = 60;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

// One colour per mode, in issue 5's mode order (colour-blind safe set).
constexpr const char* kColours[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                    "#d55e00"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// A tick's value, a 1-2-5 step's multiple: plain digits up to 10^10
// ("1000000", not %g's "1e+06" for a run of a million seconds).
std::string label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no control characters but tab, LF and CR, not even
        // escaped (a YAML "\x01" in a name would make the file invalid):
        // U+FFFD stands in.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' &&
            c != '\r') {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

struct TimeUnit {
  double per_second;
  const char* name;
};

// The unit that keeps the axis labels short.
TimeUnit time_unit(double span_s) {
  if (span_s < 2e-3) return {1e6, "us"};
  if (span_s < 2) return {1e3, "ms"};
  return {1, "s"};
}

}  // namespace

double nice_step(double raw) {
  if (!(raw > 0)) return 1;
  double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= raw * (1 - 1e-12)) return m * decade;
  }
  return 10 * decade;
}

std::string goodput_svg(const Scenario& scenario,
                        const std::vector<ModeResult>& results) {
  // Scales: time from 0 to the longest run (or the last event), goodput
  // from 0 to a round number above the highest sample.
  double t_max = 0, g_max = 0;
  for (const ModeResult& r : results) {
    for (const TimeSample& s : r.samples) {
      t_max = std::max(t_max, s.at.seconds());
      g_max = std::max(g_max, s.goodput_gbps);
    }
  }
  for (const EventSpec& e : scenario.events) {
    t_max = std::max(t_max, e.at.seconds());
  }
  if (t_max <= 0)
    t_max = scenario.stop_at > Time{} ? scenario.stop_at.seconds() : 1e-3;
  const TimeUnit unit = time_unit(t_max);
  const double x_step = nice_step(t_max * unit.per_second / 8);
  const double x_end =
      std::ceil(t_max * unit.per_second / x_step - 1e-9) * x_step;
  const double y_step = nice_step(g_max > 0 ? g_max / 6 : 1);
  const double y_end =
      std::max(y_step, std::ceil(g_max / y_step - 1e-9) * y_step);
  auto x_of = [&](double seconds) {
    return kLeft + seconds * unit.per_second / x_end * kPlotW;
  };
  auto y_of = [&](double gbps) {
    return kTop + kPlotH - gbps / y_end * kPlotH;
  };

  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
       "\" height=\"" + num(kHeight) + "\" viewBox=\"0 0 " + num(kWidth) + " " +
       num(kHeight) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(kLeft) + "\" y=\"28\" font-size=\"16\">" +
       escape("Goodput, scenario " + scenario.name) + "</text>\n";

  // Axes, grid and ticks.
  s += "<g class=\"axes\" stroke=\"black\" fill=\"none\">\n";
  s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop + kPlotH) +
       "\" x2=\"" + num(kLeft + kPlotW) + "\" y2=\"" + num(kTop + kPlotH) +
       "\"/>\n";
  s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(kTop) + "\" x2=\"" +
       num(kLeft) + "\" y2=\"" + num(kTop + kPlotH) + "\"/>\n";
  s += "</g>\n<g class=\"ticks\">\n";
  for (int i = 0; i * x_step <= x_end * (1 + 1e-9); ++i) {
    const double v = i * x_step;
    const double x = x_of(v / unit.per_second);
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(kTop + kPlotH) + "\" x2=\"" +
         num(x) + "\" y2=\"" + num(kTop + kPlotH + 5) +
         "\" stroke=\"black\"/>\n";
    s += "<text x=\"" + num(x) + "\" y=\"" + num(kTop + kPlotH + 18) +
         "\" text-anchor=\"middle\">" + label(v) + "</text>\n";
  }
  for (int i = 0; i * y_step <= y_end * (1 + 1e-9); ++i) {
    const double v = i * y_step;
    const double y = y_of(v);
    s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y) + "\" x2=\"" +
         num(kLeft + kPlotW) + "\" y2=\"" + num(y) +
         "\" stroke=\"#dddddd\"/>\n";
    s += "<text x=\"" + num(kLeft - 8) + "\" y=\"" + num(y + 4) +
         "\" text-anchor=\"end\">" + label(v) + "</text>\n";
  }
  s += "</g>\n";
  s += "<text x=\"" + num(kLeft + kPlotW / 2) + "\" y=\"" + num(kHeight - 15) +
       "\" text-anchor=\"middle\">time after warm-up (" + unit.name +
       ")</text>\n";
  s += "<text transform=\"translate(20 " + num(kTop + kPlotH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">goodput (Gb/s)</text>\n";

  // Events: dashed lines, labels staggered so that close events stay
  // readable.
  s += "<g class=\"events\">\n";
  for (std::size_t i = 0; i < scenario.events.size(); ++i) {
    const EventSpec& e = scenario.events[i];
    const double x = x_of(e.at.seconds());
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(x) +
         "\" y2=\"" + num(kTop + kPlotH) +
         "\" stroke=\"#555555\" stroke-dasharray=\"6 4\"/>\n";
    const std::string text = std::string(event_kind_name(e.kind)) + " " +
                             scenario.topology.nodes[e.a].name + "-" +
                             scenario.topology.nodes[e.b].name;
    s += "<text x=\"" + num(x + 4) + "\" y=\"" +
         num(kTop + 14 + 14 * static_cast<double>(i % 3)) +
         "\" fill=\"#555555\">" + escape(text) + "</text>\n";
  }
  s += "</g>\n";

  // One polyline per mode, and the legend.
  s += "<g class=\"modes\" fill=\"none\" stroke-width=\"1.5\">\n";
  for (const ModeResult& r : results) {
    const char* colour = kColours[static_cast<std::size_t>(r.mode) % 5];
    s += "<polyline data-mode=\"" + escape(mode_name(r.mode)) + "\" stroke=\"" +
         colour + "\" points=\"";
    bool first = true;
    for (const TimeSample& t : r.samples) {
      const double mid = (t.at.seconds() - t.duration.seconds() / 2);
      if (!first) s += ' ';
      first = false;
      s += num(x_of(mid)) + "," + num(y_of(t.goodput_gbps));
    }
    s += "\"/>\n";
  }
  s += "</g>\n<g class=\"legend\">\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const char* colour =
        kColours[static_cast<std::size_t>(results[i].mode) % 5];
    const double y = kTop + 10 + 20 * static_cast<double>(i);
    const double x = kLeft + kPlotW + 20;
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" +
         num(x + 24) + "\" y2=\"" + num(y) + "\" stroke=\"" + colour +
         "\" stroke-width=\"3\"/>\n";
    s += "<text x=\"" + num(x + 30) + "\" y=\"" + num(y + 4) + "\">" +
         escape(mode_name(results[i].mode)) + "</text>\n";
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace arfabric::sim::output
