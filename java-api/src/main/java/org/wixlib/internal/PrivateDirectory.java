package org.wixlib.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.wixlib.NativeLibraryException;

/**
 * The per-user directory the packed library is extracted into, and the checks that keep other users
 * out of it: a library file in a directory only its owner can write cannot be swapped between its
 * hash check and its opening.
 *
 * <p>Where: {@code -Dwixlib.native.workdir} if set, else {@code $XDG_CACHE_HOME/wixlib}, else
 * {@code ~/.cache/wixlib}, else (no usable home, as for service accounts) {@code
 * ${java.io.tmpdir}/wixlib-<uid>}. Created with mode 700; an existing one must belong to this user
 * and be writable by nobody else.
 */
final class PrivateDirectory {
  /** System property naming the directory the packed library is extracted into. */
  static final String PROPERTY = "wixlib.native.workdir";

  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

  private PrivateDirectory() {}

  /** The directory to use in this process, created and checked. */
  static Path forThisUser() {
    int uid = currentUid();
    String override = System.getProperty(PROPERTY);
    Path dir = override != null && !override.isBlank() ? Path.of(override.trim())
        : choose(System.getenv(), System.getProperty("user.home"), System.getProperty("java.io.tmpdir"), uid);
    return prepare(dir, uid);
  }

  /** Where the library goes for this environment (the rule in the class comment; no override). */
  static Path choose(Map<String, String> env, String userHome, String tmpDir, int uid) {
    String xdg = env.get("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {  // the XDG spec ignores relative paths
      return Path.of(xdg, "wixlib");
    }
    if (userHome != null && !userHome.isBlank() && !userHome.equals("?") && Path.of(userHome).isAbsolute()) {
      Path home = Path.of(userHome);
      Path cache = home.resolve(".cache");
      if (Files.isDirectory(cache) ? Files.isWritable(cache) : Files.isDirectory(home) && Files.isWritable(home)) {
        return cache.resolve("wixlib");
      }
    }
    return Path.of(tmpDir == null || tmpDir.isBlank() ? "/tmp" : tmpDir, "wixlib-" + uid);
  }

  /**
   * Creates {@code dir} (mode 700) if missing and returns its real path once it is known to belong to
   * {@code uid} and to be writable by nobody else; throws {@link NativeLibraryException} naming the
   * path otherwise. Symbolic links are resolved once: everything after uses the real path.
   */
  static Path prepare(Path dir, int uid) {
    Path abs = dir.toAbsolutePath();
    Path real;
    try {
      if (abs.getParent() != null) {
        Files.createDirectories(abs.getParent());
      }
      try {
        Files.createDirectory(abs, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (FileAlreadyExistsException e) {
        // checked below, like any existing directory
      }
      real = abs.toRealPath();
      if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
        throw refused(abs, "is not a directory");
      }
      int owner = (Integer) Files.getAttribute(real, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (owner != uid) {
        throw refused(real, "belongs to uid " + owner + ", not to this user (uid " + uid + "); another user"
            + " could replace the native library in it");
      }
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(real, LinkOption.NOFOLLOW_LINKS);
      if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        throw refused(real, "is writable by other users (" + PosixFilePermissions.toString(perms)
            + "); another user could replace the native library in it. Run 'chmod 700 " + real + "'");
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      throw new NativeLibraryException("wixlib: cannot use " + abs + " for the native library: " + e
          + ". " + remedy(), e);
    }
    return real;
  }

  private static NativeLibraryException refused(Path dir, String why) {
    return new NativeLibraryException("wixlib: refusing " + dir + " for the native library: it " + why + ". "
        + remedy());
  }

  private static String remedy() {
    return "Set -D" + PROPERTY + " to a directory of your own, or -D" + NativeLoader.PATH_PROPERTY
        + " to an installed libwixlib.so";
  }

  /**
   * This process's effective user id: from /proc/self/status, else the owner of a file it creates
   * (no other JDK-only way exists without the jdk.security.auth module).
   */
  static int currentUid() {
    try {
      List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
      for (String line : status) {
        if (line.startsWith("Uid:")) {
          return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);  // real, effective, ...
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux or no /proc: fall through
    }
    try {
      Path probe = Files.createTempFile("wixlib-uid", ".tmp");
      try {
        return (Integer) Files.getAttribute(probe, "unix:uid");
      } finally {
        Files.deleteIfExists(probe);
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      throw new NativeLibraryException("wixlib: cannot tell this process's user id (" + e + "). " + remedy(), e);
    }
  }
}
