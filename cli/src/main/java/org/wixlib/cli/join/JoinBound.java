package org.wixlib.cli.join;

import org.wixlib.LinkRates;
import org.wixlib.cli.bench.PathBound;

/**
 * The bound of a GPU join core end to end: the time the bytes a build and its probe must move
 * between the host and the device take on this machine's link ({@link org.wixlib.Wixlib#linkRates}),
 * which no implementation beats. GB/s is bytes per nanosecond.
 *
 * <ul>
 *   <li>build: its key column crosses to the device (4 bytes a row), before any probe;
 *   <li>probe: its key column crosses to the device while its results come back (pairs: 8 bytes a
 *       match; semi and anti joins: 4 bytes a row given), overlapped: the slowest of in/h2d,
 *       out/d2h and (in+out)/both;
 *   <li>heap and native columns: every byte is also copied on the host into or out of page-locked
 *       staging buffers at host_copy_join (a join's copy threads), overlapped with its DMA; pinned columns move by DMA alone.
 * </ul>
 */
final class JoinBound {
  private JoinBound() {}

  static final String MODEL = "ms no join can beat on this link: build = build keys/h2d; probe = max(probe keys/h2d,"
      + " results/d2h, (keys+results)/both) with results = 8 B per pair or 4 B per semi/anti row; heap and native"
      + " columns: each part at least its bytes/host_copy_join (staging copy overlapped with the DMA); pinned: the DMA alone";

  /**
   * The bound in ms of a core: buildRows and probeRows 4-byte keys in, resultBytes out; null without
   * link rates.
   */
  static Double millis(JoinColumns.Memory memory, long buildRows, long probeRows, long resultBytes, LinkRates r) {
    if (r == null || !(r.hostToDevice() > 0) || !(r.deviceToHost() > 0) || !(r.bothDirections() > 0)
        || (memory != JoinColumns.Memory.PINNED && !(r.hostCopyJoin() > 0))) {
      return null;
    }
    double buildIn = 4.0 * buildRows;
    double probeIn = 4.0 * probeRows;
    double build = buildIn / r.hostToDevice();
    double probe = PathBound.dmaNanos(probeIn, resultBytes, r);
    if (memory != JoinColumns.Memory.PINNED) {
      build = Math.max(build, buildIn / r.hostCopyJoin());
      probe = Math.max(probe, (probeIn + resultBytes) / r.hostCopyJoin());
    }
    return (build + probe) / 1e6;
  }

  /** The bytes a core's results take: 8 per pair, 4 per semi or anti row. */
  static long resultBytes(JoinQuery q, long matches) {
    return (q.result == JoinQuery.Result.PAIRS ? 8L : 4L) * matches;
  }
}
