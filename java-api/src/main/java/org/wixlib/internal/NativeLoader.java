package org.wixlib.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Properties;
import org.wixlib.NativeLibraryException;

/**
 * Finds and loads libwixlib.so, once per JVM, then checks its version against this jar's.
 *
 * <p>Order: (1) the system property {@code wixlib.library.path} (a file); (2) the library packed in
 * the jar at {@code /native/<platform>/libwixlib.so}, extracted once to
 * {@code ${wixlib.native.workdir:-java.io.tmpdir}/wixlib-<version>-<content hash>/libwixlib.so}
 * (written to a temp file then renamed atomically, so concurrent JVMs are safe); (3)
 * {@code System.loadLibrary("wixlib")} (java.library.path / LD_LIBRARY_PATH). The generated bindings
 * look symbols up with {@code SymbolLookup.loaderLookup()}, which sees the library once this class
 * (same class loader) has loaded it.
 */
public final class NativeLoader {
  /** System property naming the library file to load instead of the packed one. */
  public static final String PATH_PROPERTY = "wixlib.library.path";
  /** System property naming the folder the packed library is extracted into. */
  public static final String WORKDIR_PROPERTY = "wixlib.native.workdir";
  static final String LIBRARY_FILE = "libwixlib.so";

  private static final Object LOCK = new Object();
  private static volatile boolean loaded;
  private static NativeLibraryException failure;
  private static String loadedFrom;

  private NativeLoader() {}

  /** Loads the library if not done yet; throws the same exception on every call after a failure. */
  public static void load() {
    if (loaded) {
      return;
    }
    synchronized (LOCK) {
      if (loaded) {
        return;
      }
      if (failure != null) {
        throw failure;
      }
      try {
        loadedFrom = loadLibrary();
        checkVersion(Native.rawVersion(), javaApiVersion());
        loaded = true;
      } catch (NativeLibraryException e) {
        failure = e;
        throw e;
      } catch (RuntimeException | LinkageError e) {
        failure = new NativeLibraryException("wixlib: loading the native library failed: " + e, e);
        throw failure;
      }
    }
  }

  /** Where the library was loaded from ("system library path" for step 3), or null before load. */
  public static String loadedFrom() {
    synchronized (LOCK) {
      return loadedFrom;
    }
  }

  /** The version of this jar (Maven project version), e.g. "0.1.0". */
  public static String javaApiVersion() {
    try (InputStream in = NativeLoader.class.getResourceAsStream("/org/wixlib/wixlib-java-api.properties")) {
      if (in == null) {
        throw new NativeLibraryException("wixlib: /org/wixlib/wixlib-java-api.properties missing from the jar");
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "").trim();
      if (v.isEmpty() || v.startsWith("$")) {
        throw new NativeLibraryException("wixlib: the jar's version property is not set: '" + v + "'");
      }
      return v;
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read the jar's version: " + e.getMessage(), e);
    }
  }

