package org.wixlib.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import org.wixlib.NativeLibraryException;

/**
 * Finds and loads libwixlib.so, once per JVM, then checks that it is the build this jar was made
 * with.
 *
 * <p>Order: (1) the system property {@code wixlib.library.path} (a file); (2) the library packed in
 * the jar at {@code /native/<platform>/libwixlib.so}, extracted into a directory of this user
 * ({@link PrivateDirectory}: {@code -Dwixlib.native.workdir}, {@code $XDG_CACHE_HOME/wixlib},
 * {@code ~/.cache/wixlib} or {@code ${java.io.tmpdir}/wixlib-<uid>}, mode 700, owner checked) as
 * {@code libwixlib-<content hash>.so} (temporary file, atomic rename; hashed again before loading);
 * (3) {@code System.loadLibrary("wixlib")} (java.library.path / LD_LIBRARY_PATH). Then the
 * library's build id ({@code wx_version_string()}: version and a hash of the native sources) must
 * equal the one packed in the jar. The generated bindings look symbols up with
 * {@code SymbolLookup.loaderLookup()}, which sees the library once this class (same class loader)
 * has loaded it.
 */
public final class NativeLoader {
  /** System property naming the library file to load instead of the packed one. */
  public static final String PATH_PROPERTY = "wixlib.library.path";
  /** System property naming the directory the packed library is extracted into. */
  public static final String WORKDIR_PROPERTY = PrivateDirectory.PROPERTY;
  static final String LIBRARY_FILE = "libwixlib.so";
  static final String BUILD_ID_RESOURCE = "/org/wixlib/wixlib-build-id.txt";

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
        String from = loadLibrary();
        checkVersion(Native.rawVersion(), javaApiVersion());
        checkBuildId(Native.rawVersionString(), jarBuildId(), from);
        loadedFrom = from;
        loaded = true;
      } catch (NativeLibraryException e) {
        failure = e;
        throw e;
      } catch (RuntimeException | LinkageError e) {
        failure = isNativeAccessDenied(e) ? nativeAccessDenied(e)
            : new NativeLibraryException("wixlib: loading the native library failed: " + e, e);
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

  /** The version of this jar (Maven project version), e.g. "0.1.0-SNAPSHOT". */
  public static String javaApiVersion() {
    return resourceLine("/org/wixlib/wixlib-java-api.properties", "version");
  }

  /** The build id packed in this jar: the one libwixlib.so must report. */
  public static String jarBuildId() {
    return resourceLine(BUILD_ID_RESOURCE, null);
  }

  /** A property of a properties resource, or (key null) the first line of a text resource. */
  private static String resourceLine(String resource, String key) {
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new NativeLibraryException("wixlib: " + resource + " is missing from the jar (build it with Maven)");
      }
      String v;
      if (key == null) {
        v = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("");
      } else {
        Properties p = new Properties();
        p.load(in);
        v = p.getProperty(key, "");
      }
      v = v.trim();
      if (v.isEmpty() || v.startsWith("$")) {
        throw new NativeLibraryException("wixlib: " + resource + " in the jar is not filled in: '" + v + "'");
      }
      return v;
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read " + resource + " from the jar: " + e.getMessage(), e);
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
      Path file = Extraction.extract(packed, PrivateDirectory.forThisUser());
      Extraction.verify(file, Extraction.sha256(packed));
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
      String hint = e.getMessage() != null && e.getMessage().contains("failed to map segment")
          ? " (is its directory on a noexec mount? set -D" + WORKDIR_PROPERTY + " to another directory)" : "";
      throw new NativeLibraryException("wixlib: cannot load native library " + abs + " (from " + origin
          + "): " + e.getMessage() + hint, e);
    }
  }

  private static byte[] readResource(String resource) {
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read " + resource + " from the jar: " + e.getMessage(), e);
    }
  }

  /**
   * Throws unless the library's build id equals the jar's: a jar runs only with the libwixlib.so
   * built from the same sources (the C structures and rules it was written against).
   */
  static void checkBuildId(String nativeId, String jarId, String from) {
    if (!nativeId.equals(jarId)) {
      throw new NativeLibraryException("wixlib: the native library " + from + " is build " + nativeId
          + ", but this jar was built with " + jarId + ": the jar and libwixlib.so must come from the same"
          + " build. Rebuild both (mvn install), or point -D" + PATH_PROPERTY
          + " at the libwixlib.so built with this jar.");
    }
  }

  /** The flag that grants native access to this code: its module's name, or ALL-UNNAMED on the class path. */
  public static String nativeAccessFlag() {
    Module m = NativeLoader.class.getModule();
    return "--enable-native-access=" + (m.isNamed() ? m.getName() : "ALL-UNNAMED");
  }

  private static boolean isNativeAccessDenied(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IllegalCallerException) {
        return true;
      }
    }
    return false;
  }

  static NativeLibraryException nativeAccessDenied(Throwable e) {
    return new NativeLibraryException("wixlib: native access is denied to " + (NativeLoader.class.getModule().isNamed()
        ? "module " + NativeLoader.class.getModule().getName() : "the class path") + ": run java with "
        + nativeAccessFlag() + " (on the class path --enable-native-access=ALL-UNNAMED, on the module path"
        + " --enable-native-access=org.wixlib), or put 'Enable-Native-Access: ALL-UNNAMED' in the manifest"
        + " of an executable jar (" + e + ")", e);
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

  /** The native encoding of a version string: {@code (major << 16) | (minor << 8) | patch}. */
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
