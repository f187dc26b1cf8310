package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.wixlib.HashTable;
import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.Pairs;
import org.wixlib.TableKind;
import org.wixlib.cli.Progress;

/** verify's checks catch a table that lies: a real CPU table wrapped to inject one fault at a time. */
class VerifierFaultTest {
  private HashTable table;

  @BeforeEach
  void open() {
    table = HashTable.builder().kind(TableKind.CPU).capacity(256).build();
  }

  @AfterEach
  void close() {
    table.close();
  }

  /** Forwards to the real table; subclasses override one call to lie. */
  private class Faulty implements VerifyTarget {
    final VerifyTarget real = VerifyTarget.of(table);
    int batches;

    @Override
    public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
      real.batch(ops, keys, values, outcomes);
      batches++;
    }

    @Override
    public void contains(int[] keys, byte[] found) {
      real.contains(keys, found);
    }

    @Override
    public int[] find(int[] keys, int notFound) {
      return real.find(keys, notFound);
    }

    @Override
    public long size() {
      return real.size();
    }

    @Override
    public Pairs retrieveAll() {
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

  private static Verifier.Result run(VerifyTarget t, double hotFraction) {
    Verifier.Params p = new Verifier.Params(5, 40_000, 1000, 8000, 8, hotFraction);
    return new Verifier(p, "cpu", Progress.SILENT).run(t);
  }

  @Test
  void anHonestTablePasses() {
    Verifier.Result r = run(new Faulty(), 0.3);
    assertNull(r.mismatch(), () -> String.join("\n", r.mismatch().describe()));
    assertEquals(0, r.mismatches());
    assertEquals(40_000, r.opsChecked());
    assertEquals(40, r.batches());
    assertEquals(0, r.finalSize());
  }

  @Test
  void aWrongOutcomeInADistinctBatchIsCaught() {
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
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

  @Test
  void aWrongFoundValueIsCaught() {
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (batches == 7) {
          for (int i = 0; i < ops.length; i++) {
            if (ops[i] == Op.FIND && outcomes[i] == Outcome.FOUND) {
              values[i] ^= 1;
              return;
            }
          }
        }
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().startsWith("find returned value"), r.mismatch().problem());
  }

  @Test
  void aKeyLostFromTheTableIsCaughtBySizeAndNamed() {
    int[] lost = new int[1];
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (batches == 3) {
          for (int i = 0; i < ops.length; i++) {
            if (outcomes[i] == Outcome.INSERTED) {
              lost[0] = keys[i];
              table.erase(new int[] {keys[i]}); // the table silently drops a key it reported inserted
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

  @Test
  void aDuplicateInRetrieveAllIsCaught() {
    Verifier.Result r = run(new Faulty() {
      @Override
      public Pairs retrieveAll() {
        Pairs p = super.retrieveAll();
        if (p.size() < 2) {
          return p;
        }
        int[] k = Arrays.copyOf(p.keys(), p.size());
        int[] v = Arrays.copyOf(p.values(), p.size());
        k[1] = k[0];
        v[1] = v[0];
        return new Pairs(k, v);
      }
    }, 0.0);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("twice"), r.mismatch().problem());
  }

  @Test
  void aHotKeyInsertedTwiceIsCaught() {
    Verifier.Result r = run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
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

  private static Verifier.Result runZipf(VerifyTarget t, int resizeEvery) {
    Verifier.Params p = new Verifier.Params(6, 40_000, 1000, 8000, 8, 0.5, 0.99, resizeEvery);
    return new Verifier(p, "cpu", Progress.SILENT).run(t);
  }

  @Test
  void zipfAndResizesOnAnHonestTablePass() {
    Verifier.Result r = runZipf(new Faulty(), 3);
    assertNull(r.mismatch(), () -> String.join("\n", r.mismatch().describe()));
    assertEquals(20, r.zipfBatches());
    assertEquals(13, r.resizes(), "every 3rd of 40 batches");
    assertTrue(r.hottestShare() > 0.02, "skewed: " + r.hottestShare());
  }

  @Test
  void aZipfKeyErasedTwiceIsCaught() {
    Verifier.Result r = runZipf(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
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

  @Test
  void aKeyLostByAResizeIsCaught() {
    Verifier.Result r = runZipf(new Faulty() {
      @Override
      public void resize(long capacity) {
        super.resize(capacity);
        Pairs p = real.retrieveAll();
        if (p.size() > 0) {
          table.erase(new int[] {p.keys()[0]}); // the resize "loses" one key
        }
      }
    }, 5);
    assertNotNull(r.mismatch());
    assertTrue(r.mismatch().problem().contains("missing from retrieveAll"), r.mismatch().problem());
    assertEquals(5, r.batches(), "caught at the first resize");
  }

  @Test
  void aStaleSizeIsCaught() {
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
    return Arrays.stream(Fault.values()).flatMap(f -> Arrays.stream(Phase.values()).map(ph -> Arguments.of(f, ph)));
  }

  /**
   * Injects one fault into the real table: after the first batch from phase.fromBatch on that offers
   * a chance (or, in RESIZE, inside the first such resize), remembering the key it broke.
   */
  private class Injector extends Faulty {
    final Fault fault;
    final Phase phase;
    Integer brokenKey;
    String how;
    // The last batch: its keys' states before it, and its elements.
    int[] lastKeys = new int[0];
    byte[] lastPresent;
    int[] lastValue;
    byte[] lastOps;
    int[] lastBatchKeys;
    int[] lastIn;
    byte[] lastOutcomes;

    Injector(Fault fault, Phase phase) {
      this.fault = fault;
      this.phase = phase;
    }

    @Override
    public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
      int[] distinct = Arrays.stream(keys).distinct().toArray();
      byte[] present = new byte[distinct.length];
      real.contains(distinct, present);
      int[] value = real.find(distinct, 0);
      int[] in = values.clone();
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
            int[] now = real.find(new int[] {lastBatchKeys[i]}, 0);
            byte[] here = new byte[1];
            real.contains(new int[] {lastBatchKeys[i]}, here);
            if ((o == Outcome.INSERTED || o == Outcome.ASSIGNED) && here[0] != 0) {
              set(lastBatchKeys[i], ~now[0], "value " + now[0] + " -> " + ~now[0]);
            }
          }
        }
        case LOST_ASSIGN -> lostAssign();
        case DROP_UNTOUCHED -> {
          int key = untouchedKey();
          if (key != -1) {
            table.erase(new int[] {key});
            brokenKey = key;
            how = "dropped";
          }
        }
        case FOREIGN_KEY -> {
          int key = 0x7eadbeef;
          byte[] here = new byte[1];
          real.contains(new int[] {key}, here);
          if (here[0] == 0 && Arrays.stream(lastKeys).noneMatch(k -> k == key)) {
            set(key, 12345, "inserted");
          }
        }
        case CORRUPT_UNTOUCHED -> {
          int key = untouchedKey();
          if (key != -1) {
            int v = real.find(new int[] {key}, 0)[0];
            set(key, ~v, "value " + v + " -> " + ~v);
          }
        }
        default -> throw new AssertionError(fault);
      }
    }

    /** Per key of the last batch: INSERTED/ERASED counts and ASSIGNED elements decide the lost value. */
    private void lostAssign() {
      for (int s = 0; s < lastKeys.length && brokenKey == null; s++) {
        int key = lastKeys[s];
        int inserted = 0;
        int erased = 0;
        int assigned = 0;
        int insertedValue = 0;
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
        int now = real.find(new int[] {key}, 0)[0];
        if (lastPresent[s] == 0 && inserted == 1 && now != insertedValue) {
          // The race: the insert's value store lands after the assign.
          set(key, insertedValue, "race: value " + now + " -> " + insertedValue + " (the INSERTED value)");
        } else if ((phase == Phase.DISTINCT || phase == Phase.RESIZE) && lastPresent[s] != 0 && inserted == 0
            && now != lastValue[s]) {
          set(key, lastValue[s], "revert: value " + now + " -> " + lastValue[s] + " (before the assign)");
        }
      }
    }

    /** A key in the table that the last batch did not touch, or -1. */
    private int untouchedKey() {
      Pairs p = real.retrieveAll();
      for (int i = 0; i < p.size(); i++) {
        int k = p.keys()[i];
        if (Arrays.stream(lastKeys).noneMatch(x -> x == k)) {
          return k;
        }
      }
      return -1;
    }

    private void set(int key, int value, String what) {
      table.insertOrAssign(new int[] {key}, new int[] {value});
      brokenKey = key;
      how = what + " after batch " + batches;
    }
  }

  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("faultsTimesPhases")
  void aStateFaultIsCaughtInEveryPhase(Fault fault, Phase phase) {
    Injector t = new Injector(fault, phase);
    Verifier.Result r = new Verifier(phase.params, "cpu", Progress.SILENT).run(t);
    assertNotNull(t.brokenKey, "the run offered no chance to inject " + fault);
    System.out.println("fault " + fault + " in " + phase + ": key " + t.brokenKey + " " + t.how + " -> "
        + (r.mismatch() == null ? "PASSED verify (missed)" : "caught at batch " + r.batches() + ": "
        + r.mismatch().problem()));
    assertNotNull(r.mismatch(), fault + " in " + phase + " (key " + t.brokenKey + " " + t.how + ") passed verify");
    assertTrue(r.mismatches() > 0);
    assertEquals(t.brokenKey.intValue(), r.mismatch().key(), String.join("\n", r.mismatch().describe()));
  }

  /**
   * A key outside a batch is corrupted and the very next batch assigns it, before any whole-table
   * comparison: the corruption would be overwritten unseen, but the key is read back before the batch
   * that touches it. (A first, honest run with the same seed tells which keys the next batch assigns;
   * the keys and ops verify draws do not depend on the table.)
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("overwritePhases")
  void aCorruptedKeyIsCaughtBeforeTheNextBatchOverwritesIt(Phase phase) {
    java.util.List<int[]> keysOf = new java.util.ArrayList<>();
    java.util.List<byte[]> opsOf = new java.util.ArrayList<>();
    java.util.Set<Integer> comparedAfter = new java.util.HashSet<>();
    new Verifier(phase.params, "cpu", Progress.SILENT).run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
        keysOf.add(keys.clone());
        opsOf.add(ops.clone());
        super.batch(ops, keys, values, outcomes);
      }

      @Override
      public Pairs retrieveAll() {
        comparedAfter.add(batches);
        return super.retrieveAll();
      }
    });
    table.clear();
    int[] broken = {0, -1};
    Verifier.Result r = new Verifier(phase.params, "cpu", Progress.SILENT).run(new Faulty() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
        super.batch(ops, keys, values, outcomes);
        if (broken[1] >= 0 || batches < phase.fromBatch || comparedAfter.contains(batches)
            || batches >= keysOf.size()) {
          return;
        }
        int[] next = keysOf.get(batches);
        byte[] nextOps = opsOf.get(batches);
        for (int i = 0; i < next.length; i++) {
          int k = next[i];
          byte[] here = new byte[1];
          real.contains(new int[] {k}, here);
          if (nextOps[i] == Op.INSERT_OR_ASSIGN && here[0] != 0 && Arrays.stream(keys).noneMatch(x -> x == k)) {
            int v = real.find(new int[] {k}, 0)[0];
            table.insertOrAssign(new int[] {k}, new int[] {~v});
            broken[0] = k;
            broken[1] = batches;
            return;
          }
        }
      }
    });
    assertTrue(broken[1] >= 0, "no batch offered a chance");
    System.out.println("corrupted key " + broken[0] + " after batch " + broken[1] + " (" + phase + ") -> "
        + (r.mismatch() == null ? "PASSED verify (missed)" : "caught at batch " + r.batches() + ": "
        + r.mismatch().problem()));
    assertNotNull(r.mismatch(), "a corruption overwritten by the next batch passed verify");
    assertEquals(broken[0], r.mismatch().key(), String.join("\n", r.mismatch().describe()));
    assertTrue(r.mismatch().problem().contains("while no op touched it"), r.mismatch().problem());
    assertEquals(broken[1] + 1, r.batches(), "caught at the next batch");
  }

  static Stream<Phase> overwritePhases() {
    return Stream.of(Phase.DISTINCT, Phase.ZIPF);
  }

  @Test
  void readTellsAValueEqualToFindsNotFoundValueFromAnAbsentKey() {
    int probe = 0x9E3779B9;
    table.insert(new int[] {1, 2}, new int[] {probe, 5});
    byte[] present = new byte[3];
    int[] value = new int[3];
    Verifier.read(VerifyTarget.of(table), new int[] {1, 2, 3}, present, value);
    assertEquals("[1, 1, 0]", Arrays.toString(present));
    assertEquals(Arrays.toString(new int[] {probe, 5, 0}), Arrays.toString(value));
  }
}
