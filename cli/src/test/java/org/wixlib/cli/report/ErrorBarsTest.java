package org.wixlib.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Charts draw each point's min-max range as an error bar, on line and on bar panels. */
class ErrorBarsTest {
  @TempDir Path dir;

  /** The longest vertical run of pixels of exactly this colour, in any column. */
  static int longestVerticalRun(BufferedImage img, int rgb) {
    int best = 0;
    for (int x = 0; x < img.getWidth(); x++) {
      int run = 0;
      for (int y = 0; y < img.getHeight(); y++) {
        run = (img.getRGB(x, y) & 0xFFFFFF) == rgb ? run + 1 : 0;
        best = Math.max(best, run);
      }
    }
    return best;
  }

  BufferedImage draw(boolean ranges, boolean bars) throws IOException {
    Chart c = new Chart("t", "s");
    Chart.Panel p = bars ? c.panel("bars", "", "M ops/s", Chart.Scale.LINEAR, Chart.Scale.LINEAR)
        : c.panel("lines", "n", "M ops/s", Chart.Scale.LOG2, Chart.Scale.LINEAR);
    for (int i = 0; i < 3; i++) {
      double min = ranges ? 20 : Double.NaN;
      double max = ranges ? 80 : Double.NaN;
      if (bars) {
        p.bar("cpu", false, "op" + i, 30, ranges ? min : null, ranges ? max : null);
      } else {
        p.add("cpu", false, 1 << (10 + i), 50, ranges ? min : null, ranges ? max : null); // a flat line
      }
    }
    Path f = dir.resolve((bars ? "bars" : "lines") + (ranges ? "-ranges" : "") + ".png");
    ChartWriter.write(c, f);
    return ImageIO.read(f.toFile());
  }

  @Test
  void linePointsGetAVerticalBarFromMinToMax() throws IOException {
    assumeTrue(Chart.drawable(), "no java.desktop");
    int blue = 0x1f77b4; // the first series colour
    int with = longestVerticalRun(draw(true, false), blue);
    int without = longestVerticalRun(draw(false, false), blue);
    assertTrue(without < 20, "a flat line and its markers have no long vertical run: " + without);
    assertTrue(with > 100, "min 20 to max 80 on a 0..80 axis spans most of the plot height: " + with);
  }

  @Test
  void theErrorBarOfASinglePointStandsOnIt() throws IOException {
    assumeTrue(Chart.drawable(), "no java.desktop");
    Chart c = new Chart("t", "s");
    c.panel("one size", "n", "M ops/s", Chart.Scale.LOG2, Chart.Scale.LINEAR)
        .add("cpu", false, 1 << 16, 50, 20.0, 80.0);
    Path f = dir.resolve("one.png");
    ChartWriter.write(c, f);
    BufferedImage img = ImageIO.read(f.toFile());
    int left = Integer.MAX_VALUE;
    int right = -1;
    for (int x = 0; x < 540; x++) { // the plot, left of the legend
      for (int y = 0; y < img.getHeight(); y++) {
        if ((img.getRGB(x, y) & 0xFFFFFF) == 0x1f77b4) {
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
      }
    }
    assertTrue(right >= 0, "the point is drawn");
    assertTrue(right - left <= 12, "marker and error bar share one column band, not two: " + left + ".." + right);
  }

  @Test
  void barsGetAnErrorBarInADarkerShade() throws IOException {
    assumeTrue(Chart.drawable(), "no java.desktop");
    int dark = new java.awt.Color(0x1f77b4).darker().getRGB() & 0xFFFFFF;
    assertEquals(0, longestVerticalRun(draw(false, true), dark), "no error bars without ranges");
    assertTrue(longestVerticalRun(draw(true, true), dark) > 100, "the bar's range is drawn over it");
  }

  @Test
  void rangesThatCannotBeDrawnAreLeftOut() {
    Chart c = new Chart("t", "s");
    Chart.Panel log = c.panel("p", "", "", Chart.Scale.LINEAR, Chart.Scale.LOG10);
    log.add("a", false, 1, 5, 0.0, 9.0); // min 0 has no place on a log axis
    log.add("a", false, 2, 5, null, 9.0);
    log.add("a", false, 3, 5, 1.0, 9.0);
    var pts = log.series.get("a").points;
    assertTrue(Double.isNaN(pts.get(0)[2]) && Double.isNaN(pts.get(1)[2]));
    assertEquals(1.0, pts.get(2)[2]);
    assertEquals(9.0, pts.get(2)[3]);
  }
}
