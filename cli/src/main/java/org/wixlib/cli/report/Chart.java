package org.wixlib.cli.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a chart shows, independent of how it is drawn: a title and panels; a panel has axes and named
 * series of (x, y) points (lines), or, with categories, one bar per series and category. A point may
 * carry the range of its samples (min and max), drawn as an error bar.
 */
public final class Chart {
  /** How an axis maps values: linear, or logarithmic with ticks at powers of 2 or of 10. */
  public enum Scale { LINEAR, LOG2, LOG10 }

  /** A named line or bar group; dashed = kernel-only values, drawn beside the end-to-end ones. */
  static final class Series {
    final String name;
    final boolean dashed;
    /** {x, y, min, max}; min and max NaN when the point has no range. */
    final List<double[]> points = new ArrayList<>();

    Series(String name, boolean dashed) {
      this.name = name;
      this.dashed = dashed;
    }
  }

  public static final class Panel {
    final String title;
    final String xLabel;
    final String yLabel;
    final Scale x;
    final Scale y;
    /** Non-empty for a bar panel: the x positions 0..k-1 are these categories. */
    public final List<String> categories = new ArrayList<>();
    public final Map<String, Series> series = new LinkedHashMap<>();

    public Panel(String title, String xLabel, String yLabel, Scale x, Scale y) {
      this.title = title;
      this.xLabel = xLabel;
      this.yLabel = yLabel;
      this.x = x;
      this.y = y;
    }

    /** Adds a point to the named series (created on first use); y must be positive on a log axis. */
    public void add(String name, boolean dashed, double xv, double yv) {
      add(name, dashed, xv, yv, null, null);
    }

    /**
     * Adds a point with the range of its samples (min and max; null: none), drawn as an error bar; a
     * range that cannot be drawn (not finite, or not positive on a log axis) is left out.
     */
    public void add(String name, boolean dashed, double xv, double yv, Double min, Double max) {
      if (!Double.isFinite(yv) || (y != Scale.LINEAR && yv <= 0)) {
        return;
      }
      boolean range = min != null && max != null && Double.isFinite(min) && Double.isFinite(max)
          && (y == Scale.LINEAR || min > 0);
      series.computeIfAbsent(name, n -> new Series(n, dashed)).points.add(
          new double[] {xv, yv, range ? min : Double.NaN, range ? max : Double.NaN});
    }

    /** Adds a bar value for a category (created on first use). */
    public void bar(String name, boolean dashed, String category, double yv) {
      bar(name, dashed, category, yv, null, null);
    }

    /** Adds a bar value with the range of its samples (min, max; null: none) for a category. */
    public void bar(String name, boolean dashed, String category, double yv, Double min, Double max) {
      int c = categories.indexOf(category);
      if (c < 0) {
        categories.add(category);
        c = categories.size() - 1;
      }
      add(name, dashed, c, yv, min, max);
    }

    boolean isEmpty() {
      return series.values().stream().allMatch(s -> s.points.isEmpty());
    }
  }

  final String title;
  final String subtitle;
  final Map<String, Panel> panels = new LinkedHashMap<>();

  public Chart(String title, String subtitle) {
    this.title = title;
    this.subtitle = subtitle;
  }

  /**
   * Whether this runtime can draw charts (java.desktop present). Kept out of {@link ChartWriter}: loading
   * that class needs AWT, which a jlinked runtime without java.desktop lacks.
   */
  public static boolean drawable() {
    return ModuleLayer.boot().findModule("java.desktop").isPresent();
  }

  /** The format of a chart file: "png" or "svg" by its extension (any case), null for anything else. */
  public static String fileFormat(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".png") ? "png" : name.endsWith(".svg") ? "svg" : null;
  }

  /** The panel with this title, created with these axes on first use. */
  public Panel panel(String title, String xLabel, String yLabel, Scale x, Scale y) {
    return panels.computeIfAbsent(title, t -> new Panel(t, xLabel, yLabel, x, y));
  }

  boolean isEmpty() {
    return panels.values().stream().allMatch(Panel::isEmpty);
  }
}
