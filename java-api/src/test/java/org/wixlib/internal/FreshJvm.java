package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Fresh JVMs for the loader tests: {@link LoaderProbe} run the way a user's program starts. */
final class FreshJvm {
  record Result(int code, String output) {}

  private FreshJvm() {}

  /** LoaderProbe on the class path with the API classes from {@code api} and these environment variables. */
  static Result probe(List<String> options, String api, Map<String, String> env) throws Exception {
    List<String> cmd = new ArrayList<>(options);
    // The class path of the probe and the API itself (java.class.path is only the launcher's jar
    // under the JUnit console launcher).
    cmd.add("-cp");
    cmd.add(codeSource(LoaderProbe.class) + File.pathSeparator + api);
    cmd.add(LoaderProbe.class.getName());
    return java(cmd, env);
  }

  /** {@code java} of this JVM's runtime with these arguments and environment variables added. */
  static Result java(List<String> args, Map<String, String> env) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // Options meant for this JVM (e.g. -Dwixlib.library.path in JDK_JAVA_OPTIONS) must not leak in.
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("LD_LIBRARY_PATH");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out);
  }

  static String codeSource(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** A copy of the API classes without /native: the API jar, with no library beside it. */
  static Path apiWithoutLibrary(Path into) throws Exception {
    Path api = Path.of(codeSource(NativeLoader.class));
    assumeTrue(Files.isDirectory(api), "the API classes are a directory here: " + api);
    try (Stream<Path> files = Files.walk(api)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path rel = api.relativize(f);
        if (rel.startsWith("native")) {
          continue;
        }
        Path to = into.resolve(rel.toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    assertTrue(Files.isRegularFile(into.resolve("org/wixlib/HashTable.class")));
    assertTrue(Files.notExists(into.resolve("native")));
    return into;
  }
}
