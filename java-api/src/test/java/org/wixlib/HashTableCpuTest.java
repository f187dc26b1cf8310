package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The facade on the CPU backend: results against java.util.HashMap, growth, whole-table calls. */
class HashTableCpuTest {

  static HashTable cpu(long capacity) {
    return HashTable.builder().kind(TableKind.CPU).capacity(capacity).build();
  }

  @Test
  void roundTripAgainstHashMapWithGrowth() {
    try (HashTable t = cpu(64)) {
      long cap0 = t.capacity();
      RoundTrip rt = new RoundTrip(t, 42, 20_000);
      rt.run(8, 3_000);
      assertTrue(t.capacity() > cap0, "the table must have grown from " + cap0 + " slots");
      assertTrue(t.stats().resizes() > 0, "resizes counted");
    }
  }

  @Test
  void roundTripFullKeyRange() {
    try (HashTable t = cpu(1 << 14)) {
      new RoundTrip(t, 7, 0).run(3, 10_000);
    }
  }

  @Test
  void roundTripWithThreadsSetting() {
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).capacity(1000).threads(1).build()) {
      new RoundTrip(t, 11, 5_000).run(3, 2_000);
    }
  }

  @Test
  void insertWithoutValuesStoresZero() {
    try (HashTable t = cpu(100)) {
      t.insert(new int[] {1, 2, 3}, null);
      assertArrayEquals(new int[] {0, 0, 0}, t.find(new int[] {1, 2, 3}, -5));
      t.insert(new int[] {1, 4}, new int[] {9, 9});
      assertArrayEquals(new int[] {0, 9}, t.find(new int[] {1, 4}, -5), "insert keeps present values");
    }
  }

  @Test
  void emptyBatchesAreNoOps() {
    try (HashTable t = cpu(10)) {
      t.insert(new int[0], new int[0]);
      t.insertOrAssign(new int[0], new int[0], new byte[0]);
      assertEquals(0, t.find(new int[0], 0).length);
      assertEquals(0, t.contains(new int[0]).length);
      t.erase(new int[0]);
      t.batch(new byte[0], new int[0], new int[0], null);
      assertEquals(0, t.size());
      assertEquals(0, t.retrieveAll().size());
    }
  }

  @Test
  void wholeTableCalls() {
    try (HashTable t = cpu(1000)) {
      assertEquals(TableKind.CPU, t.kind());
      int[] keys = new int[500];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = i * 7919;
      }
      t.insert(keys, keys);
      assertEquals(500, t.size());
      double lf = t.loadFactor();
      assertEquals(500.0 / t.capacity(), lf, 1e-9);
      TableStats s = t.stats();
      assertEquals(500, s.size());
      assertEquals(t.capacity(), s.capacity());
      assertTrue(s.bytes() > 0, "bytes");
      t.resize(100_000);
      assertTrue(t.capacity() >= 100_000, "resize grows: " + t.capacity());
      assertArrayEquals(keys, t.find(keys, -5), "contents survive resize");
      InvalidArgumentException below = assertThrows(InvalidArgumentException.class, () -> t.resize(10));
      assertTrue(below.getMessage().contains("500"), below.getMessage());
      t.clear();
      assertEquals(0, t.size());
      assertFalse(t.contains(keys)[0]);
      t.insert(keys, keys);
      assertEquals(500, t.size(), "usable after clear");
    }
  }

  @Test
  void growNeverReportsFullAsResultOrException() {
    try (HashTable t = HashTable.builder().capacity(100).growPolicy(GrowPolicy.NEVER).build()) {
      long slots = t.capacity();
      int n = (int) slots * 4;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      byte[] out = new byte[n];
      t.insert(keys, keys, out); // outcomes given: FULL is a result
      long inserted = 0;
      long full = 0;
      for (byte b : out) {
        if (b == Outcome.INSERTED) {
          inserted++;
        } else if (b == Outcome.FULL) {
          full++;
        } else {
          throw new AssertionError("unexpected outcome " + Outcome.name(b));
        }
      }
      assertTrue(full > 0, "some inserts must be FULL");
      assertEquals(inserted, t.size());
      assertEquals(slots, t.capacity(), "NEVER must not grow");
      assertTrue(t.stats().failedInserts() >= full, "failedInserts counted");
      // Without outcomes: an exception with the count; the table stays usable.
      int[] more = new int[100];
      for (int i = 0; i < more.length; i++) {
        more[i] = 1_000_000 + i;
      }
      TableFullException e = assertThrows(TableFullException.class, () -> t.insert(more, more));
      assertTrue(e.count() > 0 && e.count() <= 100, "count " + e.count());
      assertEquals("FULL", e.statusName());
      assertTrue(e.getMessage().contains(e.count() + " of 100"), e.getMessage());
      int[] found = t.find(keys, -5);
      for (int i = 0; i < n; i++) {
        assertEquals(out[i] == Outcome.INSERTED ? keys[i] : -5, found[i], "key " + keys[i]);
      }
    }
  }

  @Test
  void concurrentCallersOnOneTable() throws Exception {
    try (HashTable t = cpu(1000)) {
      int threads = 4;
      int per = 5_000;
      Thread[] ts = new Thread[threads];
      Throwable[] errors = new Throwable[threads];
      for (int w = 0; w < threads; w++) {
        final int id = w;
        ts[w] = new Thread(() -> {
          try {
            for (int b = 0; b < 10; b++) {
              int[] keys = new int[per / 10];
              for (int i = 0; i < keys.length; i++) {
                keys[i] = id * per + b * keys.length + i;
              }
              t.insert(keys, keys);
              assertArrayEquals(keys, t.find(keys, -5));
            }
          } catch (Throwable e) {
            errors[id] = e;
          }
        });
        ts[w].start();
      }
      for (Thread th : ts) {
        th.join();
      }
      for (Throwable e : errors) {
        if (e != null) {
          throw new AssertionError(e);
        }
      }
      assertEquals((long) threads * per, t.size());
    }
  }

  @Test
  void closeFromAnotherThreadWhileBusy() throws Exception {
    HashTable t = cpu(1 << 16);
    int[] keys = new int[50_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    t.insert(keys, keys);
    Thread[] workers = new Thread[3];
    Throwable[] ended = new Throwable[3];
    for (int w = 0; w < workers.length; w++) {
      final int id = w;
      workers[w] = new Thread(() -> {
        try {
          while (true) {
            int[] got = t.find(keys, -1);
            if (got[keys.length - 1] != keys.length - 1) {
              throw new AssertionError("wrong value while racing close");
            }
          }
        } catch (Throwable e) {
          ended[id] = e;
        }
      });
      workers[w].start();
    }
    Thread.sleep(100);
    t.close();
    for (Thread th : workers) {
      th.join(10_000);
      assertFalse(th.isAlive());
    }
    for (Throwable e : ended) {
      assertNotNull(e);
      assertEquals(IllegalStateException.class, e.getClass(), String.valueOf(e));
    }
    assertTrue(t.isClosed());
  }

  @Test
  void unclosedTablesAreFreedByTheCleaner() throws Exception {
    long before = HashTable.DESTROYED.get();
    for (int i = 0; i < 50; i++) {
      HashTable t = cpu(1 << 12);
      t.insert(new int[] {i}, new int[] {i});
    }
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (HashTable.DESTROYED.get() - before < 50 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(50, HashTable.DESTROYED.get() - before, "unreachable tables destroyed by the cleaner");
    HashTable t = cpu(10);
    t.close();
    t.close();
    assertEquals(51, HashTable.DESTROYED.get() - before, "close() destroys once, however often called");
  }

  @Test
  void randomisedAgainstHashMapManySeeds() {
    for (long seed = 100; seed < 110; seed++) {
      try (HashTable t = cpu(16)) {
        RoundTrip rt = new RoundTrip(t, seed, 300);
        Random r = new Random(seed);
        for (int step = 0; step < 40; step++) {
          int n = 1 + r.nextInt(100);
          switch (r.nextInt(4)) {
            case 0 -> rt.insert(n);
            case 1 -> rt.insertOrAssign(n);
            case 2 -> rt.erase(n);
            default -> rt.batch(n);
          }
          rt.verify(50);
        }
        rt.verifyAll();
      }
    }
  }
}
