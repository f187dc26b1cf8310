package org.wixlib.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URL;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.wixlib.NativeLibraryException;

/**
 * Finds the library packed in a jar: {@code native/<platform>/libwixlib.so} (the natives jar
 * {@code org.wixlib:wixlib-java-api:<version>:<platform>}, GPU and CPU kinds) before
 * {@code native/<platform>-cpu/libwixlib.so} (classifier {@code <platform>-cpu}, CPU kind only), or
 * either one in a jar that holds the API too (the CLI's).
 *
 * <p>Searched through this class's loader (the class path, and modules that loader defines), then
 * among the jars of the module path: a natives jar there is an automatic module ({@value #MODULE},
 * {@value #CPU_MODULE}) that no module requires, so the JVM leaves it unresolved and no loader sees
 * its files unless the user adds {@code --add-modules}.
 */
final class PackedLibrary {
  /** Automatic-Module-Name of the natives jar. */
  static final String MODULE = "org.wixlib.natives";
  /** Automatic-Module-Name of the CPU-only natives jar. */
  static final String CPU_MODULE = "org.wixlib.natives.cpu";

  /** A packed library's bytes and where they were read. */
  record Found(byte[] bytes, String origin) {}

  private PackedLibrary() {}

  /** The resource names tried, in order, for {@code platform} (e.g. "linux-x86_64"). */
  static List<String> resources(String platform) {
    return List.of("native/" + platform + "/" + NativeLoader.LIBRARY_FILE,
        "native/" + platform + "-cpu/" + NativeLoader.LIBRARY_FILE);
  }

  /** The first packed library found, or null when no jar holds one. */
  static Found find(String platform) {
    List<String> resources = resources(platform);
    ClassLoader loader = PackedLibrary.class.getClassLoader();
    for (String r : resources) {
      URL url = loader != null ? loader.getResource(r) : ClassLoader.getSystemResource(r);
      if (url != null) {
        try (InputStream in = url.openStream()) {
          return new Found(in.readAllBytes(), url.toString());
        } catch (IOException e) {
          throw new NativeLibraryException("wixlib: cannot read " + url + ": " + e.getMessage(), e);
        }
      }
    }
    return fromModulePath(System.getProperty("jdk.module.path"), resources);
  }

  /** The first of {@code resources} in a natives module of {@code modulePath}, or null. */
  static Found fromModulePath(String modulePath, List<String> resources) {
    if (modulePath == null || modulePath.isBlank()) {
      return null;
    }
    List<Path> entries = new ArrayList<>();
    for (String e : modulePath.split(File.pathSeparator)) {
      try {
        if (!e.isBlank()) {
          entries.add(Path.of(e));
        }
      } catch (InvalidPathException ignored) {
        // the JVM has already refused or ignored such an entry
      }
    }
    ModuleFinder finder = ModuleFinder.of(entries.toArray(Path[]::new));
    List<ModuleReference> natives = new ArrayList<>();
    for (String name : List.of(MODULE, CPU_MODULE)) {
      try {
        finder.find(name).ifPresent(natives::add);
      } catch (FindException e) {
        return null;  // a module path the JVM started with but this finder cannot read: not ours to judge
      }
    }
    List<ModuleReader> readers = new ArrayList<>();
    try {
      for (ModuleReference ref : natives) {
        readers.add(ref.open());
      }
      // Resources in their order across the modules: a GPU library in either jar comes first.
      for (String r : resources) {
        for (int i = 0; i < readers.size(); i++) {
          Optional<InputStream> in = readers.get(i).open(r);
          if (in.isPresent()) {
            try (InputStream s = in.get()) {
              ModuleReference ref = natives.get(i);
              return new Found(s.readAllBytes(),
                  ref.location().map(Object::toString).orElse(ref.descriptor().name()) + "!/" + r);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read the library from the natives module: " + e.getMessage(), e);
    } finally {
      for (ModuleReader reader : readers) {
        try {
          reader.close();
        } catch (IOException ignored) {
          // read-only jar: nothing to lose on close
        }
      }
    }
    return null;
  }
}
