package org.wixlib.internal;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.wixlib.NativeLibraryException;

/**
 * Puts the library packed in a jar into a private directory ({@link PrivateDirectory}) under a
 * name made of its content hash, so JVMs of one user share one file and different builds never
 * collide. A new file is written to a unique temporary name and renamed atomically (concurrent JVMs
 * never see a partial file); the file is hashed again right before it is loaded.
 */
final class Extraction {
  private Extraction() {}

  /** The file of {@code library} in {@code dir}: the existing one if its content is right, else a new one. */
  static Path extract(byte[] library, Path dir) {
    String hash = sha256(library);
    Path target = dir.resolve("libwixlib-" + hash.substring(0, 16) + ".so");
    try {
      if (hasContent(target, hash)) {
        return target;
      }
      Path tmp = Files.createTempFile(dir, "libwixlib-", ".so.tmp");  // mode 600, a name no one else holds
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
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot extract the native library to " + target + ": " + e
          + " (set -D" + PrivateDirectory.PROPERTY + " to a writable directory of your own)", e);
    }
  }

  /** Throws unless {@code file} is a regular file (not a link) whose SHA-256 is {@code hash}. */
  static void verify(Path file, String hash) {
    try {
      if (!hasContent(file, hash)) {
        throw new NativeLibraryException("wixlib: " + file + " does not hold the library packed in a jar"
            + " (changed after it was written); not loading it");
      }
    } catch (IOException e) {
      throw new NativeLibraryException("wixlib: cannot read back " + file + ": " + e, e);
    }
  }

  private static boolean hasContent(Path file, String hash) throws IOException {
    return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && sha256(Files.readAllBytes(file)).equals(hash);
  }

  static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
