package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.NativeLibraryException;

class PrivateDirectoryTest {
  private static final int ME = PrivateDirectory.currentUid();

  @Test
  void theCurrentUidOwnsTheFilesThisProcessCreates(@TempDir Path dir) throws Exception {
    Path f = Files.createFile(dir.resolve("mine"));
    assertEquals(Files.getAttribute(f, "unix:uid"), ME);
  }

  @Test
  void aMissingDirectoryIsCreatedForTheOwnerOnly(@TempDir Path tmp) throws Exception {
    Path dir = tmp.resolve("a/b/wixlib");
    Path made = PrivateDirectory.prepare(dir, ME);
    assertEquals(dir.toRealPath(), made);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
    assertEquals(made, PrivateDirectory.prepare(dir, ME), "an existing one of ours is used again");
  }

  @Test
  void anExistingDirectoryOthersCannotWriteIsAccepted(@TempDir Path tmp) throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("readable"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertEquals(dir.toRealPath(), PrivateDirectory.prepare(dir, ME));
  }

  @Test
  void aDirectoryWritableByGroupOrOthersIsRefusedNamingIt(@TempDir Path tmp) throws Exception {
    for (String mode : new String[] {"rwxrwxrwx", "rwxrwx---", "rwx----w-", "rwx-w----"}) {
      Path dir = Files.createDirectories(tmp.resolve(mode.replace('-', '_')));
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
      NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> PrivateDirectory.prepare(dir, ME),
          mode);
      String m = e.getMessage();
      assertTrue(m.contains(dir.toRealPath().toString()) && m.contains("writable by other users"), m);
      assertTrue(m.contains("chmod 700") && m.contains(PrivateDirectory.PROPERTY), m);
    }
  }

  @Test
  void aDirectoryOfAnotherUserIsRefusedNamingIt(@TempDir Path tmp) throws Exception {
    // Seen by another user: the same directory, owned by someone else.
    Path dir = Files.createDirectory(tmp.resolve("theirs"));
    int other = ME + 1;
    NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> PrivateDirectory.prepare(dir, other));
    String m = e.getMessage();
    assertTrue(m.contains(dir.toRealPath().toString()), m);
    assertTrue(m.contains("belongs to uid " + ME) && m.contains("(uid " + other + ")"), m);
  }

  @Test
  void aLinkIsFollowedOnceAndItsTargetChecked(@TempDir Path tmp) throws Exception {
    Path real = Files.createDirectory(tmp.resolve("real"));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
    assertEquals(real.toRealPath(), PrivateDirectory.prepare(link, ME));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwxrwxrwx"));
    NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> PrivateDirectory.prepare(link, ME));
    assertTrue(e.getMessage().contains(real.toRealPath().toString()), e.getMessage());
  }

  @Test
  void aFileInThePlaceOfTheDirectoryIsRefused(@TempDir Path tmp) throws Exception {
    Path file = Files.createFile(tmp.resolve("file"));
    NativeLibraryException e = assertThrows(NativeLibraryException.class, () -> PrivateDirectory.prepare(file, ME));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void theDirectoryFollowsXdgThenHomeThenTmp(@TempDir Path tmp) throws Exception {
    Path home = Files.createDirectory(tmp.resolve("home"));
    String t = tmp.resolve("t").toString();
    assertEquals(Path.of("/x/cache", "wixlib"),
        PrivateDirectory.choose(Map.of("XDG_CACHE_HOME", "/x/cache"), home.toString(), t, 7));
    assertEquals(home.resolve(".cache/wixlib"),
        PrivateDirectory.choose(Map.of("XDG_CACHE_HOME", "relative/cache"), home.toString(), t, 7),
        "a relative XDG_CACHE_HOME is ignored, as the XDG spec says");
    assertEquals(home.resolve(".cache/wixlib"), PrivateDirectory.choose(Map.of(), home.toString(), t, 7));
    // No usable home (service accounts: /nonexistent, "?"): a per-uid directory in the temp dir.
    assertEquals(Path.of(t, "wixlib-7"), PrivateDirectory.choose(Map.of(), tmp.resolve("nonexistent").toString(), t, 7));
    assertEquals(Path.of(t, "wixlib-7"), PrivateDirectory.choose(Map.of(), "?", t, 7));
    assertEquals(Path.of(t, "wixlib-7"), PrivateDirectory.choose(Map.of(), null, t, 7));
    assertEquals(Path.of("/tmp", "wixlib-7"), PrivateDirectory.choose(Map.of(), null, null, 7));
  }
}
