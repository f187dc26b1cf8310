package org.wixlib.cli.bench;

import org.wixlib.LinkRates;

/**
 * The bound of a bulk call on each memory path: the rate (G ops/s) that no implementation passes, from
 * the bytes one op moves between the host and the device and the rates measured at start
 * ({@link org.wixlib.Wixlib#linkRates}). GB/s is bytes per nanosecond, so bytes / rate is nanoseconds
 * per op and its inverse G ops/s.
 *
 * <ul>
 *   <li>pinned: the DMA alone. Inputs cross at hostToDevice, results at deviceToHost, and both at once
 *       share bothDirections: the slowest of in/h2d, out/d2h and (in+out)/both is the time per op.
 *   <li>heap and native: in addition every byte in and out is copied on the host into or out of the
 *       page-locked staging buffers at hostCopy, overlapped with the DMA: the time per op is the larger
 *       of the host copy's and the DMA's.
 *   <li>device: nothing crosses the link; the kernel is the bound, so the row's own kernel rate.
 * </ul>
 *
 * <p>A host path also never passes the kernel behind it: when the run measured the device path, the
 * bound of a host path is at most the device row's rate for the same op.
 */
public final class PathBound {
  private PathBound() {}

  /** Bytes one op moves per element: in = host to device, out = device to host. */
  public record Traffic(int in, int out) {
    /**
     * The traffic of a benchmark op on keys and values of keyBits: insert sends keys and values and
     * returns an outcome byte; find sends keys and returns values; erase sends keys and returns an
     * outcome byte; a mixed batch (mixed_*) sends op bytes, keys and values and returns values and
     * outcome bytes.
     */
    public static Traffic of(String op, int keyBits) {
      int w = keyBits / 8;
      if (op.startsWith("mixed")) {
        return new Traffic(1 + 2 * w, w + 1);
      }
      return switch (op) {
        case "insert" -> new Traffic(2 * w, 1);
        case "find_present", "find_absent", "find" -> new Traffic(w, w);
        case "erase" -> new Traffic(w, 1);
        default -> throw new IllegalArgumentException("no traffic model for op " + op);
      };
    }

    @Override
    public String toString() {
      return in + " B in + " + out + " B out";
    }
  }

  /** Nanoseconds per op the link needs: the slowest of inputs, results, and both directions at once. */
  public static double dmaNanos(Traffic t, LinkRates r) {
    return dmaNanos(t.in(), t.out(), r);
  }

  /** Nanoseconds the link needs for in bytes to the device while out bytes come back. */
  public static double dmaNanos(double in, double out, LinkRates r) {
    return Math.max(Math.max(in / r.hostToDevice(), out / r.deviceToHost()), (in + out) / r.bothDirections());
  }

  /** Nanoseconds per op the staging threads need to copy every byte in and out on the host. */
  public static double hostCopyNanos(Traffic t, LinkRates r) {
    return (t.in() + t.out()) / r.hostCopy();
  }

  /**
   * The bound in G ops/s of an op with this traffic on the path. kernelGops: the op's kernel rate (the
   * device row's), null when not measured; the device path's bound, and a cap on the others. Null when
   * there is no bound: no link rates (cpu kind), a rate not measured, or no kernel rate (device path).
   */
  public static Double gops(MemoryPath path, Traffic t, LinkRates r, Double kernelGops) {
    if (path == MemoryPath.DEVICE) {
      return kernelGops != null && kernelGops > 0 ? kernelGops : null;
    }
    if (r == null || !(r.hostToDevice() > 0) || !(r.deviceToHost() > 0) || !(r.bothDirections() > 0)) {
      return null;
    }
    double nanos = dmaNanos(t, r);
    if (path != MemoryPath.PINNED) {
      if (!(r.hostCopy() > 0)) {
        return null;
      }
      nanos = Math.max(nanos, hostCopyNanos(t, r));
    }
    return capped(1 / nanos, kernelGops);
  }

  private static double capped(double linkGops, Double kernelGops) {
    return kernelGops != null && kernelGops > 0 ? Math.min(linkGops, kernelGops) : linkGops;
  }

  /**
   * The bound of a table sharded over several devices, each with its own link: the DMA rates add up
   * (each shard's share crosses its device's link, all at once), the host copy stays one host's (the
   * first link's measurement). One link gives {@link #gops(MemoryPath, Traffic, LinkRates, Double)}.
   */
  public static Double gopsOver(MemoryPath path, Traffic t, java.util.List<LinkRates> links, Double kernelGops) {
    if (path == MemoryPath.DEVICE || links.size() == 1) {
      return gops(path, t, links.isEmpty() ? null : links.get(0), kernelGops);
    }
    double dma = 0;
    for (LinkRates r : links) {
      Double one = gops(MemoryPath.PINNED, t, r, null);
      if (one == null) {
        return null;
      }
      dma += one;
    }
    if (path == MemoryPath.PINNED) {
      return capped(dma, kernelGops);
    }
    LinkRates host = links.get(0);
    return host.hostCopy() > 0 ? capped(Math.min(dma, 1 / hostCopyNanos(t, host)), kernelGops) : null;
  }

  /** Share of the bound reached, in percent: M ops/s against G ops/s; null without either. */
  public static Double percent(Double mops, Double boundGops) {
    if (mops == null || boundGops == null || !(boundGops > 0)) {
      return null;
    }
    return 100 * mops / (boundGops * 1000);
  }

  /** How the bounds are computed, in one line for reports. */
  public static final String MODEL = "G ops/s no call on the path can pass, from the bytes each op moves (in, out)"
      + " and the link measured at start: pinned = 1 / max(in/h2d, out/d2h, (in+out)/both); heap, native ="
      + " 1 / max(that, (in+out)/host_copy) (staging copy overlapped with the DMA); device = the row's own"
      + " kernel rate, which also caps the other paths when the run measured it; sharded over several devices: the"
      + " devices' DMA bounds add up, the host copy is one host's";

  /** The measured link in a report's header (null: not measured, no bounds), with the model of its bounds. */
  public static void linkFields(org.wixlib.cli.report.Report r, LinkRates link, String model) {
    if (link == null) {
      r.field("link", "not measured (no GPU kind runs here): no bounds");
      return;
    }
    r.field("link_h2d_gbs", link.hostToDevice());
    r.field("link_d2h_gbs", link.deviceToHost());
    r.field("link_both_gbs", link.bothDirections());
    r.field("host_copy_gbs", link.hostCopy());
    r.field("host_copy_threads", link.hostCopyThreads());
    r.field("host_copy_join_gbs", link.hostCopyJoin());
    r.field("host_copy_join_threads", link.hostCopyJoinThreads());
    r.field("bound_model", model);
  }
}
