package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  void theLoadedLibraryIsThisJarsBuild() {
    Native.ensureLoaded();
    assertEquals(NativeLoader.encodeVersion(NativeLoader.javaApiVersion()) >> 8, Native.version() >> 8);
    assertEquals(NativeLoader.jarBuildId(), Native.versionString());
    assertTrue(NativeLoader.jarBuildId().matches("\\d+\\.\\d+\\.\\d+\\+[0-9a-f]{12}"), NativeLoader.jarBuildId());
    assertEquals("linux-x86_64", NativeLoader.platform());
  }

  @Test
  void loadingTwiceInOneJvmIsANoOp() {
    NativeLoader.load();
    String from = NativeLoader.loadedFrom();
    NativeLoader.load();
    Native.ensureLoaded();
    assertEquals(from, NativeLoader.loadedFrom());
    assertEquals(NativeLoader.jarBuildId(), Native.versionString());
  }

  @Test
  void theBindingsLookupFindsTheLoadedLibrarysSymbolsOnly() throws IOException {
    assertTrue(NativeLoader.symbols().find("wx_version").isPresent());
    assertTrue(NativeLoader.symbols().find("wx_no_such_function").isEmpty());
    String file = DynamicLinker.fileOf(NativeLoader.symbols().find("wx_version").orElseThrow());
    assertEquals(Path.of(NativeLoader.loadedFrom()).toRealPath().toString(), file, "dladdr names the loaded file");
  }

  @Test
  void aLibraryOfAnotherBuildIsRefusedNamingBothIds() {
    NativeLibraryException e = assertThrows(NativeLibraryException.class,
        () -> NativeLoader.checkBuildId("0.1.0+aaaaaaaaaaaa", "0.1.0+bbbbbbbbbbbb", "/opt/x/libwixlib.so"));
    String m = e.getMessage();
    assertTrue(m.contains("0.1.0+aaaaaaaaaaaa") && m.contains("0.1.0+bbbbbbbbbbbb"), m);
    assertTrue(m.contains("/opt/x/libwixlib.so") && m.contains("same build"), m);
    assertTrue(m.contains(NativeLoader.PATH_PROPERTY), m);
    assertDoesNotThrow(() -> NativeLoader.checkBuildId("0.1.0+aaaaaaaaaaaa", "0.1.0+aaaaaaaaaaaa", "x"));
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
    assertTrue(e.getCause() instanceof IllegalArgumentException, String.valueOf(e.getCause()));
    assertTrue(e.getMessage().toLowerCase().contains("elf"), "the dlopen error is shown: " + e.getMessage());
  }

  // ---- fresh JVMs: the real load path, with and without the override property --------------

  private static FreshJvm.Result probe(String... props) throws Exception {
    List<String> options = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
    options.addAll(List.of(props));
    return probeWith(options);
  }

  /** LoaderProbe in a fresh JVM on the class path, with exactly these JVM options. */
  private static FreshJvm.Result probeWith(List<String> options) throws Exception {
    return FreshJvm.probe(options, FreshJvm.codeSource(NativeLoader.class), Map.of());
  }

  @Test
  void freshJvmExtractsThePackedLibraryOnceAndFindsItsSymbols(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("cache/wixlib");  // missing: the loader creates it, mode 700
    FreshJvm.Result r = probe("-Dwixlib.native.workdir=" + dir);
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("version=" + NativeLoader.jarBuildId() + " found=8"), r.output());
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    Path so;
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> files = s.toList();
      assertEquals(1, files.size(), "one library, no temporary files: " + files);
      so = files.get(0);
    }
    assertTrue(so.getFileName().toString().matches("libwixlib-[0-9a-f]{16}\\.so"), so.toString());
    assertTrue(r.output().contains("from=" + so + " again=" + so), "the second load is a no-op: " + r.output());
    // A second JVM of the same user reuses the file.
    FileTime written = Files.getLastModifiedTime(so);
    FreshJvm.Result again = probe("-Dwixlib.native.workdir=" + dir);
    assertEquals(0, again.code(), again.output());
    assertEquals(written, Files.getLastModifiedTime(so));
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of(so), s.toList());
    }
  }

  @Test
  void freshJvmRefusesAWorkDirOthersCanWrite(@TempDir Path tmp) throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    FreshJvm.Result r = probe("-Dwixlib.native.workdir=" + dir);
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("error=org.wixlib.NativeLibraryException"), r.output());
    assertTrue(r.output().contains(dir.toString()) && r.output().contains("writable by other users"), r.output());
  }

  @Test
  void freshJvmRefusesALibraryOfAnotherBuild(@TempDir Path dir) throws Exception {
    // The packed library with another build id written over its own (same length): what a jar meets
    // when pointed at a libwixlib.so from another build.
    byte[] lib = NativeLoader.class.getResourceAsStream("/native/linux-x86_64/libwixlib.so").readAllBytes();
    String id = NativeLoader.jarBuildId();
    String other = id.substring(0, id.length() - 12) + (id.endsWith("000000000000") ? "111111111111" : "000000000000");
    byte[] from = id.getBytes(StandardCharsets.US_ASCII);
    int at = indexOf(lib, from);
    assertTrue(at >= 0, "the build id is in the library");
    System.arraycopy(other.getBytes(StandardCharsets.US_ASCII), 0, lib, at, from.length);
    Path so = Files.write(dir.resolve("libwixlib.so"), lib);
    FreshJvm.Result r = probe("-Dwixlib.library.path=" + so);
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("error=org.wixlib.NativeLibraryException"), r.output());
    assertTrue(r.output().contains(so.toString()) && r.output().contains(other) && r.output().contains(id),
        r.output());
    assertTrue(r.output().contains("must come from the same build"), r.output());
  }

  @Test
  void freshJvmWithNativeAccessDeniedNamesTheFlag(@TempDir Path dir) throws Exception {
    assumeTrue(Runtime.version().feature() >= 24, "--illegal-native-access exists from Java 24 on");
    FreshJvm.Result r = probeWith(List.of("--illegal-native-access=deny", "-Dwixlib.native.workdir=" + dir));
    // The first class to touch the bindings fails to initialize, with this as its cause.
    assertNotEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("org.wixlib.NativeLibraryException: wixlib: native access is denied to the"
        + " class path: run java with --enable-native-access=ALL-UNNAMED"), r.output());
  }

  private static int indexOf(byte[] data, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= data.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (data[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void freshJvmWithOverrideAtAMissingFileFailsClearly(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing/libwixlib.so");
    FreshJvm.Result r = probe("-Dwixlib.library.path=" + missing);
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("error=org.wixlib.NativeLibraryException"), r.output());
    assertTrue(r.output().contains(missing.toString()), r.output());
  }

  @Test
  void freshJvmWithOverrideLoadsThatFile(@TempDir Path dir) throws Exception {
    Path so = Files.write(dir.resolve("libwixlib.so"),
        NativeLoader.class.getResourceAsStream("/native/linux-x86_64/libwixlib.so").readAllBytes());
    FreshJvm.Result r = probe("-Dwixlib.library.path=" + so);
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("from=" + so), r.output());
  }

  // ---- no packed library: java.library.path, then the dynamic linker's search ------------------

  private static Path libraryIn(Path dir) throws Exception {
    Files.createDirectories(dir);
    return Files.write(dir.resolve("libwixlib.so"),
        NativeLoader.class.getResourceAsStream("/native/linux-x86_64/libwixlib.so").readAllBytes());
  }

  @Test
  void freshJvmWithoutAPackedLibraryUsesJavaLibraryPath(@TempDir Path tmp) throws Exception {
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    Path so = libraryIn(tmp.resolve("lib"));
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED",
        "-Djava.library.path=" + tmp.resolve("empty") + java.io.File.pathSeparator + so.getParent()),
        api.toString(), Map.of());
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("version=" + NativeLoader.jarBuildId() + " found=8"), r.output());
    assertTrue(r.output().contains("from=" + so + " again=" + so), r.output());
  }

  @Test
  void freshJvmWithoutAPackedLibraryAsksTheDynamicLinker(@TempDir Path tmp) throws Exception {
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    Path so = libraryIn(tmp.resolve("lib"));
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED", "-Djava.library.path="),
        api.toString(), Map.of("LD_LIBRARY_PATH", so.getParent().toString()));
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("version=" + NativeLoader.jarBuildId() + " found=8"), r.output());
    assertTrue(r.output().contains("from=" + so.toRealPath()), "dladdr names the file: " + r.output());
  }

  @Test
  void freshJvmWithNoLibraryAnywhereSaysWhereItLooked(@TempDir Path tmp) throws Exception {
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    Path empty = Files.createDirectory(tmp.resolve("empty"));
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED", "-Djava.library.path=" + empty),
        api.toString(), Map.of());
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("error=org.wixlib.NativeLibraryException: wixlib: no native library found"),
        r.output());
    assertTrue(r.output().contains("java.library.path (" + empty + ")"), r.output());
    assertTrue(r.output().contains("libwixlib.so: cannot open shared object file"), "dlerror: " + r.output());
  }
}
