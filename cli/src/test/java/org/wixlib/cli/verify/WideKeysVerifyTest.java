package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.wixlib.LongPairs;
import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.cli.Progress;

/**
 * verify at 64 key bits fails a table that loses the high halves of keys or values: keys that differ
 * only in their high half must stay apart, and values must keep all 64 bits, in every phase.
 */
class WideKeysVerifyTest {
  /** Runs of one phase each (64-bit keys). */
  enum Phase {
    DISTINCT(new Verifier.Params(5, 40_000, 1000, 8000, 8, 0.0)),
    HOT(new Verifier.Params(5, 40_000, 1000, 8000, 64, 1.0)),
    ZIPF(new Verifier.Params(6, 40_000, 1000, 8000, 8, 1.0, 0.99, 0));

    final Verifier.Params params;

    Phase(Verifier.Params params) {
      this.params = params.withKeyBits(64);
    }
  }

  /** Forwards to an honest map; subclasses lie. */
  private static class Wrapped implements VerifyTarget {
    final MapTarget real = new MapTarget(64);
    int batches;

    @Override
    public int keyBits() {
      return 64;
    }

    @Override
    public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
      batches++;
      real.batch(ops, keys, values, outcomes);
    }

    @Override
    public void contains(long[] keys, byte[] found) {
      real.contains(keys, found);
    }

    @Override
    public void find(long[] keys, long[] valuesOut, long notFound) {
      real.find(keys, valuesOut, notFound);
    }

    @Override
    public long size() {
      return real.size();
    }

    @Override
    public LongPairs retrieveAll() {
      return real.retrieveAll();
    }

    @Override
    public void resize(long capacity) {}

    @Override
    public void clear() {
      real.clear();
    }
  }

  /**
   * A table that compares keys by their low 32 bits only: the first key seen with a low half stands
   * for every key sharing it (it is the one stored, so retrieveAll shows only keys the run used).
   */
  private static final class LowHalfKeys extends Wrapped {
    final java.util.HashMap<Long, Long> first = new java.util.HashMap<>();
    /** Keys that were taken for another key. */
    final LongOpenHashSet mixedUp = new LongOpenHashSet();

    private long[] map(long[] keys) {
      long[] out = new long[keys.length];
      for (int i = 0; i < keys.length; i++) {
        long low = keys[i] & 0xFFFFFFFFL;
        if (!first.containsKey(low)) {
          first.put(low, keys[i]);
        }
        out[i] = first.get(low);
        if (out[i] != keys[i]) {
          mixedUp.add(keys[i]);
          mixedUp.add(out[i]);
        }
      }
      return out;
    }

    @Override
    public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
      batches++;
      real.batch(ops, map(keys), values, outcomes);
    }

    @Override
    public void contains(long[] keys, byte[] found) {
      real.contains(map(keys), found);
    }

    @Override
    public void find(long[] keys, long[] valuesOut, long notFound) {
      real.find(map(keys), valuesOut, notFound);
    }
  }

  private static Verifier.Result run(Phase phase, VerifyTarget t) {
    return new Verifier(phase.params, "map", Progress.SILENT).run(t);
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void anHonestTablePassesAndTheKeysUseAll64Bits(Phase phase) {
    LongOpenHashSet keys = new LongOpenHashSet();
    Verifier.Result r = run(phase, new Wrapped() {
      @Override
      public void batch(byte[] ops, long[] k, long[] values, byte[] outcomes) {
        super.batch(ops, k, values, outcomes);
        for (long key : k) {
          keys.add(key);
        }
      }
    });
    assertNull(r.mismatch(), () -> String.join("\n", r.mismatch().describe()));
    IntOpenHashSet high = new IntOpenHashSet();
    IntOpenHashSet low = new IntOpenHashSet();
    keys.forEach(k -> {
      high.add((int) (k >>> 32));
      low.add((int) k);
    });
    assertTrue(high.size() > 0.95 * keys.size(), high.size() + " high halves of " + keys.size() + " keys");
    assertTrue(low.size() < keys.size(), "some keys differ only in their high half: " + low.size() + " low halves of "
        + keys.size() + " keys");
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void aTableComparingOnlyTheLowHalfOfKeysFails(Phase phase) {
    LowHalfKeys t = new LowHalfKeys();
    Verifier.Result r = run(phase, t);
    assertNotNull(r.mismatch(), "a table that mixes up keys differing in the high half passed");
    assertTrue(t.mixedUp.contains(r.mismatch().key()), String.join("\n", r.mismatch().describe()));
    System.out.println("low-half keys (" + phase + "): caught at batch " + r.batches() + ": "
        + r.mismatch().problem());
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void aTableStoringTruncatedKeysFails(Phase phase) {
    Verifier.Result r = run(phase, new Wrapped() {
      private long[] low(long[] keys) {
        long[] out = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
          out[i] = (int) keys[i];
        }
        return out;
      }

      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        batches++;
        real.batch(ops, low(keys), values, outcomes);
      }

      @Override
      public void contains(long[] keys, byte[] found) {
        real.contains(low(keys), found);
      }

      @Override
      public void find(long[] keys, long[] valuesOut, long notFound) {
        real.find(low(keys), valuesOut, notFound);
      }
    });
    assertNotNull(r.mismatch());
    assertTrue(r.batches() <= 1, "caught at once: " + r.batches());
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void aTableStoringOnlyTheLowHalfOfValuesFails(Phase phase) {
    Verifier.Result r = run(phase, new Wrapped() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        long[] stored = values.clone();
        for (int i = 0; i < stored.length; i++) {
          stored[i] = (int) stored[i];
        }
        super.batch(ops, keys, stored, outcomes);
        for (int i = 0; i < ops.length; i++) {
          if (ops[i] == Op.FIND) {
            values[i] = outcomes[i] == Outcome.FOUND ? stored[i] : values[i];
          }
        }
      }
    });
    assertNotNull(r.mismatch(), "values cut to their low half passed");
    assertTrue(r.batches() == 1, "caught in the first batch: " + r.batches());
    System.out.println("low-half values (" + phase + "): " + r.mismatch().problem());
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void aFindReturningTheLowHalfOfAValueFails(Phase phase) {
    int[] cutAt = {0};
    Verifier.Result r = run(phase, new Wrapped() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        for (int i = 0; i < ops.length && cutAt[0] == 0; i++) {
          if (ops[i] == Op.FIND && outcomes[i] == Outcome.FOUND && values[i] != (int) values[i]) {
            values[i] = values[i] & 0xFFFFFFFFL;
            cutAt[0] = batches;
          }
        }
      }
    });
    assertNotNull(r.mismatch(), "a found value cut to its low half passed");
    assertTrue(r.mismatch().problem().contains("find returned value"), r.mismatch().problem());
    assertTrue(r.batches() == cutAt[0], "caught in that batch (" + cutAt[0] + "): " + r.batches());
  }
}
