package org.wixlib;

import org.wixlib.internal.NativeAccess;
import org.wixlib.internal.ffi.wixlib_h;

/**
 * The argument checks that tables, joins, buffers and their builders share. Configuration limits are
 * the C API's (wixlib.h, through the generated bindings): the library checks them again when a table
 * is created, so these only fail earlier, never differently.
 */
final class ConfigChecks {
  static {
    NativeAccess.check();  // before the bindings initialize
  }

  static final double LOAD_FACTOR_MIN = wixlib_h.WX_LOAD_FACTOR_MIN();
  static final double LOAD_FACTOR_MAX = wixlib_h.WX_LOAD_FACTOR_MAX();
  static final long STAGING_CHUNK_MIN = wixlib_h.WX_STAGING_CHUNK_MIN();
  static final long STAGING_CHUNK_MAX = wixlib_h.WX_STAGING_CHUNK_MAX();
  static final int HOT_SHARE_MAX = wixlib_h.WX_HOT_SHARE_MAX();
  static final int MIXED_GROUP_MAX = wixlib_h.WX_MIXED_GROUP_MAX();
  static final int MAX_SHARDS = wixlib_h.WX_MAX_SHARDS();
  static final int MAX_DEVICES = wixlib_h.WX_MAX_DEVICES();

  private ConfigChecks() {}

  /** A CUDA device ordinal. */
  static int device(int device) {
    if (device < 0) {
      throw new InvalidArgumentException("device must be >= 0, got " + device);
    }
    return device;
  }

  /** Shards of a table or join: 1 to WX_MAX_SHARDS. */
  static int shards(int shards) {
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new InvalidArgumentException("shards must be in [1, " + MAX_SHARDS + "], got " + shards);
    }
    return shards;
  }

  /** The devices of a sharded GPU table: 1 to WX_MAX_DEVICES distinct ordinals >= 0; returns a copy. */
  static int[] devices(int[] devices) {
    java.util.Objects.requireNonNull(devices, "devices");
    if (devices.length == 0 || devices.length > MAX_DEVICES) {
      throw new InvalidArgumentException("devices must list 1 to " + MAX_DEVICES + " device ordinals, got "
          + devices.length);
    }
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (int d : devices) {
      if (d < 0) {
        throw new InvalidArgumentException("devices must be >= 0, got " + d);
      }
      if (!seen.add(d)) {
        throw new InvalidArgumentException("devices must be distinct, got " + d + " twice in "
            + java.util.Arrays.toString(devices));
      }
    }
    return devices.clone();
  }

  /** The load factor above which a table grows. */
  static double maxLoadFactor(double f) {
    if (!(f >= LOAD_FACTOR_MIN && f <= LOAD_FACTOR_MAX)) {
      throw new InvalidArgumentException("maxLoadFactor must be in [" + LOAD_FACTOR_MIN + ", "
          + LOAD_FACTOR_MAX + "], got " + f);
    }
    return f;
  }

  /** Elements per chunk when a GPU table stages host arrays. */
  static long stagingChunk(long elements) {
    if (elements < STAGING_CHUNK_MIN || elements > STAGING_CHUNK_MAX) {
      throw new InvalidArgumentException("stagingChunk must be in [" + STAGING_CHUNK_MIN + ", "
          + STAGING_CHUNK_MAX + "], got " + elements);
    }
    return elements;
  }

  /** Percent of distinct keys below which a mixed batch is combined per key. */
  static int hotShare(int percent) {
    if (percent < 0 || percent > HOT_SHARE_MAX) {
      throw new InvalidArgumentException("hotShare must be in [0, " + HOT_SHARE_MAX + "], got " + percent);
    }
    return percent;
  }

  /** GLHT: rounds of 32 ops each warp orders by kind in a mixed batch, 0 = by batch size. */
  static int mixedGroup(int rounds) {
    if (rounds < 0 || rounds > MIXED_GROUP_MAX) {
      throw new InvalidArgumentException("mixedGroup must be in [0, " + MIXED_GROUP_MAX + "], got " + rounds);
    }
    return rounds;
  }

  /** GLHT: smallest insert into an empty table that is bulk-built, 0 = never (unsigned in C). */
  static long buildMin(long keys) {
    if (keys < 0) {
      throw new InvalidArgumentException("buildMin must be >= 0, got " + keys);
    }
    return keys;
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

  /**
   * Throws what the segment itself would throw on access, before native code is asked to use it:
   * IllegalStateException when its arena is closed, WrongThreadException when a confined arena of
   * another thread owns it.
   */
  static void usable(java.lang.foreign.MemorySegment s, String name) {
    if (!s.scope().isAlive()) {
      throw new IllegalStateException(name + ": the segment's arena is closed");
    }
    if (!s.isAccessibleBy(Thread.currentThread())) {
      throw new WrongThreadException(name + ": the segment belongs to a confined arena of another thread");
    }
  }

  /** An optional segment left out: null or MemorySegment.NULL. */
  static boolean isAbsent(java.lang.foreign.MemorySegment s) {
    return s == null || (s.isNative() && s.address() == 0);
  }
}