  /** "linux-x86_64", "linux-aarch64", ...: the folder of the packed library. */
  public static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String o = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "macos"
        : os.startsWith("windows") ? "windows" : os.replace(' ', '_');
    String a = switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch64";
      default -> arch;
    };
    return o + "-" + a;
  }

  private static String loadLibrary() {
    String override = System.getProperty(PATH_PROPERTY);
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override.trim());
      loadFile(p, "system property " + PATH_PROPERTY);
      return p.toAbsolutePath().toString();
    }
    String resource = "/native/" + platform() + "/" + LIBRARY_FILE;
    byte[] packed = readResource(resource);
    if (packed != null) {
      Path file = extract(packed, workDir(), javaApiVersion());
      loadFile(file, "library packed in the jar (" + resource + ")");
      return file.toString();
    }
    try {
      System.loadLibrary("wixlib");
      return "system library path";
    } catch (UnsatisfiedLinkError e) {
      throw new NativeLibraryException("wixlib: no native library found: " + PATH_PROPERTY
          + " is not set, the jar has no " + resource + ", and System.loadLibrary(\"wixlib\") failed ("
          + e.getMessage() + "; java.library.path=" + System.getProperty("java.library.path")
          + "). Build it with 'mvn install' or point -D" + PATH_PROPERTY + " at libwixlib.so.", e);
    }
  }

  /** System.load of one file, with the real loader error in the exception. */
  static void loadFile(Path file, String origin) {
    Path abs = file.toAbsolutePath();
    if (!Files.isRegularFile(abs)) {
      throw new NativeLibraryException("wixlib: native library " + abs + " (from " + origin
          + ") does not exist or is not a file");
    }
    try {
      System.load(abs.toString());
    } catch (UnsatisfiedLinkError e) {
      throw new NativeLibraryException("wixlib: cannot load native library " + abs + " (from " + origin
          + "): " + e.getMessage(), e);
    }
  }

  static Path workDir() {
    String dir = System.getProperty(WORKDIR_PROPERTY);
    if (dir == null || dir.isBlank()) {
      dir = System.getProperty("java.io.tmpdir");
    }
    return Path.of(dir);
  }

  private static byte[] readResource(String resource) {
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read " + resource + " from the jar: " + e.getMessage(), e);
    }
  }

  /**
   * Writes the library to {@code <workDir>/wixlib-<version>-<hash>/libwixlib.so} unless an identical
   * file is there already. A temp file renamed atomically keeps concurrent JVMs from seeing a partial
   * file.
   */
  static Path extract(byte[] library, Path workDir, String version) {
    String hash = sha256(library).substring(0, 16);
    Path dir = workDir.resolve("wixlib-" + version + "-" + hash);
    Path target = dir.resolve(LIBRARY_FILE);
    try {
      if (Files.isRegularFile(target) && Files.size(target) == library.length
          && sha256(Files.readAllBytes(target)).startsWith(hash)) {
        return target;
      }
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, LIBRARY_FILE + ".", ".tmp");
      try {
        Files.write(tmp, library);
        try {
          Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
      return target;
    } catch (IOException | UncheckedIOException e) {
      throw new NativeLibraryException("wixlib: cannot extract the native library to " + target + ": " + e
          + " (set -D" + WORKDIR_PROPERTY + " to a writable folder)", e);
    }
  }

  static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Splits "major.minor.patch[-qualifier]" into {major, minor, patch}; missing parts are 0. */
  public static int[] parseVersion(String version) {
    if (version == null) {
      throw new IllegalArgumentException("version is null");
    }
    String core = version.trim();
    int dash = core.indexOf('-');
    if (dash >= 0) {
      core = core.substring(0, dash);
    }
    String[] parts = core.split("\\.", -1);
    if (parts.length < 1 || parts.length > 3) {
      throw new IllegalArgumentException("not a version: '" + version + "'");
    }
    int[] out = new int[3];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Integer.parseInt(parts[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a version: '" + version + "'");
      }
      if (out[i] < 0 || out[i] > 255) {
        throw new IllegalArgumentException("version part out of range in '" + version + "'");
      }
    }
    return out;
  }

  /** The native encoding of a version string: (major << 16) | (minor << 8) | patch. */
  public static int encodeVersion(String version) {
    int[] v = parseVersion(version);
    return (v[0] << 16) | (v[1] << 8) | v[2];
  }

  /** "major.minor.patch" of the native encoding. */
  public static String formatVersion(int encoded) {
    return ((encoded >>> 16) & 0xFFFF) + "." + ((encoded >>> 8) & 0xFF) + "." + (encoded & 0xFF);
  }

  /** Throws unless the native version's major.minor equal the jar's. */
  public static void checkVersion(int nativeVersion, String javaVersion) {
    int[] j;
    try {
      j = parseVersion(javaVersion);
    } catch (IllegalArgumentException e) {
      throw new NativeLibraryException("wixlib: bad jar version: " + e.getMessage(), e);
    }
    int major = (nativeVersion >>> 16) & 0xFFFF;
    int minor = (nativeVersion >>> 8) & 0xFF;
    if (major != j[0] || minor != j[1]) {
      throw new NativeLibraryException("wixlib: native library version " + formatVersion(nativeVersion)
          + " does not match the Java API version " + javaVersion + " (major.minor must be equal)");
    }
  }
}
