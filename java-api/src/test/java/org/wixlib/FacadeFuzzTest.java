package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.function.Executable;

/**
 * Randomized call sequences against the facade (the Java side of the fuzzing): each step
 * is a valid call (checked against a HashMap oracle) or a bad one — null arrays, wrong lengths, a
 * reserved key somewhere in the batch, a bad op code, a segment too small, a negative or absurd count,
 * a resize below the size or to an absurd capacity. A bad call must throw its documented exception and
 * change nothing; the table must equal the oracle throughout. Seeds are printed on failure.
 */
class FacadeFuzzTest {
  private static final int STEPS = 1500;
  private static final int UNIVERSE = 5000;

  @Test
  void cpuCallSequences() {
    for (long seed = 1; seed <= 6; seed++) {
      run(TableKind.CPU, seed);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void gpuCallSequences(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    for (long seed = 1; seed <= 3; seed++) {
      run(kind, seed);
    }
  }

  private static void run(TableKind kind, long seed) {
    try {
      new Sequence(kind, seed).run();
    } catch (AssertionError e) {
      throw new AssertionError(kind + " seed " + seed + ": " + e.getMessage(), e);
    }
  }

  private static final class Sequence {
    final SplittableRandom rnd;
    final Map<Integer, Integer> oracle = new HashMap<>();
    final TableKind kind;
    int step;
    int badCalls;

    Sequence(TableKind kind, long seed) {
      this.kind = kind;
      this.rnd = new SplittableRandom(seed);
    }

    void run() {
      try (HashTable t = HashTable.builder().kind(kind).capacity(1 + rnd.nextInt(2000)).build();
          Arena arena = Arena.ofConfined()) {
        for (step = 0; step < STEPS; step++) {
          if (rnd.nextInt(3) == 0) {
            bad(t, arena);
          } else {
            good(t);
          }
          assertEquals(oracle.size(), t.size(), "size after step " + step);
          if (step % 100 == 99) {
            compareAll(t);
          }
        }
        compareAll(t);
        assertTrue(badCalls > STEPS / 5, "bad calls exercised: " + badCalls);
      }
    }

    int[] keys(int n) {
      int[] k = new int[n];
      for (int i = 0; i < n; i++) {
        k[i] = rnd.nextInt(UNIVERSE) * 0x9E3779B1; // spread over the 32-bit range
        if (k[i] == HashTable.EMPTY_KEY || k[i] == HashTable.TOMBSTONE_KEY) {
          k[i] = 12345;
        }
      }
      return k;
    }

    int[] distinctKeys(int n) {
      return Arrays.stream(keys(n)).distinct().toArray();
    }

    int[] values(int n) {
      int[] v = new int[n];
      for (int i = 0; i < n; i++) {
        v[i] = rnd.nextInt();
      }
      return v;
    }

    /** A valid call; outcomes and results checked against the oracle. Keys distinct within a call. */
    void good(HashTable t) {
      int[] k = distinctKeys(rnd.nextInt(200));
      int n = k.length;
      int[] v = values(n);
      byte[] out = new byte[n];
      switch (rnd.nextInt(8)) {
        case 0 -> {
          t.insert(k, v, out);
          for (int i = 0; i < n; i++) {
            boolean was = oracle.containsKey(k[i]);
            assertEquals(was ? Outcome.PRESENT : Outcome.INSERTED, out[i], "insert outcome, step " + step);
            oracle.putIfAbsent(k[i], v[i]);
          }
        }
        case 1 -> {
          t.insertOrAssign(k, v, out);
          for (int i = 0; i < n; i++) {
            assertEquals(oracle.containsKey(k[i]) ? Outcome.ASSIGNED : Outcome.INSERTED, out[i], "upsert, step " + step);
            oracle.put(k[i], v[i]);
          }
        }
        case 2 -> {
          t.erase(k, out);
          for (int i = 0; i < n; i++) {
            assertEquals(oracle.remove(k[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND, out[i], "erase, step " + step);
          }
        }
        case 3 -> {
          int[] got = t.find(k, 0x7EADBEEF);
          boolean[] in = t.contains(k);
          for (int i = 0; i < n; i++) {
            assertEquals(oracle.getOrDefault(k[i], 0x7EADBEEF), got[i], "find, step " + step);
            assertEquals(oracle.containsKey(k[i]), in[i], "contains, step " + step);
          }
        }
        case 4 -> {
          byte[] ops = new byte[n];
          Integer[] before = new Integer[n];
          for (int i = 0; i < n; i++) {
            ops[i] = (byte) rnd.nextInt(4);
            before[i] = oracle.get(k[i]);
          }
          int[] vin = v.clone();
          t.batch(ops, k, v, out);
          for (int i = 0; i < n; i++) {
            Integer b = before[i];
            switch (ops[i]) {
              case Op.INSERT -> {
                assertEquals(b == null ? Outcome.INSERTED : Outcome.PRESENT, out[i]);
                oracle.putIfAbsent(k[i], vin[i]);
              }
              case Op.INSERT_OR_ASSIGN -> {
                assertEquals(b == null ? Outcome.INSERTED : Outcome.ASSIGNED, out[i]);
                oracle.put(k[i], vin[i]);
              }
              case Op.ERASE -> {
                assertEquals(b == null ? Outcome.NOT_FOUND : Outcome.ERASED, out[i]);
                oracle.remove(k[i]);
              }
              default -> {
                assertEquals(b == null ? Outcome.NOT_FOUND : Outcome.FOUND, out[i]);
                assertEquals(b == null ? vin[i] : (int) b, v[i], "batch find value, step " + step);
              }
            }
          }
        }
        case 5 -> {
          long cap = oracle.size() + rnd.nextInt(50_000);
          t.resize(Math.max(cap, 1));
        }
        case 6 -> {
          if (rnd.nextInt(10) == 0) {
            t.clear();
            oracle.clear();
          }
        }
        default -> {
          t.insert(new int[0], new int[0]);
          t.batch(new byte[0], new int[0], new int[0], new byte[0]);
        }
      }
    }

    /** A bad call: it must throw the documented exception and change nothing. */
    void bad(HashTable t, Arena arena) {
      badCalls++;
      int n = 1 + rnd.nextInt(50);
      int[] k = keys(n);
      int[] v = values(n);
      Class<? extends Throwable> expected;
      Executable call;
      switch (rnd.nextInt(9)) {
        case 0 -> {
          expected = NullPointerException.class;
          call = switch (rnd.nextInt(4)) {
            case 0 -> () -> t.insert(null, v);
            case 1 -> () -> t.find(k, null, 0);
            case 2 -> () -> t.batch(new byte[n], k, null, null);
            default -> () -> t.erase((int[]) null);
          };
        }
        case 1 -> {
          expected = InvalidArgumentException.class;
          int m = n + 1 + rnd.nextInt(3);
          call = switch (rnd.nextInt(4)) {
            case 0 -> () -> t.insert(k, new int[m]);
            case 1 -> () -> t.insertOrAssign(k, v, new byte[m]);
            case 2 -> () -> t.contains(k, new byte[n - 1]);
            default -> () -> t.batch(new byte[m], k, v, null);
          };
        }
        case 2 -> {
          reservedKey(t);
          return;
        }
        case 3 -> {
          byte[] ops = new byte[n];
          ops[rnd.nextInt(n)] = (byte) (4 + rnd.nextInt(100));
          expected = InvalidArgumentException.class;
          call = () -> t.batch(ops, k, v, null);
        }
        case 4 -> {
          MemorySegment ks = arena.allocate(ValueLayout.JAVA_INT, n);
          MemorySegment vs = arena.allocate(ValueLayout.JAVA_INT, n);
          expected = InvalidArgumentException.class;
          call = switch (rnd.nextInt(3)) {
            case 0 -> () -> t.insert(ks, vs, n + 1 + rnd.nextInt(1000), null);
            case 1 -> () -> t.find(ks, vs, -1 - rnd.nextInt(1000), 0);
            default -> () -> t.erase(ks, Long.MAX_VALUE - rnd.nextInt(1000), null);
          };
        }
        case 5 -> {
          if (oracle.isEmpty()) {
            badCalls--;
            return;
          }
          expected = InvalidArgumentException.class;
          call = () -> t.resize(rnd.nextInt(oracle.size()));
        }
        case 6 -> {
          // Negative: an argument error. Absurdly large: refused as an argument or as out of memory.
          boolean huge = rnd.nextBoolean();
          expected = huge ? WixlibException.class : InvalidArgumentException.class;
          call = () -> t.resize(huge ? Long.MAX_VALUE : -1 - rnd.nextInt(10));
        }
        case 7 -> {
          expected = InvalidArgumentException.class;
          call = () -> t.retrieveAll(arena.allocate(ValueLayout.JAVA_INT, 1), arena.allocate(ValueLayout.JAVA_INT, 1), -1);
        }
        default -> {
          expected = InvalidArgumentException.class;
          call = () -> t.find(k, new int[n + 1], 0);
        }
      }
      Throwable e = assertThrows(Throwable.class, call, "bad call at step " + step);
      if (!expected.isInstance(e)) {
        fail("step " + step + ": expected " + expected.getSimpleName() + ", got " + e, e);
      }
      if (e instanceof WixlibException w) {
        assertTrue(w.getMessage() != null && !w.getMessage().isEmpty(), "a clear message");
      }
    }

    /**
     * A reserved key among distinct keys: that element is refused (the exception names its index) and
     * the others are applied.
     */
    void reservedKey(HashTable t) {
      int[] k = distinctKeys(1 + rnd.nextInt(50));
      int n = k.length;
      int[] v = values(n);
      int at = rnd.nextInt(n);
      k[at] = rnd.nextBoolean() ? HashTable.EMPTY_KEY : HashTable.TOMBSTONE_KEY;
      int which = rnd.nextInt(3);
      Executable call = switch (which) {
        case 0 -> () -> t.insert(k, v);
        case 1 -> () -> t.insertOrAssign(k, v);
        default -> () -> t.erase(k);
      };
      InvalidKeyException e = assertThrows(InvalidKeyException.class, call, "reserved key at step " + step);
      assertEquals(at, e.index(), "first reserved index, step " + step);
      for (int i = 0; i < n; i++) {
        if (i == at) {
          continue;
        }
        switch (which) {
          case 0 -> oracle.putIfAbsent(k[i], v[i]);
          case 1 -> oracle.put(k[i], v[i]);
          default -> oracle.remove(k[i]);
        }
      }
    }

    void compareAll(HashTable t) {
      Pairs p = t.retrieveAll();
      Map<Integer, Integer> got = new HashMap<>();
      for (int i = 0; i < p.size(); i++) {
        assertEquals(null, got.put(p.keys()[i], p.values()[i]), "key " + p.keys()[i] + " twice, step " + step);
      }
      assertEquals(oracle, got, "retrieveAll differs from the oracle at step " + step);
    }
  }
}
