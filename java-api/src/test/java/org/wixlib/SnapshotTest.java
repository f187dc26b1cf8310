package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Snapshots: round trips on every kind, and the file checks (foreign, truncated, corrupt, atomic write). */
class SnapshotTest {
  @TempDir Path dir;

  /** retrieve_all as sorted (key << 32 | value) longs, so two tables compare with one equals. */
  static long[] sortedPairs(HashTable t) {
    Pairs p = t.retrieveAll();
    long[] a = new long[p.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = ((long) p.keys()[i] << 32) | (p.values()[i] & 0xFFFFFFFFL);
    }
    Arrays.sort(a);
    return a;
  }

  /** n distinct random non-reserved keys with random values. */
  static HashTable filled(TableKind kind, int n, long seed) {
    HashTable t = HashTable.builder().kind(kind).capacity(n).build();
    SplittableRandom r = new SplittableRandom(seed);
    int chunk = 1 << 20;
    for (int done = 0; done < n; ) {
      int m = Math.min(chunk, n - done);
      int[] k = new int[m];
      int[] v = new int[m];
      for (int i = 0; i < m; i++) {
        k[i] = (int) (mix(seed + done + i) & 0x7FFFFFFFL); // distinct: mix is a bijection on the low bits' source
        v[i] = r.nextInt();
      }
      t.insert(k, v);
      done += m;
    }
    return t;
  }

