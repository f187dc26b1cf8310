package org.wixlib.cli.join;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.util.ArrayList;
import java.util.List;
import org.wixlib.cli.NotInstalledException;
import org.wixlib.cli.VersionProvider;

/**
 * DuckDB's JDBC driver, loaded at run time: DuckDB is no part of the CLI jar (its jar is ~80 MB, with
 * native libraries for four platforms). Looked up in this order: the jar given (--duckdb-jar), the class
 * path (tests, {@code java -cp}), then a {@code duckdb_jdbc*.jar} beside the CLI jar or in {@code lib/}
 * beside it (the build copies one to {@code cli/target/lib/}; scripts/device-prepare.sh carries one).
 */
final class DuckDbDriver {
  static final String DRIVER_CLASS = "org.duckdb.DuckDBDriver";

  /** The driver and where it came from (a jar path, or "class path"). */
  record Loaded(Driver driver, String source) {}

  private DuckDbDriver() {}

  /** The driver from the given jar (null: look it up); a missing jar or driver is NotInstalledException. */
  static Loaded load(Path jar) {
    if (jar != null) {
      if (!Files.isRegularFile(jar)) {
        throw new NotInstalledException("--duckdb-jar " + jar + ": no such file. " + whereToPut());
      }
      return fromJar(jar);
    }
    try {
      Class<?> c = Class.forName(DRIVER_CLASS, true, DuckDbDriver.class.getClassLoader());
      return new Loaded(newDriver(c), "class path");
    } catch (ClassNotFoundException e) {
      // not on the class path: look beside the CLI jar
    }
    Path found = findBeside(cliLocation());
    if (found == null) {
      throw new NotInstalledException("DuckDB's JDBC driver was not found. " + whereToPut());
    }
    return fromJar(found);
  }

  /**
   * The newest-named duckdb_jdbc*.jar in the folder holding the CLI jar (or its classes folder) or in
   * that folder's lib/; null when there is none.
   */
  static Path findBeside(Path cli) {
    Path dir = cli == null ? null : cli.getParent();
    if (dir == null) {
      return null;
    }
    List<Path> jars = new ArrayList<>();
    for (Path d : List.of(dir, dir.resolve("lib"))) {
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (DirectoryStream<Path> s = Files.newDirectoryStream(d, "duckdb_jdbc*.jar")) {
        s.forEach(jars::add);
      } catch (IOException e) {
        // an unreadable folder holds no jar we can use
      }
    }
    return jars.stream().max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
        .orElse(null);
  }

  /** Where the CLI's classes come from: its jar, or a classes folder. */
  static Path cliLocation() {
    try {
      var src = DuckDbDriver.class.getProtectionDomain().getCodeSource();
      return src == null ? null : Path.of(src.getLocation().toURI());
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  /** What to do about a missing driver: the jar's name and version, and where it goes. */
  static String whereToPut() {
    String v = version();
    Path cli = cliLocation();
    String dir = cli == null ? "the folder of wixlib-cli.jar" : String.valueOf(cli.getParent());
    return "Put duckdb_jdbc-" + v + ".jar (Maven Central org.duckdb:duckdb_jdbc:" + v + ") in " + dir + " or in "
        + dir + "/lib, or give --duckdb-jar PATH; e.g. mvn dependency:copy -Dartifact=org.duckdb:duckdb_jdbc:" + v
        + " -DoutputDirectory=" + dir + "/lib";
  }

  /** The DuckDB version the build names (cli/pom.xml duckdb.version). */
  static String version() {
    String v = VersionProvider.buildProperty("duckdb.version");
    return v == null ? "1.4.4.0" : v;
  }

  /**
   * A class loader of the jar alone over the platform loader (which has java.sql), so the jar given wins
   * over any driver on the class path. It stays open: the driver's classes live as long as the process.
   */
  private static Loaded fromJar(Path jar) {
    try {
      URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      return new Loaded(newDriver(Class.forName(DRIVER_CLASS, true, loader)), jar.toAbsolutePath().toString());
    } catch (ClassNotFoundException e) {
      throw new NotInstalledException(jar + " holds no " + DRIVER_CLASS + ". " + whereToPut());
    } catch (MalformedURLException e) {
      throw new NotInstalledException("--duckdb-jar " + jar + ": " + e.getMessage());
    }
  }

  private static Driver newDriver(Class<?> c) {
    try {
      return (Driver) c.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new NotInstalledException("cannot create DuckDB's JDBC driver " + c.getName() + ": " + e);
    }
  }
}
