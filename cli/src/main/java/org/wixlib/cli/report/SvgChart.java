package org.wixlib.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.wixlib.cli.Texts;

/**
 * Draws a {@link Chart} as SVG text: panels in a grid of two columns, each with axes, grid lines, tick
 * labels, a legend, lines with point markers (dashed for kernel-only series) or grouped bars. Plain text
 * output, no AWT: it works headless and in a runtime without java.desktop.
 */
public final class SvgChart {
  private static final String[] PALETTE = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"
  };
  private static final int MIN_PW = 600;
  /** Panel width of this chart: wider for bar panels with many bars. */
  private int pw = MIN_PW;
  private static final int PH = 380;
  private static final int LEFT = 70;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;
  private static final int HEAD = 56;

  private final Map<String, String> colors = new LinkedHashMap<>();
  private final StringBuilder sb = new StringBuilder();

  private SvgChart() {}

  public static String render(Chart chart) {
    return new SvgChart().draw(chart);
  }

  private String draw(Chart chart) {
    List<Chart.Panel> panels = new ArrayList<>();
    for (Chart.Panel p : chart.panels.values()) {
      if (!p.isEmpty()) {
        panels.add(p);
      }
    }
    for (Chart.Panel p : panels) {
      if (!p.categories.isEmpty()) {
        pw = Math.max(pw, LEFT + RIGHT + p.categories.size() * (p.series.size() * 18 + 30));
      }
    }
    int cols = Math.min(pw > MIN_PW ? 1 : 2, Math.max(1, panels.size()));
    int rows = Math.max(1, (panels.size() + cols - 1) / cols);
    int w = cols * pw;
    int h = HEAD + rows * PH;
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">%n", w, h, w, h));
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", w, h));
    text(w / 2.0, 22, "middle", 16, "bold", chart.title);
    text(w / 2.0, 42, "middle", 11, "normal", chart.subtitle);
    if (panels.isEmpty()) {
      text(w / 2.0, HEAD + 40, "middle", 13, "normal", "no data");
    }
    for (int i = 0; i < panels.size(); i++) {
      panel(panels.get(i), (i % cols) * pw, HEAD + (i / cols) * PH);
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private String color(String series) {
    String base = series.replace(" (kernel)", "");
    return colors.computeIfAbsent(base, b -> PALETTE[colors.size() % PALETTE.length]);
  }

  private void panel(Chart.Panel p, int ox, int oy) {
    double x0 = ox + LEFT;
    double x1 = ox + pw - RIGHT;
    double y0 = oy + PH - BOTTOM;
    double y1 = oy + TOP;
    boolean bars = !p.categories.isEmpty();
    text((x0 + x1) / 2, oy + 24, "middle", 13, "bold", p.title);

    // Axis ranges from the data.
    double xmin = Double.POSITIVE_INFINITY;
    double xmax = Double.NEGATIVE_INFINITY;
    double ymin = Double.POSITIVE_INFINITY;
    double ymax = Double.NEGATIVE_INFINITY;
    for (Chart.Series s : p.series.values()) {
      for (double[] pt : s.points) {
        xmin = Math.min(xmin, pt[0]);
        xmax = Math.max(xmax, pt[0]);
        ymin = Math.min(ymin, pt[1]);
        ymax = Math.max(ymax, pt[1]);
      }
    }
    Axis xa = bars ? Axis.categories(p.categories.size()) : Axis.of(p.x, xmin, xmax, false);
    Axis ya = Axis.of(p.y, ymin, ymax, true);

    // Grid, ticks and labels.
    for (double t : ya.ticks) {
      double y = y0 - ya.frac(t) * (y0 - y1);
      line(x0, y, x1, y, "#e0e0e0", 1, false);
      text(x0 - 6, y + 4, "end", 11, "normal", Axis.label(p.y, t));
    }
    if (bars) {
      for (int c = 0; c < p.categories.size(); c++) {
        double x = x0 + xa.frac(c) * (x1 - x0);
        text(x, y0 + 16, "middle", 11, "normal", p.categories.get(c));
      }
    } else {
      for (double t : xa.ticks) {
        double x = x0 + xa.frac(t) * (x1 - x0);
        line(x, y0, x, y1, "#f0f0f0", 1, false);
        text(x, y0 + 16, "middle", 11, "normal", Axis.label(p.x, t));
      }
    }
    line(x0, y0, x1, y0, "#333", 1, false);
    line(x0, y0, x0, y1, "#333", 1, false);
    text((x0 + x1) / 2, y0 + 38, "middle", 12, "normal", p.xLabel);
    sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\""
        + " transform=\"rotate(-90 %.1f %.1f)\">%s</text>%n", ox + 16.0, (y0 + y1) / 2, ox + 16.0, (y0 + y1) / 2,
        esc(p.yLabel)));

    // Data.
    int k = p.series.size();
    int si = 0;
    for (Chart.Series s : p.series.values()) {
      String c = color(s.name);
      if (bars) {
        double slot = (x1 - x0) / Math.max(1, p.categories.size());
        double bw = slot * 0.8 / Math.max(1, k);
        for (double[] pt : s.points) {
          double cx = x0 + xa.frac(pt[0]) * (x1 - x0) - slot * 0.4 + si * bw;
          double y = y0 - ya.frac(pt[1]) * (y0 - y1);
          sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
              + " fill=\"%s\"%s><title>%s: %s</title></rect>%n", cx, y, Math.max(1, bw - 1), Math.max(0, y0 - y), c,
              s.dashed ? " fill-opacity=\"0.45\" stroke=\"" + c + "\"" : "", esc(s.name),
              Texts.fixed2(pt[1])));
        }
      } else {
        List<double[]> pts = new ArrayList<>(s.points);
        pts.sort((a, b) -> Double.compare(a[0], b[0]));
        StringBuilder path = new StringBuilder();
        for (double[] pt : pts) {
          double x = x0 + xa.frac(pt[0]) * (x1 - x0);
          double y = y0 - ya.frac(pt[1]) * (y0 - y1);
          path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
        }
        sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
            path, c, s.dashed ? " stroke-dasharray=\"6 4\"" : ""));
        for (double[] pt : pts) {
          double x = x0 + xa.frac(pt[0]) * (x1 - x0);
          double y = y0 - ya.frac(pt[1]) * (y0 - y1);
          sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s: %s</title>"
              + "</circle>%n", x, y, s.dashed ? "white" : c, esc(s.name), Texts.fixed2(pt[1])));
        }
      }
      // Legend entry.
      double ly = y1 + 8 + si * 18;
      double lx = x1 + 14;
      if (bars) {
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"10\" fill=\"%s\"%s/>%n",
            lx, ly - 9, c, s.dashed ? " fill-opacity=\"0.45\"" : ""));
      } else {
        line(lx, ly - 4, lx + 18, ly - 4, c, 2, s.dashed);
      }
      text(lx + 24, ly, "start", 11, "normal", s.name);
      si++;
    }
  }

  private void line(double xa, double ya, double xb, double yb, String color, double width, boolean dashed) {
    sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
        + " stroke-width=\"%.1f\"%s/>%n", xa, ya, xb, yb, color, width, dashed ? " stroke-dasharray=\"6 4\"" : ""));
  }

  private void text(double x, double y, String anchor, int size, String weight, String s) {
    sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\""
        + " font-weight=\"%s\">%s</text>%n", x, y, anchor, size, weight, esc(s)));
  }

  public static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** An axis: where values fall (0..1) and its tick values. */
  public static final class Axis {
    final Chart.Scale scale;
    final double lo;
    final double hi;
    public final List<Double> ticks = new ArrayList<>();

    private Axis(Chart.Scale scale, double lo, double hi) {
      this.scale = scale;
      this.lo = lo;
      this.hi = hi;
    }

    static Axis categories(int n) {
      Axis a = new Axis(Chart.Scale.LINEAR, -0.5, n - 0.5);
      for (int i = 0; i < n; i++) {
        a.ticks.add((double) i);
      }
      return a;
    }

    /** An axis covering [min, max]; a linear y axis starts at 0. */
    public static Axis of(Chart.Scale scale, double min, double max, boolean fromZero) {
      if (!(min <= max)) {
        min = 1;
        max = 10;
      }
      if (scale == Chart.Scale.LINEAR) {
        double lo = fromZero ? Math.min(0, min) : min;
        double hi = max > lo ? max : lo + 1;
        double step = niceStep((hi - lo) / 5);
        lo = Math.floor(lo / step) * step;
        hi = Math.ceil(hi * (fromZero ? 1.05 : 1) / step) * step;
        Axis a = new Axis(scale, lo, hi);
        for (double t = lo; t <= hi + step / 2; t += step) {
          a.ticks.add(t);
        }
        return a;
      }
      double base = scale == Chart.Scale.LOG2 ? 2 : 10;
      double elo = Math.floor(Math.log(min) / Math.log(base) + 1e-9);
      double ehi = Math.ceil(Math.log(max) / Math.log(base) - 1e-9);
      if (ehi <= elo) {
        ehi = elo + 1;
      }
      Axis a = new Axis(scale, elo, ehi);
      int every = (int) Math.ceil((ehi - elo + 1) / 12);
      for (double e = elo; e <= ehi; e += every) {
        a.ticks.add(Math.pow(base, e));
        if (scale == Chart.Scale.LOG10 && ehi - elo <= 3 && e < ehi) {
          a.ticks.add(2 * Math.pow(base, e)); // few decades: 2x and 5x ticks too
          a.ticks.add(5 * Math.pow(base, e));
        }
      }
      return a;
    }

    static double niceStep(double raw) {
      double mag = Math.pow(10, Math.floor(Math.log10(raw)));
      double r = raw / mag;
      return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
    }

    /** Where v falls, 0 at lo and 1 at hi. */
    public double frac(double v) {
      double t = switch (scale) {
        case LINEAR -> v;
        case LOG2 -> Math.log(v) / Math.log(2);
        case LOG10 -> Math.log10(v);
      };
      return hi > lo ? (t - lo) / (hi - lo) : 0.5;
    }

    public static String label(Chart.Scale scale, double v) {
      if (scale == Chart.Scale.LOG2) {
        return "2^" + Math.round(Math.log(v) / Math.log(2));
      }
      if (Math.abs(v) >= 1e9 && v % 1e9 == 0) {
        return (long) (v / 1e9) + "G";
      }
      if (Math.abs(v) >= 1e6 && v % 1e6 == 0) {
        return (long) (v / 1e6) + "M";
      }
      if (Math.abs(v) >= 1e3 && v % 1e3 == 0) {
        return (long) (v / 1e3) + "k";
      }
      if (v == Math.rint(v)) {
        return Long.toString((long) v);
      }
      return String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "");
    }
  }
}
