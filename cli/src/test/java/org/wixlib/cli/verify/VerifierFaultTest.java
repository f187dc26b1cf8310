package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.wixlib.HashTable;
import org.wixlib.LongPairs;
import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.TableKind;
import org.wixlib.cli.Progress;

/**
 * verify's checks catch a table that lies: a real CPU table wrapped to inject one fault at a time, at
 * both key widths. At 64 bits the corrupted values differ only in their high halves, and a foreign key
 * only in the high half of its key from a present one.
 */
class VerifierFaultTest {
  private HashTable table;
  private int bits;

  private void open(int keyBits) {
    bits = keyBits;
    table = HashTable.builder().kind(TableKind.CPU).keyBits(keyBits).capacity(256).build();
  }

  @AfterEach
  void close() {
    if (table != null) {
      table.close();
    }
  }

  /** Forwards to the real table; subclasses override one call to lie. */
  private class Faulty implements VerifyTarget {
    final VerifyTarget real = VerifyTarget.of(table);
    int batches;

    @Override
    public int keyBits() {
      return real.keyBits();
    }

    @Override
    public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
      real.batch(ops, keys, values, outcomes);
      batches++;
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
    public void resize(long capacity) {
      real.resize(capacity);
    }

    @Override
    public void clear() {
      real.clear();
    }
  }

  // ---- the real table, one key at a time, behind the checker's back ------------------------------

  private byte one(byte op, long key, long value) {
    byte[] out = new byte[1];
    VerifyTarget.of(table).batch(new byte[] {op}, new long[] {key}, new long[] {value}, out);
    return out[0];
  }

  private boolean has(long key) {
    byte[] here = new byte[1];
    VerifyTarget.of(table).contains(new long[] {key}, here);
    return here[0] != 0;
  }

  private long get(long key) {
    long[] v = new long[1];
    VerifyTarget.of(table).find(new long[] {key}, v, 0);
    return v[0];
  }

  private void erase(long key) {
    one(Op.ERASE, key, 0);
  }

  private void put(long key, long value) {
    one(Op.INSERT_OR_ASSIGN, key, value);
  }

  /** A wrong value of this width: all bits flipped at 32, one bit of the high half at 64. */
  private long corrupt(long v) {
    return bits == 32 ? ~v : v ^ (1L << 45);
  }

  private Verifier.Result run(VerifyTarget t, double hotFraction) {
    Verifier.Params p = new Verifier.Params(5, 40_000, 1000, 8000, 8, hotFraction).withKeyBits(bits);
    return new Verifier(p, "cpu", Progress.SILENT).run(t);
  }

