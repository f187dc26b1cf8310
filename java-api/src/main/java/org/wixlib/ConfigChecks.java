package org.wixlib;

/** The argument checks that table, join and buffer builders share; each returns its argument. */
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
}
