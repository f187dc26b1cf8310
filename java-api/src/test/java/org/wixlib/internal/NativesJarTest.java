package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API jar holds no library; the natives jars (classifier linux-x86_64: GPU and CPU kinds;
 * linux-x86_64-cpu: CPU only) bring it, on the class path and on the module path alike.
 */
class NativesJarTest {
  private static final String PLATFORM = NativeLoader.platform();

  private static byte[] packed(String folder) throws Exception {
    try (InputStream in = NativeLoader.class.getResourceAsStream("/native/" + folder + "/libwixlib.so")) {
      assumeTrue(in != null, "the build packed native/" + folder + "/libwixlib.so beside the classes");
      return in.readAllBytes();
    }
  }

  /** A natives jar as the build makes it: one library and an Automatic-Module-Name. */
  private static Path nativesJar(Path jar, String folder, String module, byte[] library) throws Exception {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(new Attributes.Name("Automatic-Module-Name"), module);
    Files.createDirectories(jar.getParent());
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, m)) {
      out.putNextEntry(new JarEntry("native/"));
      out.putNextEntry(new JarEntry("native/" + folder + "/"));
      out.putNextEntry(new JarEntry("native/" + folder + "/libwixlib.so"));
      out.write(library);
      out.closeEntry();
    }
    return jar;
  }

  /** The name the loader extracts {@code library} to: it names the bytes that were loaded. */
  private static String extractedName(byte[] library) {
    return "libwixlib-" + Extraction.sha256(library).substring(0, 16) + ".so";
  }

  @Test
  void theCpuJarAloneServesTheClassPath(@TempDir Path tmp) throws Exception {
    byte[] cpu = packed(PLATFORM + "-cpu");
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    Path jar = nativesJar(tmp.resolve("jars/natives-cpu.jar"), PLATFORM + "-cpu", PackedLibrary.CPU_MODULE, cpu);
    Path work = tmp.resolve("work");
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED", "-Dwixlib.native.workdir=" + work,
        "-Djava.library.path=" + tmp.resolve("empty")), api + File.pathSeparator + jar, Map.of());
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("from=" + work.resolve(extractedName(cpu))), r.output());
  }

  @Test
  void theFullJarWinsOverTheCpuJar(@TempDir Path tmp) throws Exception {
    byte[] full = packed(PLATFORM);
    byte[] cpu = packed(PLATFORM + "-cpu");
    assumeTrue(!Extraction.sha256(full).equals(Extraction.sha256(cpu)), "this build's two libraries differ");
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    Path cpuJar = nativesJar(tmp.resolve("jars/natives-cpu.jar"), PLATFORM + "-cpu", PackedLibrary.CPU_MODULE, cpu);
    Path fullJar = nativesJar(tmp.resolve("jars/natives.jar"), PLATFORM, PackedLibrary.MODULE, full);
    Path work = tmp.resolve("work");
    // The CPU jar comes first on the class path: the choice is by content, not by order.
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED", "-Dwixlib.native.workdir=" + work),
        api + File.pathSeparator + cpuJar + File.pathSeparator + fullJar, Map.of());
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("from=" + work.resolve(extractedName(full))), r.output());
  }

  @Test
  void onTheModulePathTheFullJarWinsToo(@TempDir Path tmp) throws Exception {
    byte[] full = {1, 2, 3};
    byte[] cpu = {4, 5};
    Path cpuJar = nativesJar(tmp.resolve("jars/natives-cpu.jar"), PLATFORM + "-cpu", PackedLibrary.CPU_MODULE, cpu);
    Path fullJar = nativesJar(tmp.resolve("jars/natives.jar"), PLATFORM, PackedLibrary.MODULE, full);
    List<String> names = PackedLibrary.resources(PLATFORM);
    // Either order on the module path: the GPU library comes first, read from the jar that has it.
    for (String path : List.of(cpuJar + File.pathSeparator + fullJar, fullJar + File.pathSeparator + cpuJar)) {
      PackedLibrary.Found f = PackedLibrary.fromModulePath(path, names);
      assertArrayEquals(full, f.bytes(), path);
      assertTrue(f.origin().endsWith("natives.jar!/" + names.get(0)), f.origin());
    }
    assertArrayEquals(cpu, PackedLibrary.fromModulePath(cpuJar.toString(), names).bytes());
    assertNull(PackedLibrary.fromModulePath(tmp.resolve("jars/none.jar").toString(), names));
  }

  @Test
  void aNativesJarOnTheModulePathNeedsNoAddModules(@TempDir Path tmp) throws Exception {
    byte[] cpu = packed(PLATFORM + "-cpu");
    // org.wixlib as an exploded module with the probe inside (its package is one of the module's).
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    assumeTrue(Files.isRegularFile(api.resolve("module-info.class")), "the API classes are module org.wixlib");
    Path probe = Path.of(FreshJvm.codeSource(LoaderProbe.class)).resolve("org/wixlib/internal/LoaderProbe.class");
    Files.copy(probe, api.resolve("org/wixlib/internal/LoaderProbe.class"));
    Path jar = nativesJar(tmp.resolve("jars/wixlib-natives-cpu.jar"), PLATFORM + "-cpu", PackedLibrary.CPU_MODULE, cpu);
    Path work = tmp.resolve("work");
    FreshJvm.Result r = FreshJvm.java(List.of("--enable-native-access=org.wixlib", "-Dwixlib.native.workdir=" + work,
        "-Djava.library.path=" + tmp.resolve("empty"), "--module-path", api + File.pathSeparator + jar,
        "--module", "org.wixlib/" + LoaderProbe.class.getName()), Map.of());
    assertEquals(0, r.code(), r.output());
    assertTrue(r.output().contains("from=" + work.resolve(extractedName(cpu))), r.output());
  }

  @Test
  void withoutANativesJarTheErrorNamesBoth(@TempDir Path tmp) throws Exception {
    Path api = FreshJvm.apiWithoutLibrary(tmp.resolve("api"));
    FreshJvm.Result r = FreshJvm.probe(List.of("--enable-native-access=ALL-UNNAMED",
        "-Djava.library.path=" + tmp.resolve("empty")), api.toString(), Map.of());
    assertEquals(2, r.code(), r.output());
    assertTrue(r.output().contains("org.wixlib:wixlib-java-api:" + NativeLoader.javaApiVersion() + ":" + PLATFORM
        + " (GPU and CPU kinds) or :" + PLATFORM + "-cpu (CPU kind only)"), r.output());
  }
}