  private Verifier.Result runZipf(VerifyTarget t, int resizeEvery) {
    Verifier.Params p = new Verifier.Params(6, 40_000, 1000, 8000, 8, 0.5, 0.99, resizeEvery).withKeyBits(bits);
    return new Verifier(p, "cpu", Progress.SILENT).run(t);
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void anHonestTablePasses(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty(), 0.3);
    assertNull(r.mismatch(), () -> String.join("\n", r.mismatch().describe()));
    assertEquals(0, r.mismatches());
    assertEquals(40_000, r.opsChecked());
    assertEquals(40, r.batches());
    assertEquals(0, r.finalSize());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aWrongOutcomeInADistinctBatchIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (batches == 5) {
          for (int i = 0; i < ops.length; i++) {
            if (ops[i] == Op.ERASE && outcomes[i] == Outcome.ERASED) {
              outcomes[i] = Outcome.NOT_FOUND;
              return;
            }
          }
        }
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("expected ERASED, got NOT_FOUND"), r.mismatch().problem());
    assertEquals(5, r.batches(), "the run stops after the failing batch");
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aWrongFoundValueIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (batches == 7) {
          for (int i = 0; i < ops.length; i++) {
            if (ops[i] == Op.FIND && outcomes[i] == Outcome.FOUND) {
              values[i] = corrupt(values[i]);
              return;
            }
          }
        }
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().startsWith("find returned value"), r.mismatch().problem());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aKeyLostFromTheTableIsCaughtBySizeAndNamed(int keyBits) {
    open(keyBits);
    long[] lost = new long[1];
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (batches == 3) {
          for (int i = 0; i < ops.length; i++) {
            if (outcomes[i] == Outcome.INSERTED) {
              lost[0] = keys[i];
              erase(keys[i]); // the table silently drops a key it reported inserted
              return;
            }
          }
        }
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    // Either a later op on the key or the size check / retrieveAll comparison names it.
    assertEquals(lost[0], r.mismatch().key(), String.join("\n", r.mismatch().describe()));
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aDuplicateInRetrieveAllIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty() {
      @Override
      public LongPairs retrieveAll() {
        LongPairs p = super.retrieveAll();
        if (p.size() < 2) {
          return p;
        }
        long[] k = p.keys().clone();
        long[] v = p.values().clone();
        k[1] = k[0];
        v[1] = v[0];
        return new LongPairs(k, v);
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("twice"), r.mismatch().problem());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aHotKeyInsertedTwiceIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        // In the hot-key phase, report a PRESENT insert as INSERTED: two inserts "won".
        if (batches > 30) {
          for (int i = 0; i < ops.length; i++) {
            if (ops[i] == Op.INSERT && outcomes[i] == Outcome.PRESENT) {
              outcomes[i] = Outcome.INSERTED;
              return;
            }
          }
        }
      }
    }, 0.3);
    assertNotNull(r.mismatch());
    assertTrue(String.join("\n", r.mismatch().describe()).contains("hot-key"), r.mismatch().problem());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void zipfAndResizesOnAnHonestTablePass(int keyBits) {
    open(keyBits);
    Verifier.Result r = runZipf(new Faulty(), 3);
    assertNull(r.mismatch(), () -> String.join("\n", r.mismatch().describe()));
    assertEquals(20, r.zipfBatches());
    assertEquals(13, r.resizes(), "every 3rd of 40 batches");
    assertTrue(r.hottestShare() > 0.02, "skewed: " + r.hottestShare());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aZipfKeyErasedTwiceIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = runZipf(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        // In the Zipf phase, report a NOT_FOUND erase as ERASED: two erases "won".
        if (batches > 20) {
          for (int i = 0; i < ops.length; i++) {
            if (ops[i] == Op.ERASE && outcomes[i] == Outcome.NOT_FOUND) {
              outcomes[i] = Outcome.ERASED;
              return;
            }
          }
        }
      }
    }, 0);
    assertNotNull(r.mismatch());
    assertTrue(String.join("\n", r.mismatch().describe()).contains("hot-key"), r.mismatch().problem());
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aKeyLostByAResizeIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = runZipf(new Faulty() {
      @Override
      public void resize(long capacity) {
        super.resize(capacity);
        LongPairs p = real.retrieveAll();
        if (p.size() > 0) {
          erase(p.keys()[0]); // the resize "loses" one key
        }
      }
    }, 5);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("missing from retrieveAll"), r.mismatch().problem());
    assertEquals(5, r.batches(), "caught at the first resize");
  }

  @ParameterizedTest(name = "{0} bits")
  @ValueSource(ints = {32, 64})
  void aStaleSizeIsCaught(int keyBits) {
    open(keyBits);
    Verifier.Result r = run(new Faulty() {
      @Override
      public long size() {
        return super.size() + (batches >= 16 ? 1 : 0);
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("size()"), r.mismatch().problem());
  }

  // ---- state faults in every phase ---------------------------------------------------------------

  /** What the table gets wrong, once. */
  enum Fault {
    /** A key a batch wrote (INSERTED/ASSIGNED) ends with a value nobody wrote. */
    CORRUPT_VALUE,
    /**
     * An assign is lost: the key ends with the value it had before the assign. In a concurrent batch
     * this is the race of an insert that publishes its key before its value, whose late value store
     * overwrites a concurrent assign (absent before, one INSERTED, ASSIGNED, no erase: ends at the
     * INSERTED value); with distinct keys (or across a resize) the assign's key goes back to its value
     * from before the batch.
     */
    LOST_ASSIGN,
    /** A key outside the batch disappears. */
    DROP_UNTOUCHED,
    /** A key nobody inserted appears. */
    FOREIGN_KEY,
    /** A key outside the batch changes its value. */
    CORRUPT_UNTOUCHED
  }

  /** Where the fault happens: in a batch of one phase, or inside a resize between Zipf batches. */
  enum Phase {
    DISTINCT(new Verifier.Params(5, 40_000, 1000, 8000, 8, 0.0), 5),
    HOT(new Verifier.Params(5, 40_000, 1000, 8000, 64, 0.5), 21),
    ZIPF(new Verifier.Params(6, 40_000, 1000, 8000, 8, 0.5, 0.99, 0), 21),
    RESIZE(new Verifier.Params(6, 40_000, 1000, 8000, 8, 0.5, 0.99, 3), 21);

    final Verifier.Params params;
    final int fromBatch;

    Phase(Verifier.Params params, int fromBatch) {
      this.params = params;
      this.fromBatch = fromBatch;
    }
  }

  static Stream<Arguments> faultsTimesPhases() {
    return IntStream.of(32, 64).boxed().flatMap(b -> Arrays.stream(Fault.values())
        .flatMap(f -> Arrays.stream(Phase.values()).map(ph -> Arguments.of(b, f, ph))));
  }

  /**
   * Injects one fault into the real table: after the first batch from phase.fromBatch on that offers
   * a chance (or, in RESIZE, inside the first such resize), remembering the key it broke.
   */
  private class Injector extends Faulty {
    final Fault fault;
    final Phase phase;
    Long brokenKey;
    String how;
    // The last batch: its keys' states before it, and its elements.
    long[] lastKeys = new long[0];
    boolean[] lastPresent;
    long[] lastValue;
    byte[] lastOps;
    long[] lastBatchKeys;
    long[] lastIn;
    byte[] lastOutcomes;

    Injector(Fault fault, Phase phase) {
      this.fault = fault;
      this.phase = phase;
    }

    @Override
    public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
      long[] distinct = Arrays.stream(keys).distinct().toArray();
      boolean[] present = new boolean[distinct.length];
      long[] value = new long[distinct.length];
      for (int s = 0; s < distinct.length; s++) {
        present[s] = has(distinct[s]);
        value[s] = get(distinct[s]);
      }
      long[] in = values.clone();
      super.batch(ops, keys, values, outcomes);
      lastKeys = distinct;
      lastPresent = present;
      lastValue = value;
      lastOps = ops;
      lastBatchKeys = keys;
      lastIn = in;
      lastOutcomes = outcomes;
      if (phase != Phase.RESIZE && brokenKey == null && batches >= phase.fromBatch) {
        inject();
      }
    }

    @Override
    public void resize(long capacity) {
      super.resize(capacity);
      if (phase == Phase.RESIZE && brokenKey == null && batches >= phase.fromBatch) {
        inject();
      }
    }

    private void inject() {
      switch (fault) {
        case CORRUPT_VALUE -> {
          for (int i = 0; i < lastOps.length && brokenKey == null; i++) {
            byte o = lastOutcomes[i];
            long key = lastBatchKeys[i];
            if ((o == Outcome.INSERTED || o == Outcome.ASSIGNED) && has(key)) {
              long now = get(key);
              set(key, corrupt(now), "value " + now + " -> " + corrupt(now));
            }
          }
        }
        case LOST_ASSIGN -> lostAssign();
        case DROP_UNTOUCHED -> {
          long key = untouchedKey();
          if (key != -1) {
            erase(key);
            brokenKey = key;
            how = "dropped";
          }
        }
        case FOREIGN_KEY -> {
          // At 64 bits a present key with one bit of its high half flipped: only the high half tells them apart.
          long near = untouchedKey();
          long key = bits == 32 ? 0x7eadbeef : near ^ (1L << 50);
          if ((bits == 32 || near != -1) && !has(key) && Arrays.stream(lastKeys).noneMatch(k -> k == key)) {
            set(key, 12345, "inserted");
          }
        }
        case CORRUPT_UNTOUCHED -> {
          long key = untouchedKey();
          if (key != -1) {
            long v = get(key);
            set(key, corrupt(v), "value " + v + " -> " + corrupt(v));
          }
        }
        default -> throw new AssertionError(fault);
      }
    }

    /** Per key of the last batch: INSERTED/ERASED counts and ASSIGNED elements decide the lost value. */
    private void lostAssign() {
      for (int s = 0; s < lastKeys.length && brokenKey == null; s++) {
        long key = lastKeys[s];
        int inserted = 0;
        int erased = 0;
        int assigned = 0;
        long insertedValue = 0;
        for (int i = 0; i < lastOps.length; i++) {
          if (lastBatchKeys[i] != key) {
            continue;
          }
          switch (lastOutcomes[i]) {
            case Outcome.INSERTED -> {
              inserted++;
              insertedValue = lastIn[i];
            }
            case Outcome.ERASED -> erased++;
            case Outcome.ASSIGNED -> assigned++;
            default -> { }
          }
        }
        if (assigned == 0 || erased > 0) {
          continue;
        }
        long now = get(key);
        if (!lastPresent[s] && inserted == 1 && now != insertedValue) {
          // The race: the insert's value store lands after the assign.
          set(key, insertedValue, "race: value " + now + " -> " + insertedValue + " (the INSERTED value)");
        } else if ((phase == Phase.DISTINCT || phase == Phase.RESIZE) && lastPresent[s] && inserted == 0
            && now != lastValue[s]) {
          set(key, lastValue[s], "revert: value " + now + " -> " + lastValue[s] + " (before the assign)");
        }
      }
    }

    /** A key in the table that the last batch did not touch, or -1. */
    private long untouchedKey() {
      LongPairs p = real.retrieveAll();
      for (int i = 0; i < p.size(); i++) {
        long k = p.keys()[i];
        if (Arrays.stream(lastKeys).noneMatch(x -> x == k)) {
          return k;
        }
      }
      return -1;
    }

    private void set(long key, long value, String what) {
      put(key, value);
      brokenKey = key;
      how = what + " after batch " + batches;
    }
  }

  @ParameterizedTest(name = "{0} bits: {1} in {2}")
  @MethodSource("faultsTimesPhases")
  void aStateFaultIsCaughtInEveryPhase(int keyBits, Fault fault, Phase phase) {
    open(keyBits);
    Injector t = new Injector(fault, phase);
    Verifier.Result r = new Verifier(phase.params.withKeyBits(keyBits), "cpu", Progress.SILENT).run(t);
    assertNotNull(t.brokenKey, "the run offered no chance to inject " + fault);
    System.out.println(keyBits + " bits: fault " + fault + " in " + phase + ": key " + t.brokenKey + " " + t.how
        + " -> " + (r.mismatch() == null ? "PASSED verify (missed)" : "caught at batch " + r.batches() + ": "
        + r.mismatch().problem()));
    assertNotNull(r.mismatch(), fault + " in " + phase + " (key " + t.brokenKey + " " + t.how + ") passed verify");
    assertTrue(r.mismatches() > 0);
    assertEquals(t.brokenKey.longValue(), r.mismatch().key(), String.join("\n", r.mismatch().describe()));
  }

  /**
   * A key outside a batch is corrupted and the very next batch assigns it, before any whole-table
   * comparison: the corruption would be overwritten unseen, but the key is read back before the batch
   * that touches it. (A first, honest run with the same seed tells which keys the next batch assigns;
   * the keys and ops verify draws do not depend on the table.)
   */
  @ParameterizedTest(name = "{0} bits: {1}")
  @MethodSource("overwritePhases")
  void aCorruptedKeyIsCaughtBeforeTheNextBatchOverwritesIt(int keyBits, Phase phase) {
    open(keyBits);
    Verifier.Params params = phase.params.withKeyBits(keyBits);
    List<long[]> keysOf = new ArrayList<>();
    List<byte[]> opsOf = new ArrayList<>();
    Set<Integer> comparedAfter = new HashSet<>();
    new Verifier(params, "cpu", Progress.SILENT).run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        keysOf.add(keys.clone());
        opsOf.add(ops.clone());
        super.batch(ops, keys, values, outcomes);
      }

      @Override
      public LongPairs retrieveAll() {
        comparedAfter.add(batches);
        return super.retrieveAll();
      }
    });
    table.clear();
    long[] broken = {0, -1};
    Verifier.Result r = new Verifier(params, "cpu", Progress.SILENT).run(new Faulty() {
      @Override
      public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (broken[1] >= 0 || batches < phase.fromBatch || comparedAfter.contains(batches)
            || batches >= keysOf.size()) {
          return;
        }
        long[] next = keysOf.get(batches);
        byte[] nextOps = opsOf.get(batches);
        for (int i = 0; i < next.length; i++) {
          long k = next[i];
          if (nextOps[i] == Op.INSERT_OR_ASSIGN && has(k) && Arrays.stream(keys).noneMatch(x -> x == k)) {
            put(k, corrupt(get(k)));
            broken[0] = k;
            broken[1] = batches;
            return;
          }
        }
      }
    });
    assertTrue(broken[1] >= 0, "no batch offered a chance");
    System.out.println(keyBits + " bits: corrupted key " + broken[0] + " after batch " + broken[1] + " (" + phase
        + ") -> " + (r.mismatch() == null ? "PASSED verify (missed)" : "caught at batch " + r.batches() + ": "
        + r.mismatch().problem()));
    assertNotNull(r.mismatch(), "a corruption overwritten by the next batch passed verify");
    assertEquals(broken[0], r.mismatch().key(), String.join("\n", r.mismatch().describe()));
    assertTrue(r.mismatch().problem().contains("while no op touched it"), r.mismatch().problem());
    assertEquals(broken[1] + 1, r.batches(), "caught at the next batch");
  }

  static Stream<Arguments> overwritePhases() {
    return IntStream.of(32, 64).boxed().flatMap(b -> Stream.of(Phase.DISTINCT, Phase.ZIPF).map(ph -> Arguments.of(b, ph)));
  }

  @Test
  void readTellsAValueEqualToFindsNotFoundValueFromAnAbsentKey() {
    open(32);
    int probe = 0x9E3779B9;
    table.insert(new int[] {1, 2}, new int[] {probe, 5});
    byte[] present = new byte[3];
    long[] value = new long[3];
    try (Shards one = new Shards(1)) {
      Verifier.read(VerifyTarget.of(table), one, new long[] {1, 2, 3}, present, value, probe);
    }
    assertEquals("[1, 1, 0]", Arrays.toString(present));
    assertEquals(Arrays.toString(new long[] {probe, 5}), Arrays.toString(Arrays.copyOf(value, 2)));
  }
}