  static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    return x ^ (x >>> 29);
  }

  void roundTrip(TableKind kind, int n) throws IOException {
    try (HashTable t = filled(kind, n, 5)) {
      long[] before = sortedPairs(t);
      assertTrue(before.length > n * 0.99, "distinct keys: " + before.length);
      Path f = dir.resolve("t.wxs");
      t.save(f);
      assertEquals(Snapshot.fileSize(before.length), Files.size(f));
      SnapshotHeader h = Snapshot.readHeader(f);
      assertEquals(kind, h.kind());
      assertEquals(before.length, h.count());
      assertEquals(32, h.keyBits());
      try (HashTable u = HashTable.load(f, null)) {
        assertEquals(kind, u.kind());
        assertEquals(before.length, u.size());
        assertArrayEquals(before, sortedPairs(u), "retrieve_all differs after the round trip");
      }
      assertArrayEquals(before, sortedPairs(t), "save must not change the table");
    }
  }

  @Test
  void tenMillionKeysRoundTripOnCpu() throws IOException {
    roundTrip(TableKind.CPU, 10_000_000);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void tenMillionKeysRoundTripOnGpu(TableKind kind) throws IOException {
    GpuAssumptions.requireOrSkip(kind);
    roundTrip(kind, 10_000_000);
  }

  /** n distinct 64-bit keys using both halves (negative ones too) with random 64-bit values. */
  static HashTable filledWide(TableKind kind, int n, long seed) {
    HashTable t = HashTable.builder().kind(kind).keyBits(64).capacity(n).build();
    SplittableRandom r = new SplittableRandom(seed);
    long[] k = new long[n];
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      // distinct: i and its parity decide the high half; never all ones (-1L, -2L)
      k[i] = ((long) i << 32) ^ (mix(seed + i) & 0xFFFFFFFFL) ^ (i % 2 == 0 ? 0 : Long.MIN_VALUE);
      v[i] = r.nextLong();
    }
    t.insert(k, v);
    return t;
  }

  static java.util.Map<Long, Long> wideMap(HashTable t) {
    LongPairs p = t.retrieveAllLong();
    java.util.Map<Long, Long> m = new java.util.HashMap<>();
    for (int i = 0; i < p.size(); i++) {
      m.put(p.keys()[i], p.values()[i]);
    }
    return m;
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void wideTablesRoundTrip(TableKind kind) throws IOException {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    int n = 300_000;
    try (HashTable t = filledWide(kind, n, 9)) {
      java.util.Map<Long, Long> before = wideMap(t);
      assertEquals(n, before.size());
      Path f = dir.resolve("wide.wxs");
      t.save(f);
      assertEquals(Snapshot.fileSize(n, 64), Files.size(f));
      SnapshotHeader h = Snapshot.readHeader(f);
      assertEquals(64, h.keyBits());
      assertEquals(64, h.valueBits());
      assertEquals(n, h.count());
      try (HashTable u = HashTable.load(f, null)) {
        assertEquals(64, u.keyBits());
        assertEquals(kind, u.kind());
        assertEquals(before, wideMap(u));
      }
      // A builder is given the snapshot's width (and capacity), whatever it asked for.
      try (HashTable u = HashTable.load(f, HashTable.builder().kind(TableKind.CPU).keyBits(32))) {
        assertEquals(64, u.keyBits());
        assertEquals(before, wideMap(u));
      }
    }
  }

  @Test
  void wideSnapshotChecksKeys() throws IOException {
    Path f = dir.resolve("w.wxs");
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).keyBits(64).build()) {
      t.insert(new long[] {5L << 40, 7L << 40}, new long[] {1, 2});
      t.save(f);
    }
    byte[] good = Files.readAllBytes(f);
    // key 1 := key 0, checksum fixed: a duplicate, named as Java prints it.
    byte[] b = good.clone();
    System.arraycopy(b, Snapshot.HEADER_BYTES, b, Snapshot.HEADER_BYTES + 8, 8);
    rewriteChecksum(b);
    Files.write(f, b);
    SnapshotFormatException e = assertThrows(SnapshotFormatException.class, () -> HashTable.load(f, null));
    assertTrue(e.getMessage().contains("appears twice"), e.getMessage());
    // key 0 := -1L: the reserved key is refused before any table is made.
    b = good.clone();
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(Snapshot.HEADER_BYTES, -1L);
    rewriteChecksum(b);
    Files.write(f, b);
    assertTrue(loadError(f).contains("reserved key -1 (0xFFFFFFFFFFFFFFFF)"), loadError(f));
  }

  static void rewriteChecksum(byte[] b) {
    java.util.zip.CRC32C c = new java.util.zip.CRC32C();
    c.update(b, 0, b.length - 8);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 8, (int) c.getValue());
  }

  @Test
  void emptyTableRoundTrips() throws IOException {
    Path f = dir.resolve("empty.wxs");
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).build()) {
      t.save(f);
    }
    assertEquals(Snapshot.fileSize(0), Files.size(f));
    try (HashTable u = HashTable.load(f, null)) {
      assertEquals(0, u.size());
    }
  }

  @Test
  void loadIntoAnotherKindAndConfig() throws IOException {
    Path f = dir.resolve("s.wxs");
    try (HashTable t = filled(TableKind.CPU, 5000, 1)) {
      t.save(f);
      try (HashTable u = HashTable.load(f, HashTable.builder().kind(TableKind.CPU).maxLoadFactor(0.5))) {
        assertArrayEquals(sortedPairs(t), sortedPairs(u));
      }
    }
  }

  @Test
  void saveReplacesAtomicallyAndLeavesNoTemporaryFile() throws IOException {
    Path f = dir.resolve("s.wxs");
    Files.writeString(f, "old content");
    try (HashTable t = filled(TableKind.CPU, 1000, 2)) {
      t.save(f);
    }
    assertEquals(1, Snapshot.readHeader(f).version());
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(1, s.count(), "only the snapshot itself");
    }
    try (HashTable t = filled(TableKind.CPU, 10, 2)) {
      Path bad = dir.resolve("missing-dir").resolve("x.wxs");
      java.nio.file.NoSuchFileException e = assertThrows(java.nio.file.NoSuchFileException.class, () -> t.save(bad));
      assertEquals(bad.toString(), e.getFile(), "the path given, not the temporary file");
      assertTrue(e.getReason().contains("missing-dir"), e.getReason());
    }
  }

  @Test
  void saveFailuresNameThePathGiven() {
    Path file = Path.of("out", "t.wxs");
    IOException full = Snapshot.named(new IOException("No space left on device"), file);
    assertEquals("out/t.wxs: No space left on device", full.getMessage());
    IOException denied = Snapshot.named(new java.nio.file.AccessDeniedException("out/.t.wxs.123.tmp"), file);
    assertTrue(denied instanceof java.nio.file.AccessDeniedException);
    assertEquals("out/t.wxs", ((java.nio.file.AccessDeniedException) denied).getFile());
    assertFalse(denied.getMessage().contains(".tmp"), denied.getMessage());
  }

  @Test
  void saveWhileOtherThreadsWriteTakesOneConsistentSnapshot() throws Exception {
    int writers = 8;
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).capacity(1024).build()) {
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
      java.util.List<java.util.concurrent.Future<?>> running = new java.util.ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int id = w;
        running.add(pool.submit(() -> {
          int[] k = new int[64];
          for (int round = 0; !stop.get() && round < 2_000; round++) { // at most 10^6 keys in all
            for (int i = 0; i < k.length; i++) {
              k[i] = (round * k.length + i) * writers + id; // every write adds new keys: the size keeps changing
            }
            t.insert(k, k);
          }
        }));
      }
      try {
        Path f = dir.resolve("busy.wxs");
        for (int i = 0; i < 20; i++) {
          long before = t.size();
          t.save(f);
          long saved = Snapshot.readHeader(f).count();
          assertTrue(saved >= before && saved <= t.size(), "snapshot of " + saved + " pairs, size " + before + " before");
        }
        try (HashTable u = HashTable.load(f, null)) {
          Pairs p = u.retrieveAll();
          for (int i = 0; i < p.size(); i++) {
            assertEquals(p.keys()[i], p.values()[i]);
          }
        }
      } finally {
        stop.set(true);
        for (java.util.concurrent.Future<?> r : running) {
          r.get(); // a writer's failure fails the test
        }
        pool.shutdown();
      }
    }
  }

  Path saved(int n) throws IOException {
    Path f = dir.resolve("good.wxs");
    try (HashTable t = filled(TableKind.CPU, n, 3)) {
      t.save(f);
    }
    return f;
  }

  String loadError(Path f) {
    long destroyed = HashTable.DESTROYED.get();
    SnapshotFormatException e = assertThrows(SnapshotFormatException.class, () -> HashTable.load(f, null).close());
    assertEquals(destroyed, HashTable.DESTROYED.get(), "no table may be created for a bad file");
    return e.getMessage();
  }

  @Test
  void truncatedFileIsRejected() throws IOException {
    Path f = saved(1000);
    byte[] b = Files.readAllBytes(f);
    Files.write(f, Arrays.copyOf(b, b.length - 1));
    assertTrue(loadError(f).contains("truncated"), loadError(f));
    Files.write(f, Arrays.copyOf(b, 20));
    assertTrue(loadError(f).contains("truncated"), loadError(f));
    Files.write(f, new byte[0]);
    assertTrue(loadError(f).contains("truncated"), loadError(f));
  }

  @Test
  void corruptPayloadHeaderAndTrailerAreRejected() throws IOException {
    Path f = saved(1000);
    byte[] good = Files.readAllBytes(f);
    for (int at : new int[] {Snapshot.HEADER_BYTES + 5, good.length - 9, good.length - 6, good.length - 1}) {
      byte[] b = good.clone();
      b[at] ^= 0x10;
      Files.write(f, b);
      assertTrue(loadError(f).contains("corrupt"), at + ": " + loadError(f));
    }
    byte[] b = good.clone();
    b[24] ^= 1; // the count: the header checksum catches it before the size check
    Files.write(f, b);
    assertTrue(loadError(f).contains("header checksum"), loadError(f));
    byte[] longer = Arrays.copyOf(good, good.length + 3);
    Files.write(f, longer);
    assertTrue(loadError(f).contains("after the end"), loadError(f));
  }

  @Test
  void foreignFileAndOtherVersionAreRejected() throws IOException {
    Path f = dir.resolve("foreign.bin");
    Files.writeString(f, "key,value\n1,2\n3,4\n5,6\n7,8\n9,10\n11,12\n13,14\n15,16\n");
    assertTrue(loadError(f).contains("not a wixlib snapshot"), loadError(f));
    Path g = saved(10);
    byte[] b = Files.readAllBytes(g);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    bb.putInt(8, 2);
    java.util.zip.CRC32C c = new java.util.zip.CRC32C();
    c.update(b, 0, 40);
    bb.putInt(40, (int) c.getValue());
    Files.write(g, b);
    assertTrue(loadError(g).contains("version 2 is not supported"), loadError(g));
  }

  @Test
  void duplicateKeysInAFileAreRejectedAndTheTableFreed() throws IOException {
    Path f = saved(2);
    byte[] b = Files.readAllBytes(f);
    System.arraycopy(b, Snapshot.HEADER_BYTES, b, Snapshot.HEADER_BYTES + 4, 4); // key 1 := key 0
    java.util.zip.CRC32C c = new java.util.zip.CRC32C();
    c.update(b, 0, b.length - 8);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 8, (int) c.getValue());
    Files.write(f, b);
    long destroyed = HashTable.DESTROYED.get();
    SnapshotFormatException e = assertThrows(SnapshotFormatException.class, () -> HashTable.load(f, null));
    assertTrue(e.getMessage().contains("appears twice"), e.getMessage());
    assertEquals(destroyed + 1, HashTable.DESTROYED.get(), "the half-loaded table is freed");
    assertFalse(e.getMessage().isEmpty());
  }
}
