package org.wixlib.cli.bench;

/**
 * The 64-bit inputs of {@code wixlib bench --key-bits 64}, widened one to one from the 32-bit ones so
 * both widths run on the same key sets: key k becomes (k << 32) | (k * golden ratio, low 32 bits). The
 * high half is k itself, so keys stay distinct and never reach the reserved -1 / -2 (k is never -1 or
 * -2); the low half spreads every bit. Values keep bit 31 clear in their low half, so none equals the
 * sign-extended NOT_FOUND (0xFFFFFFFF80000000) that finds of absent keys write.
 */
public final class WideBenchData {
  /** What finds write for absent keys: BenchData.NOT_FOUND sign-extended, as the device overloads pass it. */
  public static final long NOT_FOUND = BenchData.NOT_FOUND;

  public final long[] keys;
  public final long[] values;
  public final long[] absent;

  public WideBenchData(BenchData d) {
    keys = widen(d.keys);
    absent = widen(d.absent);
    values = new long[d.values.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = ((long) d.values[i] << 32) | (d.keys[i] & 0x7FFFFFFFL);
    }
  }

  static long[] widen(int[] k) {
    long[] out = new long[k.length];
    for (int i = 0; i < k.length; i++) {
      long u = k[i] & 0xFFFFFFFFL;
      out[i] = (u << 32) | ((u * 0x9E3779B1L) & 0xFFFFFFFFL);
    }
    return out;
  }
}
