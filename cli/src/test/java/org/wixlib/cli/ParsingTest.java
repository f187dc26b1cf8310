package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.wixlib.TableKind;
import org.wixlib.cli.bench.Mix;
import org.wixlib.cli.bench.Throughput;
import picocli.CommandLine.TypeConversionException;

class ParsingTest {
  @Test
  void countsInEveryNotation() {
    assertEquals(1_000_000L, CountConverter.parse("1000000"));
    assertEquals(1_000_000L, CountConverter.parse("1_000_000"));
    assertEquals(1L << 24, CountConverter.parse("2^24"));
    assertEquals(1L, CountConverter.parse("2^0"));
    assertEquals(16_000_000L, CountConverter.parse("16M"));
    assertEquals(16_000_000L, CountConverter.parse("16m"));
    assertEquals(16L << 20, CountConverter.parse("16Mi"));
    assertEquals(4096L, CountConverter.parse("4Ki"));
    assertEquals(2_000L, CountConverter.parse("2k"));
    assertEquals(3_000_000_000L, CountConverter.parse("3G"));
    assertEquals(1L << 30, CountConverter.parse("1Gi"));
    assertEquals(1_000_000L, CountConverter.parse("1e6"));
    assertEquals(1_500_000L, CountConverter.parse("1.5M"));
    assertEquals(0L, CountConverter.parse("0"));
  }

  @Test
  void badCountsAreRejected() {
    for (String bad : new String[] {"", "abc", "-5", "2^", "^3", "1.5", "16X", "2^-1", "99999999999999999999",
        "2^64", "M"}) {
      assertThrows(TypeConversionException.class, () -> CountConverter.parse(bad), bad);
    }
  }

  @Test
  void mixes() {
    Mix.Converter c = new Mix.Converter();
    assertEquals(new Mix(20, 20, 60), c.convert("20,20,60"));
    assertEquals(new Mix(40, 40, 20), c.convert("40/40/20"));
    assertEquals("20/20/60", c.convert(" 20, 20, 60 ").toString());
    for (String bad : new String[] {"20,20", "20,20,50", "a,b,c", "-10,50,60", "10,10,10,70"}) {
      assertThrows(TypeConversionException.class, () -> c.convert(bad), bad);
    }
  }

  @Test
  void kinds() {
    KindConverter c = new KindConverter();
    assertEquals(TableKind.CPU, c.convert("cpu"));
    assertEquals(TableKind.GLHT, c.convert("GLHT"));
    assertEquals(TableKind.HIVE, c.convert("Hive"));
    assertThrows(TypeConversionException.class, () -> c.convert("cuckoo"));
  }

  @Test
  void keySpaceGivesDistinctKeysAndNeverReservedOnes() {
    for (long seed : new long[] {0, 1, 42, -7}) {
      KeySpace s = new KeySpace(seed, 200_000);
      Set<Integer> seen = new HashSet<>();
      for (long i = 0; i < s.size(); i++) {
        int k = s.key(i);
        assertFalse(KeySpace.isReserved(k), "reserved key at " + i);
        assertTrue(seen.add(k), "duplicate key at " + i);
      }
    }
  }

  @Test
  void keySpaceReplacesIndicesThatMapToReservedKeys() {
    for (int reserved : new int[] {-1, -2}) {
      KeySpace probe = new KeySpace(3, 0);
      // The one index whose raw key is the reserved one (inverting the bijection).
      long u = Integer.toUnsignedLong(unmix(unmix(reserved) ^ probe.s2) - probe.s1);
      assertEquals(reserved, probe.raw(u));
      if (u + 2 >= KeySpace.MAX_SIZE) {
        continue;
      }
      KeySpace s = new KeySpace(3, u + 1);
      int k = s.key(u);
      assertFalse(KeySpace.isReserved(k));
      // Its replacement comes from an index at or above the size, which key() never hands out.
      boolean fromSpare = false;
      for (long spare = u + 1; spare < u + 5; spare++) {
        fromSpare |= s.raw(spare) == k;
      }
      assertTrue(fromSpare);
      assertEquals(u, s.index(k), "index() maps the spare back");
      assertEquals(-1, s.index(reserved));
      for (long i = Math.max(0, u - 1000); i < u; i++) {
        assertTrue(s.key(i) != k);
      }
    }
  }

  @Test
  void keySpaceIndexInvertsKey() {
    KeySpace s = new KeySpace(17, 100_000);
    for (long i = 0; i < s.size(); i++) {
      assertEquals(i, s.index(s.key(i)));
    }
    KeySpace larger = new KeySpace(17, 200_000);
    for (long i = 100_000; i < 200_000; i += 997) {
      assertEquals(-1, s.index(larger.key(i)), "a key of an index beyond the size");
    }
    for (int x = -5000; x < 5000; x++) {
      assertEquals(x, KeySpace.unmix(KeySpace.mix(x)));
      assertEquals(x * 7919, KeySpace.unmix(KeySpace.mix(x * 7919)));
    }
  }

  /** Inverse of KeySpace.mix (written independently of KeySpace.unmix). */
  static int unmix(int x) {
    x = unshift(x, 16);
    x *= inverse(0x846ca68b);
    x = unshift(x, 15);
    x *= inverse(0x7feb352d);
    return unshift(x, 16);
  }

  private static int unshift(int y, int s) {
    int x = y;
    for (int i = 0; i < 32 / s + 1; i++) {
      x = y ^ (x >>> s);
    }
    return x;
  }

  private static int inverse(int a) {
    int inv = a;
    for (int i = 0; i < 5; i++) {
      inv *= 2 - a * inv;
    }
    return inv;
  }

  @Test
  void keySpaceDependsOnTheSeed() {
    assertTrue(new KeySpace(1, 10).key(0) != new KeySpace(2, 10).key(0)
        || new KeySpace(1, 10).key(1) != new KeySpace(2, 10).key(1));
    assertEquals(new KeySpace(5, 10).key(3), new KeySpace(5, 10).key(3));
  }

  @Test
  void mixIsABijectionOnASample() {
    Set<Integer> seen = new HashSet<>();
    for (int i = -100_000; i < 100_000; i++) {
      assertTrue(seen.add(KeySpace.mix(i)));
    }
  }

  @Test
  void throughputSummary() {
    Throughput t = new Throughput();
    assertEquals(null, t.median());
    t.addNanos(1_000_000, 1_000_000_000L); // 1 M ops/s
    t.addNanos(3_000_000, 1_000_000_000L); // 3
    t.addMillis(2_000_000, 1000.0); // 2
    assertEquals(2.0, t.median(), 1e-9);
    assertEquals(1.0, t.min(), 1e-9);
    assertEquals(3.0, t.max(), 1e-9);
    t.addMillis(5, 0.0); // no kernel time: ignored
    assertEquals(3, t.count());
    t.addNanos(4_000_000, 1_000_000_000L);
    assertEquals(2.5, t.median(), 1e-9);
  }
}
