package org.wixlib.cli.verify;

import java.util.SplittableRandom;
import org.wixlib.cli.KeySpace;
import org.wixlib.cli.KeySpace64;

/**
 * What differs between a 32- and a 64-bit run. The checker holds keys and values as longs either way;
 * at 32 bits they are ints sign-extended, so the reserved keys -1 / -2 are the same longs at both widths.
 */
abstract sealed class KeyWidth {
  /** A value no run generates (not an int sign-extended, skipped at 64 bits): the oracle's "absent". */
  static final long NO_VALUE = 0x8000_0000_0000_0001L;

  /** The width of a run over keyRange keys of the seeded key space. */
  static KeyWidth of(int bits, long seed, long keyRange) {
    return switch (bits) {
      case 32 -> new Bits32(seed, keyRange);
      case 64 -> new Bits64(seed, keyRange);
      default -> throw new IllegalArgumentException("key bits must be 32 or 64, got " + bits);
    };
  }

  abstract int bits();

  /** The key of index i of the run's key space (distinct per index, never reserved). */
  abstract long key(long i);

  /** The index of key in the run's key space, or -1 when the space does not hold it. */
  abstract long index(long key);

  /** A random value of this width, never {@link #NO_VALUE}. */
  abstract long randomValue(SplittableRandom rnd);

  /** A seeded bijection of n >= 0 (within this width): distinct counters give distinct values, never {@link #NO_VALUE}. */
  abstract long uniqueValue(long n);

  /** find's not-found value when reading keys back; a key that holds it is resolved by contains. */
  abstract long probe();

  static final class Bits32 extends KeyWidth {
    private final KeySpace space;
    private final int seed;

    Bits32(long seed, long keyRange) {
      this.space = new KeySpace(seed, keyRange);
      this.seed = (int) seed;
    }

    @Override
    int bits() {
      return 32;
    }

    @Override
    long key(long i) {
      return space.key(i);
    }

    @Override
    long index(long key) {
      return key == (int) key ? space.index((int) key) : -1;
    }

    @Override
    long randomValue(SplittableRandom rnd) {
      return rnd.nextInt();
    }

    @Override
    long uniqueValue(long n) {
      return KeySpace.mix((int) n ^ seed);
    }

    @Override
    long probe() {
      return 0x9E3779B9;
    }
  }

  static final class Bits64 extends KeyWidth {
    private final KeySpace64 space;
    private final long seed;

    Bits64(long seed, long keyRange) {
      this.space = new KeySpace64(seed, keyRange);
      this.seed = seed;
    }

    @Override
    int bits() {
      return 64;
    }

    @Override
    long key(long i) {
      return space.key(i);
    }

    @Override
    long index(long key) {
      return space.index(key);
    }

    @Override
    long randomValue(SplittableRandom rnd) {
      long v = rnd.nextLong();
      return v == NO_VALUE ? 0 : v;
    }

    @Override
    long uniqueValue(long n) {
      long v = KeySpace64.mix(n ^ seed);
      // The one counter whose value is NO_VALUE takes that of -1, which no counter reaches.
      return v == NO_VALUE ? KeySpace64.mix(-1 ^ seed) : v;
    }

    @Override
    long probe() {
      return 0x9E3779B97F4A7C15L;
    }
  }
}
