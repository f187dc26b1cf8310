package org.wixlib.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.wixlib.NativeLibraryException;

/**
 * Finds and opens libwixlib.so, once per class loader, then checks that it is the build this jar
 * was made with; gives the generated bindings their symbols ({@link #symbols()}).
 *
 * <p>Order: (1) the system property {@code wixlib.library.path} (a file); (2) the library packed in
 * a natives jar ({@link PackedLibrary}: {@code native/<platform>/libwixlib.so}, else
 * {@code native/<platform>-cpu/libwixlib.so}), extracted into a directory of this user
 * ({@link PrivateDirectory}: {@code -Dwixlib.native.workdir}, {@code $XDG_CACHE_HOME/wixlib},
 * {@code ~/.cache/wixlib} or {@code ${java.io.tmpdir}/wixlib-<uid>}, mode 700, owner checked) as
 * {@code libwixlib-<content hash>.so} (temporary file, atomic rename; hashed again right before it is
 * opened); (3) {@code libwixlib.so} in a directory of {@code java.library.path}, else by name
 * through the dynamic linker's own search ({@code LD_LIBRARY_PATH}, the ld.so cache). Then the
 * library's build id ({@code wx_version_string()}: version and a hash of the native sources) must
 * equal the one packed in the jar.
 *
 * <p>The library is opened with {@link SymbolLookup#libraryLookup(Path, Arena)} in the global arena
 * (dlopen, never closed), not with {@code System.load}: the JDK binds a {@code System.load}-ed
 * library to one class loader and refuses it to every other ("already loaded in another
 * classloader"), while dlopen hands every class loader of the JVM the one copy of the library,
 * counting its users. So wixlib loads in several class loaders of one JVM (application servers,
 * task isolation, reloads); each loader runs these steps and its checks, and all of them reach the
 * same file (same content hash, same name) and the same native state.
 */
public final class NativeLoader {
  /** System property naming the library file to load instead of the packed one. */
  public static final String PATH_PROPERTY = "wixlib.library.path";
  /** System property naming the directory the packed library is extracted into. */
  public static final String WORKDIR_PROPERTY = PrivateDirectory.PROPERTY;
  static final String LIBRARY_FILE = "libwixlib.so";
  static final String BUILD_ID_RESOURCE = "/org/wixlib/wixlib-build-id.txt";
  /** What {@link #loadedFrom()} says when the dynamic linker found the library and cannot tell where. */
  static final String LINKER_SEARCH = "dynamic linker search path";

  private static final Object LOCK = new Object();
  private static volatile boolean loaded;
  private static NativeLibraryException failure;
  private static String loadedFrom;
  /** The opened library: set under LOCK before {@code loaded}, read without it once loaded. */
  private static SymbolLookup library;
  private static final SymbolLookup SYMBOLS = NativeLoader::find;

  private NativeLoader() {}

  /** An opened library and where it came from. */
  private record Opened(SymbolLookup lookup, String from) {}

  /**
   * The lookup the generated bindings find their symbols with (their {@code SYMBOL_LOOKUP};
   * scripts/generate-bindings.sh puts this call there). It loads and checks the library on its first
   * search, so the bindings' classes initialize without it.
   */
  public static SymbolLookup symbols() {
    return SYMBOLS;
  }

  private static Optional<MemorySegment> find(String name) {
    if (!loaded && !Thread.holdsLock(LOCK)) {
      load();  // a search before load(): load and check first
    }
    // loaded, or inside load() on this thread: the checks themselves call the library
    SymbolLookup lib = library;
    return lib == null ? Optional.empty() : lib.find(name);
  }

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
        Opened opened = openLibrary();
        library = opened.lookup();
        checkVersion(Native.rawVersion(), javaApiVersion());
        checkBuildId(Native.rawVersionString(), jarBuildId(), opened.from());
        loadedFrom = opened.from();
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

  /**
   * The file the library was loaded from (for step 3 by name, the file the dynamic linker chose, or
   * {@value #LINKER_SEARCH} when it cannot tell), or null before load.
   */
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

  private static Opened openLibrary() {
    String override = System.getProperty(PATH_PROPERTY);
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override.trim());
      return new Opened(loadFile(p, "system property " + PATH_PROPERTY), p.toAbsolutePath().toString());
    }
    PackedLibrary.Found packed = PackedLibrary.find(platform());
    if (packed != null) {
      Path file = Extraction.extract(packed.bytes(), PrivateDirectory.forThisUser());
      Extraction.verify(file, Extraction.sha256(packed.bytes()));
      return new Opened(loadFile(file, "library packed in a jar (" + packed.origin() + ")"), file.toString());
    }
    return openFromSystem();
  }

  /** Step 3: a java.library.path directory, else the dynamic linker's search by name. */
  private static Opened openFromSystem() {
    String name = System.mapLibraryName("wixlib");
    String libraryPath = System.getProperty("java.library.path", "");
    for (String dir : libraryPath.split(File.pathSeparator)) {
      Path candidate = libraryPathEntry(dir, name);
      if (candidate != null) {
        return new Opened(loadFile(candidate, "java.library.path"), candidate.toAbsolutePath().toString());
      }
    }
    SymbolLookup lookup;
    try {
      lookup = SymbolLookup.libraryLookup(name, Arena.global());
    } catch (IllegalArgumentException e) {
      String why = DynamicLinker.openError(name);
      throw new NativeLibraryException("wixlib: no native library found: " + PATH_PROPERTY
          + " is not set, no jar holds " + String.join(" or ", PackedLibrary.resources(platform()))
          + ", no directory of java.library.path (" + libraryPath + ") holds " + name
          + ", and the dynamic linker cannot open it (" + (why != null ? why : e.getMessage())
          + "; LD_LIBRARY_PATH=" + System.getenv("LD_LIBRARY_PATH") + "). Add the natives jar beside the API"
          + " jar: org.wixlib:wixlib-java-api:" + javaApiVersion() + ":" + platform() + " (GPU and CPU kinds) or :"
          + platform() + "-cpu (CPU kind only), or point -D" + PATH_PROPERTY + " at libwixlib.so.", e);
    }
    String file = lookup.find("wx_version").map(DynamicLinker::fileOf).orElse(null);
    return new Opened(lookup, file != null ? file : LINKER_SEARCH + " (" + name + ")");
  }

  /** {@code dir/name} when it is a file, else null (blank or malformed entries included). */
  private static Path libraryPathEntry(String dir, String name) {
    if (dir.isBlank()) {
      return null;
    }
    try {
      Path candidate = Path.of(dir).resolve(name);
      return Files.isRegularFile(candidate) ? candidate : null;
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /**
   * Opens one library file with dlopen (shared by every class loader, never closed), with the
   * dynamic linker's own error in the exception.
   */
  static SymbolLookup loadFile(Path file, String origin) {
    Path abs = file.toAbsolutePath();
    if (!Files.isRegularFile(abs)) {
      throw new NativeLibraryException("wixlib: native library " + abs + " (from " + origin
          + ") does not exist or is not a file");
    }
    try {
      return SymbolLookup.libraryLookup(abs, Arena.global());
    } catch (IllegalArgumentException e) {
      String why = DynamicLinker.openError(abs.toString());
      String message = why != null ? why : e.getMessage();
      String hint = message != null && message.contains("failed to map segment")
          ? " (is its directory on a noexec mount? set -D" + WORKDIR_PROPERTY + " to another directory)" : "";
      throw new NativeLibraryException("wixlib: cannot load native library " + abs + " (from " + origin
          + "): " + message + hint, e);
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
