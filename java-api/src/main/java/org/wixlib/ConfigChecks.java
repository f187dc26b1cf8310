package org.wixlib;

/** The argument checks that tables, joins, buffers and their builders share. */
final class ConfigChecks {
  private ConfigChecks() {}

  /** A CUDA device ordinal. */
  static int device(int device) {
    if (device < 0) {
      throw new InvalidArgumentException("device must be >= 0, got " + device);
    }
    return device;
  }

  /** The load factor above which a table grows. */
  static double maxLoadFactor(double f) {
    if (!(f >= 0.05 && f <= 1)) {
      throw new InvalidArgumentException("maxLoadFactor must be in [0.05, 1], got " + f);
    }
    return f;
  }

  /** Worker threads of a CPU table, 0 = all cores. */
  static int threads(int threads) {
    if (threads < 0) {
      throw new InvalidArgumentException("threads must be >= 0, got " + threads);
    }
    return threads;
  }

  /** Width of keys (and values) in bits: 32 or 64. */
  static int keyBits(int bits) {
    if (bits != 32 && bits != 64) {
      throw new InvalidArgumentException("keyBits must be 32 or 64, got " + bits);
    }
    return bits;
  }

  /** An element count of a call. */
  static void count(long n) {
    if (n < 0) {
      throw new InvalidArgumentException("n must be >= 0, got " + n);
    }
    if (n > Long.MAX_VALUE / 8) {
      throw new InvalidArgumentException("n is too large: " + n);
    }
  }

  /** An optional segment left out: null or MemorySegment.NULL. */
  static boolean isAbsent(java.lang.foreign.MemorySegment s) {
    return s == null || (s.isNative() && s.address() == 0);
  }
}
