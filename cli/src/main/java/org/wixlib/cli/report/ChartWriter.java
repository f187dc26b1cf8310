package org.wixlib.cli.report;

import de.erichseifert.vectorgraphics2d.Processors;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws a {@link Chart} with XChart as a PNG (headless AWT) or an SVG (XChart's vector back end,
 * VectorGraphics2D): one XChart per panel, composed in a grid of two columns under the title, the same
 * drawing in both formats. A point's min-max range is an error bar drawn over the painted panel at the
 * chart's own coordinates (XChart's error bars are symmetric; min and max are not). Needs the
 * java.desktop module: check {@link Chart#drawable()} first, without touching this class (loading it in
 * a runtime without java.desktop fails).
 */
public final class ChartWriter {
  private static final int PW = 640;
  private static final int PH = 400;
  private static final int HEAD = 56;
  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd),
    new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0x17becf), new Color(0xbcbd22)
  };

  private ChartWriter() {}

  /** Writes the chart to FILE.png or FILE.svg. */
  public static void write(Chart chart, Path file) {
    System.setProperty("java.awt.headless", "true");
    Layout l = new Layout(chart);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      if ("svg".equals(Chart.fileFormat(file))) {
        VectorGraphics2D g = new VectorGraphics2D();
        l.paint(g);
        try (OutputStream out = Files.newOutputStream(file)) {
          Processors.get("svg").getDocument(g.getCommands(), new PageSize(l.width, l.height)).writeTo(out);
        }
      } else {
        BufferedImage img = new BufferedImage(l.width, l.height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
          l.paint(g);
        } finally {
          g.dispose();
        }
        if (!ImageIO.write(img, "png", file.toFile())) {
          throw new IOException("no PNG writer");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A min-max error bar at chart coordinates: on a line panel at x; on a bar panel over the bar of
   * series slot (of slots) in category x (an index).
   */
  record ErrorBar(double x, int slot, int slots, double min, double max, Color color) {}

  /** An XChart and the error bars drawn over it. */
  record Drawn(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, List<ErrorBar> bars) {}

  /** The panels' XCharts and where they go. */
  private static final class Layout {
    final Chart chart;
    final List<Drawn> panels = new ArrayList<>();
    final int panelWidth;
    final int cols;
    final int width;
    final int height;

    Layout(Chart chart) {
      this.chart = chart;
      List<String> names = new ArrayList<>(); // fixed colours per kind across panels
      for (Chart.Panel p : chart.panels.values()) {
        if (!p.isEmpty()) {
          List<ErrorBar> bars = new ArrayList<>();
          panels.add(new Drawn(p.categories.isEmpty() ? lines(p, names, bars) : bars(p, names, bars), bars));
        }
      }
      int pw = PW;
      for (Drawn p : panels) {
        pw = Math.max(pw, p.chart().getWidth());
      }
      panelWidth = pw;
      cols = Math.min(pw > PW ? 1 : 2, Math.max(1, panels.size()));
      int rows = Math.max(1, (panels.size() + cols - 1) / cols);
      width = cols * pw;
      height = HEAD + rows * PH;
    }

    void paint(Graphics2D g) {
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
      centre(g, chart.title, width, 24);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      centre(g, chart.subtitle, width, 44);
      for (int i = 0; i < panels.size(); i++) {
        var p = panels.get(i).chart();
        Graphics2D pg = (Graphics2D) g.create((i % cols) * panelWidth, HEAD + (i / cols) * PH, p.getWidth(),
            p.getHeight());
        try {
          p.paint(pg, p.getWidth(), p.getHeight());
          errorBars(pg, panels.get(i));
        } finally {
          pg.dispose();
        }
      }
    }
  }

  /**
   * Draws a panel's error bars once XChart has painted it (its axes then map chart coordinates to the
   * panel). A bar panel's category i spans chart x [i, i + 1); XChart fills the middle share
   * (availableSpaceFill) of it with the series' bars side by side, in the order they were added.
   */
  static void errorBars(Graphics2D g, Drawn d) {
    var c = d.chart();
    double fill = c instanceof CategoryChart cc ? cc.getStyler().getAvailableSpaceFill() : 0;
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setStroke(new java.awt.BasicStroke(1.5f));
    for (ErrorBar b : d.bars()) {
      double x;
      double cap = 4;
      if (b.slot() < 0) {
        x = c.getScreenXFromChart(b.x());
      } else {
        double left = c.getScreenXFromChart(b.x());
        double step = c.getScreenXFromChart(b.x() + 1) - left;
        double width = step * fill / b.slots();
        x = left + step * (1 - fill) / 2 + (b.slot() + 0.5) * width;
        cap = Math.min(cap, width / 4);
      }
      double top = c.getScreenYFromChart(b.max());
      double bottom = c.getScreenYFromChart(b.min());
      g.setColor(b.color());
      g.draw(new java.awt.geom.Line2D.Double(x, top, x, bottom));
      g.draw(new java.awt.geom.Line2D.Double(x - cap, top, x + cap, top));
      g.draw(new java.awt.geom.Line2D.Double(x - cap, bottom, x + cap, bottom));
    }
  }

  private static void centre(Graphics2D g, String s, int width, int y) {
    int w = g.getFontMetrics().stringWidth(s);
    g.drawString(s, Math.max(4, (width - w) / 2), y);
  }

  private static Color color(List<String> names, String series) {
    String base = series.replace(" (kernel)", "");
    if (!names.contains(base)) {
      names.add(base);
    }
    return PALETTE[names.indexOf(base) % PALETTE.length];
  }

  private static void style(org.knowm.xchart.style.AxesChartStyler s) {
    s.setYAxisDecimalPattern("#,##0.##");
    s.setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    s.setChartBackgroundColor(Color.WHITE);
    s.setAntiAlias(true);
    s.setMarkerSize(6);
  }

  /**
   * A line panel; log2 x axes are drawn as the exponent on a linear axis (XChart's log axes are base 10).
   * Adds the points' ranges to errorBars.
   */
  private static XYChart lines(Chart.Panel p, List<String> names, List<ErrorBar> errorBars) {
    boolean log2 = p.x == Chart.Scale.LOG2;
    XYChart c = new XYChartBuilder().width(PW).height(PH).title(p.title)
        .xAxisTitle(log2 ? p.xLabel + " (2^x)" : p.xLabel).yAxisTitle(p.yLabel).build();
    style(c.getStyler());
    c.getStyler().setXAxisLogarithmic(p.x == Chart.Scale.LOG10);
    c.getStyler().setYAxisLogarithmic(p.y != Chart.Scale.LINEAR);
    if (p.y == Chart.Scale.LINEAR) {
      c.getStyler().setYAxisMin(0.0);
    } else if (lowest(p, true) < lowest(p, false)) {
      c.getStyler().setYAxisMin(lowest(p, true));
    }
    if (highest(p, true) > highest(p, false)) {
      c.getStyler().setYAxisMax(highest(p, true) * 1.02); // room for the error bars above the highest point
    }
    double[] distinctX = p.series.values().stream().flatMap(s -> s.points.stream()).mapToDouble(pt -> pt[0])
        .distinct().toArray();
    if (distinctX.length == 1) {
      // One x: XChart centres the points but maps chart x to the screen over another range; a range
      // around it makes both agree, so error bars stand on their points.
      double x = log2 ? Math.log(distinctX[0]) / Math.log(2) : distinctX[0];
      boolean log10 = p.x == Chart.Scale.LOG10;
      c.getStyler().setXAxisMin(log10 ? x / 10 : x - 1);
      c.getStyler().setXAxisMax(log10 ? x * 10 : x + 1);
    }
    for (Chart.Series s : p.series.values()) {
      List<double[]> pts = new ArrayList<>(s.points);
      pts.sort((a, b) -> Double.compare(a[0], b[0]));
      double[] x = new double[pts.size()];
      double[] y = new double[pts.size()];
      for (int i = 0; i < x.length; i++) {
        double[] pt = pts.get(i);
        x[i] = log2 ? Math.log(pt[0]) / Math.log(2) : pt[0];
        y[i] = pt[1];
        if (!Double.isNaN(pt[2])) {
          errorBars.add(new ErrorBar(x[i], -1, 0, pt[2], pt[3], color(names, s.name)));
        }
      }
      XYSeries xs = c.addSeries(s.name, x, y);
      xs.setLineColor(color(names, s.name));
      xs.setMarkerColor(color(names, s.name));
      xs.setMarker(SeriesMarkers.CIRCLE);
      xs.setLineStyle(s.dashed ? SeriesLines.DASH_DASH : SeriesLines.SOLID);
    }
    return c;
  }

  /**
   * A bar panel: categories every series has (XChart needs the same categories in each series). Adds
   * the bars' ranges to errorBars, over the bar, in a darker shade of its colour.
   */
  private static CategoryChart bars(Chart.Panel p, List<String> names, List<ErrorBar> errorBars) {
    int width = Math.max(PW, 180 + p.categories.size() * (p.series.size() * 22 + 30));
    CategoryChart c = new CategoryChartBuilder().width(width).height(PH).title(p.title).xAxisTitle(p.xLabel)
        .yAxisTitle(p.yLabel).build();
    style(c.getStyler());
    c.getStyler().setYAxisLogarithmic(p.y != Chart.Scale.LINEAR);
    List<Integer> common = new ArrayList<>();
    for (int i = 0; i < p.categories.size(); i++) {
      final int cat = i;
      if (p.series.values().stream().allMatch(s -> s.points.stream().anyMatch(pt -> pt[0] == cat))) {
        common.add(i);
      }
    }
    List<Color> colors = new ArrayList<>();
    List<ErrorBar> ranges = new ArrayList<>(); // slots counted once every series is in
    for (Chart.Series s : p.series.values()) {
      List<String> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (int i = 0; i < common.size(); i++) {
        for (double[] pt : s.points) {
          if (pt[0] == common.get(i)) {
            x.add(p.categories.get(common.get(i)));
            y.add(pt[1]);
            if (!Double.isNaN(pt[2])) {
              ranges.add(new ErrorBar(i, colors.size(), 0, pt[2], pt[3], color(names, s.name).darker()));
            }
            break;
          }
        }
      }
      if (!x.isEmpty()) {
        c.addSeries(s.name, x, y);
        Color base = color(names, s.name);
        colors.add(s.dashed ? new Color(base.getRed(), base.getGreen(), base.getBlue(), 110) : base);
      }
    }
    for (ErrorBar b : ranges) {
      errorBars.add(new ErrorBar(b.x(), b.slot(), colors.size(), b.min(), b.max(), b.color()));
    }
    c.getStyler().setSeriesColors(colors.toArray(new Color[0]));
    if (p.y != Chart.Scale.LINEAR) {
      // Bars start at the axis minimum, which must be positive on a log axis: the decade below the data.
      c.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest(p, true)))));
    }
    if (highest(p, true) > highest(p, false)) {
      c.getStyler().setYAxisMax(highest(p, true) * (p.y == Chart.Scale.LINEAR ? 1.02 : 1.2));
    }
    return c;
  }

  /** The smallest value of the panel's points, their ranges' minima included or not (1 when empty). */
  private static double lowest(Chart.Panel p, boolean ranges) {
    return p.series.values().stream().flatMap(s -> s.points.stream())
        .mapToDouble(pt -> ranges && !Double.isNaN(pt[2]) ? Math.min(pt[1], pt[2]) : pt[1]).min().orElse(1);
  }

  /** The largest value of the panel's points, their ranges' maxima included or not (1 when empty). */
  private static double highest(Chart.Panel p, boolean ranges) {
    return p.series.values().stream().flatMap(s -> s.points.stream())
        .mapToDouble(pt -> ranges && !Double.isNaN(pt[3]) ? Math.max(pt[1], pt[3]) : pt[1]).max().orElse(1);
  }
}
