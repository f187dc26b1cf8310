package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import org.junit.jupiter.api.Test;

/** The 64-bit key space of verify: distinct keys over the whole 64-bit range, never the reserved ones. */
class KeySpace64Test {
  @Test
  void distinctKeysNeverReserved() {
    for (long seed : new long[] {0, 1, 42, -7}) {
      KeySpace64 s = new KeySpace64(seed, 200_000);
      LongOpenHashSet seen = new LongOpenHashSet();
      for (long i = 0; i < s.size(); i++) {
        long k = s.key(i);
        assertFalse(KeySpace64.isReserved(k), "reserved key at " + i);
        assertTrue(seen.add(k), "duplicate key at " + i);
      }
    }
  }

  @Test
  void bothHalvesVaryAndPairsDifferOnlyInTheHighHalf() {
    KeySpace64 s = new KeySpace64(9, 100_000);
    IntOpenHashSet high = new IntOpenHashSet();
    IntOpenHashSet low = new IntOpenHashSet();
    long[] ones = new long[64];
    for (long i = 0; i < s.size(); i++) {
      long k = s.key(i);
      high.add((int) (k >>> 32));
      low.add((int) k);
      for (int b = 0; b < 64; b++) {
        ones[b] += k >>> b & 1;
      }
      if (i % 2 == 1) {
        long partner = s.key(i - 1);
        assertEquals((int) partner, (int) k, "indices " + (i - 1) + ", " + i + " share the low half");
        assertNotEquals(partner >>> 32, k >>> 32);
      }
    }
    assertTrue(high.size() > 99_000, "high halves: " + high.size());
    assertEquals(50_000, low.size(), "one low half per pair");
    for (int b = 0; b < 64; b++) {
      assertTrue(Math.abs(ones[b] - 50_000) < 1500, "bit " + b + " set in " + ones[b] + " of 100000 keys");
    }
  }

  @Test
  void replacesIndicesThatMapToReservedKeys() {
    for (long reserved : new long[] {-1L, -2L}) {
      int tried = 0;
      for (long seed = 0; seed < 64 && tried == 0; seed++) {
        KeySpace64 probe = new KeySpace64(seed, 0);
        // The one index whose raw key is the reserved one (inverting the bijection).
        int lo = (int) reserved;
        int hi = (int) (reserved >>> 32);
        int yLo = ParsingTest.unmix(lo) - probe.a;
        int yHi = ParsingTest.unmix(hi - probe.c) ^ KeySpace.mix(lo + probe.b);
        long u = Long.rotateLeft(((long) yHi << 32) | (yLo & 0xFFFFFFFFL), 1);
        assertEquals(reserved, probe.raw(u));
        if (u < 0 || u + 2 >= KeySpace64.MAX_SIZE) {
          continue; // an index no space of this seed hands out
        }
        tried++;
        KeySpace64 s = new KeySpace64(seed, u + 1);
        long k = s.key(u);
        assertFalse(KeySpace64.isReserved(k));
        boolean fromSpare = false;
        for (long spare = u + 1; spare < u + 5; spare++) {
          fromSpare |= s.raw(spare) == k;
        }
        assertTrue(fromSpare, "the replacement comes from an index at or above the size");
        assertEquals(u, s.index(k), "index() maps the spare back");
        assertEquals(-1, s.index(reserved));
        assertNotEquals(k, s.key(u - 1));
      }
      assertEquals(1, tried, "some seed puts the reserved key's index within a space");
    }
  }

  @Test
  void indexInvertsKey() {
    KeySpace64 s = new KeySpace64(17, 100_000);
    for (long i = 0; i < s.size(); i++) {
      assertEquals(i, s.index(s.key(i)));
    }
    KeySpace64 larger = new KeySpace64(17, 200_000);
    for (long i = 100_000; i < 200_000; i += 997) {
      assertEquals(-1, s.index(larger.key(i)), "a key of an index beyond the size");
    }
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
    for (int t = 0; t < 100_000; t++) {
      long k = rnd.nextLong();
      long i = s.index(k);
      assertTrue(i == -1 || s.key(i) == k);
    }
  }

  @Test
  void dependsOnTheSeed() {
    assertNotEquals(new KeySpace64(1, 10).key(0), new KeySpace64(2, 10).key(0));
    assertEquals(new KeySpace64(5, 10).key(3), new KeySpace64(5, 10).key(3));
  }
}
