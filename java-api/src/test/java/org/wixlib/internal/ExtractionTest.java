package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.NativeLibraryException;

class ExtractionTest {

  @Test
  void theFileIsNamedByItsContentAndReadableByItsOwnerOnly(@TempDir Path dir) throws Exception {
    byte[] lib = "pretend library bytes".getBytes(StandardCharsets.UTF_8);
    Path first = Extraction.extract(lib, dir);
    assertEquals(dir, first.getParent());
    assertEquals("libwixlib-" + Extraction.sha256(lib).substring(0, 16) + ".so", first.getFileName().toString());
    assertArrayEquals(lib, Files.readAllBytes(first));
    for (PosixFilePermission p : Files.getPosixFilePermissions(first)) {
      assertTrue(p.name().startsWith("OWNER"), "only the owner may touch it: " + p);
    }
    Path other = Extraction.extract("other".getBytes(StandardCharsets.UTF_8), dir);
    assertNotEquals(first, other, "another build gets another file");
  }

  @Test
  void aDamagedCopyIsReplaced(@TempDir Path dir) throws Exception {
    byte[] lib = "pretend library bytes".getBytes(StandardCharsets.UTF_8);
    Path first = Extraction.extract(lib, dir);
    Files.writeString(first, "damaged");
    assertEquals(first, Extraction.extract(lib, dir));
    assertArrayEquals(lib, Files.readAllBytes(first));
  }

  @Test
  void verifyRefusesAFileChangedAfterWriting(@TempDir Path dir) throws Exception {
    byte[] lib = "pretend library bytes".getBytes(StandardCharsets.UTF_8);
    String hash = Extraction.sha256(lib);
    Path file = Extraction.extract(lib, dir);
    assertDoesNotThrow(() -> Extraction.verify(file, hash));
    Files.writeString(file, "swapped");
    NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> Extraction.verify(file, hash));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("not loading it"), e.getMessage());
    // A link in its place is refused too, even to the right content.
    Path real = Files.write(dir.resolve("real.so"), lib);
    Files.delete(file);
    Files.createSymbolicLink(file, real);
    assertThrows(NativeLibraryException.class, () -> Extraction.verify(file, hash));
  }

  @Test
  void concurrentCallersShareOneFileAndLeaveNoTemporaryFiles(@TempDir Path dir) throws Exception {
    byte[] big = new byte[4 << 20];
    new Random(1).nextBytes(big);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Path>> fs = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        fs.add(pool.submit(() -> Extraction.extract(big, dir)));
      }
      Path p = fs.get(0).get();
      for (Future<Path> f : fs) {
        assertEquals(p, f.get());
      }
      assertArrayEquals(big, Files.readAllBytes(p));
      try (Stream<Path> s = Files.list(dir)) {
        assertEquals(List.of(p), s.toList(), "no temporary files left behind");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
