package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * GLHT and Hive through the facade. Skipped (visibly) without a GPU; with WIXLIB_REQUIRE_GPU=1 a
 * missing GPU fails them instead.
 */
class GpuTablesTest {

  static HashTable gpu(TableKind kind, long capacity) {
    GpuAssumptions.requireOrSkip(kind);
    return HashTable.builder().kind(kind).capacity(capacity).build();
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void roundTripAgainstHashMapWithGrowth(TableKind kind) {
    try (HashTable t = gpu(kind, 256)) {
      assertEquals(kind, t.kind());
      long cap0 = t.capacity();
      new RoundTrip(t, 42, 50_000).run(6, 8_000);
      assertTrue(t.capacity() > cap0, "grew from " + cap0);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void largeBatchesFullKeyRange(TableKind kind) {
    try (HashTable t = gpu(kind, 1 << 20)) {
      new RoundTrip(t, 3, 0).run(2, 400_000);
      TableStats s = t.stats();
      assertEquals(t.size(), s.size());
      assertTrue(s.bytes() > 0);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void reservedKeysAndFullOnGpu(TableKind kind) {
    try (HashTable t = HashTable.builder().kind(kindOrSkip(kind)).capacity(1000)
        .growPolicy(GrowPolicy.NEVER).build()) {
      assertEquals(1, assertThrows(InvalidKeyException.class, () -> t.insert(new int[] {1, -1}, new int[] {1, 1}))
          .index());
      assertEquals(1, t.size(), "the other key inserted");
      t.erase(new int[] {1});
      int n = (int) t.capacity() * 2;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      byte[] out = new byte[n];
      t.insert(keys, keys, out);
      long full = 0;
      for (byte b : out) {
        full += b == Outcome.FULL ? 1 : 0;
      }
      assertTrue(full > 0, "NEVER + twice the slots: some FULL");
      assertEquals(n - full, t.size());
      int[] found = t.find(keys, -5);
      for (int i = 0; i < n; i++) {
        assertEquals(out[i] == Outcome.FULL ? -5 : keys[i], found[i], "key " + keys[i]);
      }
    }
  }

  private static TableKind kindOrSkip(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    return kind;
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void deviceBufferOverloads(TableKind kind) {
    try (HashTable t = gpu(kind, 1 << 16)) {
      Random rnd = new Random(9);
      int n = 100_000;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i * 7 + 3;
      }
      int[] values = Oracle.values(rnd, n);
      try (DeviceBuffer dk = DeviceBuffer.ofInts(t.device(), keys);
          DeviceBuffer dv = DeviceBuffer.ofInts(t.device(), values);
          DeviceBuffer dout = DeviceBuffer.allocate(t.device(), n);
          DeviceBuffer dfound = DeviceBuffer.allocate(t.device(), 4L * n)) {
        t.insert(dk, dv, n, dout);
        byte[] out = new byte[n];
        dout.copyTo(out);
        for (byte b : out) {
          assertEquals(Outcome.name(Outcome.INSERTED), Outcome.name(b));
        }
        t.find(dk, dfound, n, -1);
        int[] got = new int[n];
        dfound.copyTo(got);
        assertArrayEquals(values, got);
        t.contains(dk, dout, n);
        dout.copyTo(out);
        for (byte b : out) {
          assertEquals(1, b);
        }
        // batch on device: erase the first half, find the second.
        byte[] ops = new byte[n];
        for (int i = 0; i < n; i++) {
          ops[i] = i < n / 2 ? Op.ERASE : Op.FIND;
        }
        try (DeviceBuffer dops = DeviceBuffer.ofBytes(t.device(), ops);
            DeviceBuffer dbv = DeviceBuffer.ofInts(t.device(), new int[n])) {
          t.batch(dops, dk, dbv, n, dout);
          dout.copyTo(out);
          int[] bv = new int[n];
          dbv.copyTo(bv);
          for (int i = 0; i < n; i++) {
            assertEquals(Outcome.name(i < n / 2 ? Outcome.ERASED : Outcome.FOUND), Outcome.name(out[i]));
            assertEquals(i < n / 2 ? 0 : values[i], bv[i]);
          }
        }
        assertEquals(n - n / 2, t.size());
        t.erase(dk, n, null);
        assertEquals(0, t.size());
        t.insertOrAssign(dk, dv, n, null);
        assertEquals(n, t.size());
        // too small a buffer, closed buffers.
        assertThrows(InvalidArgumentException.class, () -> t.find(dk, dout, n, 0));
        DeviceBuffer closed = DeviceBuffer.allocate(t.device(), 4L * n);
        closed.close();
        assertThrows(IllegalStateException.class, () -> t.find(dk, closed, n, 0));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  @SuppressWarnings("try") // closes the buffer inside its try block on purpose
  void deviceBufferRoundTrip(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    int[] data = Oracle.values(new Random(1), 12345);
    try (DeviceBuffer b = DeviceBuffer.ofInts(0, data)) {
      assertEquals(4L * data.length, b.byteSize());
      assertEquals(0, b.device());
      int[] back = new int[data.length];
      b.copyTo(back);
      assertArrayEquals(data, back);
      byte[] bytes = new byte[100];
      new Random(2).nextBytes(bytes);
      b.copyFrom(bytes);
      byte[] bytesBack = new byte[100];
      b.copyTo(bytesBack);
      assertArrayEquals(bytes, bytesBack);
      try (Arena a = Arena.ofConfined()) {
        MemorySegment host = a.allocate(JAVA_INT, data.length);
        MemorySegment.copy(data, 0, host, JAVA_INT, 0, data.length);
        b.copyFrom(host);
        MemorySegment hostBack = a.allocate(JAVA_INT, data.length);
        b.copyTo(hostBack);
        assertArrayEquals(data, hostBack.toArray(JAVA_INT));
        assertThrows(InvalidArgumentException.class, () -> b.copyFrom(MemorySegment.ofArray(data)));
        assertThrows(InvalidArgumentException.class, () -> b.copyTo(a.allocate(b.byteSize() + 4)));
      }
      assertThrows(InvalidArgumentException.class, () -> b.copyFrom(new int[data.length + 1]));
      b.close();
      b.close();
      assertTrue(b.isClosed());
      assertThrows(IllegalStateException.class, () -> b.copyTo(back));
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void retrieveAllIntoDeviceBuffers(TableKind kind) {
    int n = 20_000;
    int[] keys = new int[n];
    int[] values = Oracle.values(new Random(9), n);
    for (int i = 0; i < n; i++) {
      keys[i] = 3 * i - 6_999; // negatives included; multiples of 3, so never -1 or -2
    }
    try (HashTable t = gpu(kind, n); DeviceBuffer k = DeviceBuffer.allocate(0, 4L * n);
        DeviceBuffer v = DeviceBuffer.allocate(0, 4L * n + 4); DeviceBuffer small = DeviceBuffer.allocate(0, 4L * n - 4)) {
      t.insert(keys, values);
      assertEquals(n, t.retrieveAll(k, v));
      int[] gotK = new int[n];
      int[] gotV = new int[n];
      k.copyTo(gotK);
      v.copyTo(gotV);
      java.util.Map<Integer, Integer> got = new java.util.HashMap<>();
      for (int i = 0; i < n; i++) {
        assertEquals(null, got.put(gotK[i], gotV[i]), "key " + gotK[i] + " twice");
      }
      for (int i = 0; i < n; i++) {
        assertEquals(values[i], got.get(keys[i]).intValue(), "key " + keys[i]);
      }
      assertThrows(InvalidArgumentException.class, () -> t.retrieveAll(small, v), "room for n - 1 pairs");
      assertThrows(NullPointerException.class, () -> t.retrieveAll(k, null));
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void cpuTableRejectsDeviceBuffers(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    try (HashTable t = HashTable.builder().build(); DeviceBuffer k = DeviceBuffer.ofInts(0, new int[] {1})) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> t.insert(k, null, 1, null));
      assertTrue(e.getMessage().contains("CPU table"), e.getMessage());
    }
  }
}
