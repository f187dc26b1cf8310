package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.NativeLibraryException;

class NativeLoaderTest {

  @Test
  void versionParsing() {
    assertArrayEquals(new int[] {0, 1, 0}, NativeLoader.parseVersion("0.1.0"));
    assertArrayEquals(new int[] {1, 2, 0}, NativeLoader.parseVersion("1.2"));
    assertArrayEquals(new int[] {3, 0, 0}, NativeLoader.parseVersion("3"));
    assertArrayEquals(new int[] {0, 1, 7}, NativeLoader.parseVersion("0.1.7-SNAPSHOT"));
    for (String bad : new String[] {"", "x.y", "1..2", "1.2.3.4", "1.-2", "1.256.0", null}) {
      assertThrows(IllegalArgumentException.class, () -> NativeLoader.parseVersion(bad), String.valueOf(bad));
    }
    assertEquals(0x010203, NativeLoader.encodeVersion("1.2.3"));
    assertEquals("1.2.3", NativeLoader.formatVersion(0x010203));
  }

  @Test
  void versionCheckComparesMajorAndMinor() {
    assertDoesNotThrow(() -> NativeLoader.checkVersion(0x000100, "0.1.0"));
    assertDoesNotThrow(() -> NativeLoader.checkVersion(0x000109, "0.1.0"), "patch may differ");
    assertDoesNotThrow(() -> NativeLoader.checkVersion(0x000100, "0.1.3-SNAPSHOT"));
    NativeLibraryException e = assertThrows(NativeLibraryException.class,
        () -> NativeLoader.checkVersion(0x000200, "0.1.0"));
    assertTrue(e.getMessage().contains("0.2.0") && e.getMessage().contains("0.1.0"), e.getMessage());
    assertThrows(NativeLibraryException.class, () -> NativeLoader.checkVersion(0x010100, "0.1.0"));
    assertThrows(NativeLibraryException.class, () -> NativeLoader.checkVersion(0x000100, "garbage"));
  }

  @Test
  void theLoadedLibraryMatchesThisJar() {
    Native.ensureLoaded();
    assertEquals(NativeLoader.encodeVersion(NativeLoader.javaApiVersion()) >> 8, Native.version() >> 8);
    assertEquals("0.1.0", NativeLoader.javaApiVersion());
    assertEquals("linux-x86_64", NativeLoader.platform());
  }

  @Test
  void missingFileIsAClearError(@TempDir Path dir) {
    Path missing = dir.resolve("nope/libwixlib.so");
    NativeLibraryException e = assertThrows(NativeLibraryException.class,
        () -> NativeLoader.loadFile(missing, "system property wixlib.library.path"));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    assertTrue(e.getMessage().contains("wixlib.library.path"), e.getMessage());
  }

  @Test
  void aFileThatIsNoLibraryShowsTheLoaderError(@TempDir Path dir) throws IOException {
    Path junk = dir.resolve("libwixlib.so");
    Files.writeString(junk, "not an ELF file, just text that is long enough to have a header...");
    NativeLibraryException e = assertThrows(NativeLibraryException.class,
        () -> NativeLoader.loadFile(junk, "test"));
    assertTrue(e.getMessage().contains(junk.toString()), e.getMessage());
    assertTrue(e.getCause() instanceof UnsatisfiedLinkError, String.valueOf(e.getCause()));
    assertTrue(e.getMessage().toLowerCase().contains("elf"), "the dlopen error is shown: " + e.getMessage());
  }

  @Test
  void extractionIsIdempotentAndSafeAcrossConcurrentCallers(@TempDir Path dir) throws Exception {
    byte[] lib = "pretend library bytes".getBytes(StandardCharsets.UTF_8);
    Path first = NativeLoader.extract(lib, dir, "9.9.9");
    assertEquals("libwixlib.so", first.getFileName().toString());
    assertTrue(first.getParent().getFileName().toString()
        .matches("wixlib-9\\.9\\.9-[0-9a-f]{16}"), first.toString());
    assertArrayEquals(lib, Files.readAllBytes(first));
    // A damaged copy is replaced.
    Files.writeString(first, "damaged");
    assertEquals(first, NativeLoader.extract(lib, dir, "9.9.9"));
    assertArrayEquals(lib, Files.readAllBytes(first));
    // Other content: another folder.
    Path other = NativeLoader.extract("other".getBytes(StandardCharsets.UTF_8), dir, "9.9.9");
    assertTrue(!other.getParent().equals(first.getParent()));
    // Many threads at once (same as many JVMs: temp file + atomic rename).
    byte[] big = new byte[4 << 20];
    new java.util.Random(1).nextBytes(big);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Path>> fs = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        fs.add(pool.submit(() -> NativeLoader.extract(big, dir, "9.9.9")));
      }
      Path p = fs.get(0).get();
      for (Future<Path> f : fs) {
        assertEquals(p, f.get());
      }
      assertArrayEquals(big, Files.readAllBytes(p));
      try (Stream<Path> s = Files.list(p.getParent())) {
        assertEquals(List.of(p), s.toList(), "no temp files left behind");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- fresh JVMs: the real load path, with and without the override property --------------

  private static ProcessResult probe(String... props) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(List.of(props));
    // The class path of the probe and the API itself (java.class.path is only the launcher's jar
    // under the JUnit console launcher).
    cmd.add("-cp");
    cmd.add(codeSource(LoaderProbe.class) + java.io.File.pathSeparator + codeSource(NativeLoader.class));
    cmd.add(LoaderProbe.class.getName());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // Options meant for this JVM (e.g. -Dwixlib.library.path in JDK_JAVA_OPTIONS) must not leak in.
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new ProcessResult(p.waitFor(), out);
  }

  private record ProcessResult(int code, String output) {}

  private static String codeSource(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  @Test
  void freshJvmExtractsThePackedLibraryAndFindsItsSymbols(@TempDir Path dir) throws Exception {
    ProcessResult r = probe("-Dwixlib.native.workdir=" + dir);
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("version=0.1.0 found=8"), r.output());
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> dirs = s.toList();
      assertEquals(1, dirs.size(), dirs.toString());
      Path so = dirs.get(0).resolve("libwixlib.so");
      assertTrue(Files.isRegularFile(so), so.toString());
      assertTrue(r.output().contains("from=" + so), r.output());
    }
  }

  @Test
  void freshJvmWithOverrideAtAMissingFileFailsClearly(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing/libwixlib.so");
    ProcessResult r = probe("-Dwixlib.library.path=" + missing);
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("error=org.wixlib.NativeLibraryException"), r.output());
    assertTrue(r.output().contains(missing.toString()), r.output());
  }

  @Test
  void freshJvmWithOverrideLoadsThatFile(@TempDir Path dir) throws Exception {
    Path so = NativeLoader.extract(
        NativeLoader.class.getResourceAsStream("/native/linux-x86_64/libwixlib.so").readAllBytes(),
        dir, "override");
    ProcessResult r = probe("-Dwixlib.library.path=" + so);
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("from=" + so), r.output());
  }
}
