package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Join facade on GLHT and Hive against a HashMap join: arrays, device columns, pre-hashed probes
 * (GLHT; Hive reports unsupported). Skipped (visibly) without a GPU.
 */
class JoinGpuTest {

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void arraysAndDeviceColumnsAgainstHashMap(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    Random r = new Random(5);
    int n = 200_000;
    int[] multi = r.ints(n, 0, n / 5).toArray();
    int[] unique = new int[n];
    for (int i = 0; i < n; i++) {
      unique[i] = i * 5 + 2;
    }
    int[] probe = r.ints(2 * n, 0, 5 * n).toArray();
    for (Join.Build b : Join.Build.values()) {
      int[] build = b == Join.Build.UNIQUE ? unique : multi;
      long[] want = JoinCpuTest.oracle(JoinCpuTest.widen(build), JoinCpuTest.widen(probe));
      try (Join j = Join.builder().kind(kind).build(b).build(build)) {
        assertEquals(want.length, j.count(probe));
        assertArrayEquals(want, JoinCpuTest.packed(j.probe(probe)), kind + " " + b);
        assertEquals(probe.length, j.semi(probe).length + j.anti(probe).length);
        try (DeviceBuffer keys = DeviceBuffer.ofInts(0, probe);
            DeviceBuffer pr = DeviceBuffer.allocate(0, 4L * want.length);
            DeviceBuffer br = DeviceBuffer.allocate(0, 4L * want.length);
            DeviceBuffer small = DeviceBuffer.allocate(0, 4)) {
          assertEquals(want.length, j.probe(keys, probe.length, pr, br));
          int[] p = new int[want.length], q = new int[want.length];
          pr.copyTo(p);
          br.copyTo(q);
          assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(p, q)));
          assertEquals(want.length, j.probe(keys, probe.length, small, small)); // too small: count only
          if (kind == TableKind.GLHT) {
            try (DeviceBuffer h = DeviceBuffer.allocate(0, 8L * probe.length)) {
              j.hash(keys, probe.length, h);
              assertEquals(want.length, j.probe(keys, h, probe.length, pr, br));
              pr.copyTo(p);
              br.copyTo(q);
              assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(p, q)));
            }
            assertArrayEquals(want, JoinCpuTest.packed(j.probe(probe, j.hash(probe))));
          } else {
            assertThrows(UnsupportedKindException.class, () -> j.hash(probe));
          }
        }
        try (DeviceBuffer keys = DeviceBuffer.ofInts(0, build); Join d = Join.builder().kind(kind).build(b)
            .build(keys, build.length)) {
          assertArrayEquals(want, JoinCpuTest.packed(d.probe(probe)));
        }
      }
    }
  }
}
