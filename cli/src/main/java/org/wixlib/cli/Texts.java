package org.wixlib.cli;

import java.util.Locale;

/** Small formatting helpers shared by the commands. */
public final class Texts {
  private Texts() {}

  /** "13.0" from CUDA's 1000*major + 10*minor; "none" for 0. */
  static String cudaVersion(int v) {
    if (v <= 0) {
      return "none";
    }
    return (v / 1000) + "." + (v % 1000) / 10;
  }

  /** "9.0" from 10*major + minor. */
  static String computeCapability(int cc) {
    return (cc / 10) + "." + (cc % 10);
  }

  /** Bytes as GiB with one decimal, or MiB below 1 GiB. */
  static String bytes(long b) {
    if (b >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
    }
    return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
  }

  /** Ordinals as typed on the command line: "0,1". */
  public static String ints(int[] a) {
    StringBuilder sb = new StringBuilder();
    for (int v : a) {
      sb.append(sb.length() == 0 ? "" : ",").append(v);
    }
    return sb.toString();
  }

  /** A count in its shortest exact form: 2^k when a power of two above 1024, else digits. */
  public static String count(long n) {
    if (n > 1024 && Long.bitCount(n) == 1) {
      return "2^" + Long.numberOfTrailingZeros(n) + " (" + n + ")";
    }
    return Long.toString(n);
  }

  /** Fixed 2 decimals, root locale. */
  public static String fixed2(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  /** The lower-case name people type: cpu, glht, hive. */
  public static String kindName(org.wixlib.TableKind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  /** The names of the kinds, in their order. */
  public static java.util.List<String> kindNames(java.util.Collection<org.wixlib.TableKind> kinds) {
    return kinds.stream().map(Texts::kindName).toList();
  }
}
