package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
}
