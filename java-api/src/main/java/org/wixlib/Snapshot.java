package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Snapshot files: a whole table's pairs on disk ({@link HashTable#save} / {@link HashTable#load}).
 *
 * <p>Format version 1, every number little-endian:
 * <pre>
 *   0  magic "WIXLSNAP"          8 bytes
 *   8  format version            u32 (1)
 *  12  kind                      u32 (native wx_kind of the saved table)
 *  16  key bits, value bits      u32, u32 (32, 32 or 64, 64)
 *  24  count                     u64 (pairs in the file)
 *  32  slots                     u64 (the saved table's capacity; informational)
 *  40  header CRC32C             u32 (of bytes 0..39)
 *  44  shards                    u32 (the saved table's shard count; 0, as files without it hold, reads as 1)
 *  48  keys                      count x u32 (64-bit tables: u64)
 *      values                    count x u32 (64-bit tables: u64)
 * end-8 file CRC32C              u32 (of every byte before it)
 * end-4 end mark "WXND"          4 bytes
 * </pre>
 * A save writes a temporary file beside the target, forces it to disk and renames it over the target,
 * so a crash never leaves a half-written snapshot under the final name. The shard count lies outside the
 * header checksum (inside the file's), where readers that do not know it find the reserved 0 they skip. A load checks the size, both
 * checksums and every key before it creates the table, so a bad file costs nothing but the error.
 */
public final class Snapshot {
  /** The format version this library writes and reads. */
  public static final int FORMAT_VERSION = 1;
  static final byte[] MAGIC = "WIXLSNAP".getBytes(StandardCharsets.US_ASCII);
  static final byte[] END = "WXND".getBytes(StandardCharsets.US_ASCII);
  static final int HEADER_BYTES = 48;
  static final int TRAILER_BYTES = 8;
  /** Smallest capacity a load asks for (tiny and empty snapshots still get a usable table). */
  static final long MIN_CAPACITY = 1024;
  /** Bytes moved between the file and memory per step. */
  private static final int CHUNK_BYTES = 1 << 22;
  private static final ValueLayout.OfInt LE_INT = JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).withByteAlignment(1);
  private static final ValueLayout.OfLong LE_LONG = JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).withByteAlignment(1);

  private Snapshot() {}

  /** File size of a snapshot of {@code count} pairs of 32-bit keys and values. */
  public static long fileSize(long count) {
    return fileSize(count, 32);
  }

  /** File size of a snapshot of {@code count} pairs of {@code keyBits}-bit keys and values (32 or 64). */
  public static long fileSize(long count, int keyBits) {
    return HEADER_BYTES + keyBits / 4 * count + TRAILER_BYTES;
  }

  /**
   * Writes every pair of {@code table} to {@code file} (atomically replacing it). A failure names
   * {@code file} as given, never the temporary file it is written through.
   */
  public static void save(HashTable table, Path file) throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      // One copy under the table's lock: writers on other threads wait for it, not for the file.
      HashTable.Copy pairs = table.copyPairs(arena, Long.MAX_VALUE, "");
      try {
        writeAtomically(table.kind(), table.keyBits(), table.shards(), pairs, file.toAbsolutePath());
      } catch (IOException e) {
        throw named(e, file);
      }
    }
  }

  /** Writes a temporary file beside target, forces it to disk and renames it over target. */
  private static void writeAtomically(TableKind kind, int bits, int shards, HashTable.Copy pairs, Path target)
      throws IOException {
    Path dir = target.getParent();
    long n = pairs.count();
    Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    boolean moved = false;
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        CRC32C crc = new CRC32C();
        ByteBuffer head = header(kind, bits, shards, n, pairs.slots());
        crc.update(head.duplicate());
        writeFully(ch, head);
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        writeWords(ch, crc, buf, pairs.keys(), n, bits);
        writeWords(ch, crc, buf, pairs.values(), n, bits);
        ByteBuffer tail = ByteBuffer.allocate(TRAILER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        tail.putInt((int) crc.getValue()).put(END).flip();
        writeFully(ch, tail);
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      moved = true;
      syncDirectory(dir);
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * A save's failure as the caller should read it: about {@code file} (the path they gave), with the
   * reason, whichever file (the hidden temporary one, or none: "No space left on device") the
   * failing call named. The original is the cause.
   */
  static IOException named(IOException e, Path file) {
    String where = file.toString();
    Path parent = file.toAbsolutePath().getParent();
    IOException out;
    if (e instanceof NoSuchFileException) {
      out = new NoSuchFileException(where, null, "no such directory " + parent);
    } else if (e instanceof AccessDeniedException) {
      out = new AccessDeniedException(where, null, "permission denied (directory " + parent + ")");
    } else if (e instanceof FileSystemException f) {
      out = new FileSystemException(where, null, f.getReason());
    } else {
      out = new IOException(where + ": " + e.getMessage());
    }
    out.initCause(e);
    return out;
  }

  /** Reads and checks a snapshot's header (not its payload). */
  public static SnapshotHeader readHeader(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return readHeader(ch, file);
    }
  }

  /**
   * Creates a table from {@code config} (null: the snapshot's kind with default settings) sized for the
   * snapshot's count and of its key width (the builder's capacity is set to max(count, 1024), its
   * keyBits to the snapshot's, its shards to the snapshot's unless the config sets them) and inserts
   * every pair. Devices are the config's: a snapshot does not tie a table to one machine's GPUs. The whole file is checked first; a foreign,
   * truncated or corrupt file throws {@link SnapshotFormatException} and creates nothing.
   */
  public static HashTable load(Path file, HashTable.Builder config) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
      SnapshotHeader h = readHeader(ch, file);
      long n = h.count();
      int bits = h.keyBits();
      int w = bits / 8;
      MemorySegment keys = arena.allocate(w * Math.max(1, n), w);
      MemorySegment values = arena.allocate(w * Math.max(1, n), w);
      CRC32C crc = new CRC32C();
      ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES);
      readFully(ch, head, 0, file);
      crc.update(head.flip());
      ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      long pos = readWords(ch, crc, buf, keys, n, bits, HEADER_BYTES, file);
      pos = readWords(ch, crc, buf, values, n, bits, pos, file);
      ByteBuffer tail = ByteBuffer.allocate(TRAILER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      readFully(ch, tail, pos, file);
      tail.flip();
      int stored = tail.getInt();
      byte[] end = new byte[4];
      tail.get(end);
      if (!Arrays.equals(end, END)) {
        throw bad(file, "corrupt: the end mark is missing");
      }
      if (stored != (int) crc.getValue()) {
        throw bad(file, "corrupt: checksum mismatch (stored " + hex(stored) + ", computed "
            + hex((int) crc.getValue()) + ")");
      }
      for (long i = 0; i < n; i++) {
        long key = bits == 64 ? keys.getAtIndex(JAVA_LONG, i) : keys.getAtIndex(JAVA_INT, i);
        if (bits == 64 ? key == HashTable.EMPTY_KEY64 || key == HashTable.TOMBSTONE_KEY64
            : key == HashTable.EMPTY_KEY || key == HashTable.TOMBSTONE_KEY) {
          throw bad(file, "corrupt: pair " + i + " has the reserved key " + keyText(key, bits));
        }
      }
      HashTable.Builder b = config != null ? config : HashTable.builder().kind(h.kind());
      if (b.shards == null && h.shards() > 1) {
        b.shards(h.shards());
      }
      HashTable table = b.capacity(Math.max(n, MIN_CAPACITY)).keyBits(bits).build();
      try {
        if (n > 0) {
          MemorySegment outcomes = arena.allocate(n);
          table.insert(keys, values, n, outcomes);
          for (long i = 0; i < n; i++) {
            byte o = outcomes.get(JAVA_BYTE, i);
            if (o != Outcome.INSERTED) {
              if (o == Outcome.PRESENT) {
                throw bad(file, "corrupt: key " + keyText(bits == 64 ? keys.getAtIndex(JAVA_LONG, i)
                    : keys.getAtIndex(JAVA_INT, i), bits) + " appears twice");
              }
              throw new TableFullException("loading " + file + ": pair " + i + " was not stored ("
                  + Outcome.name(o) + ")", -1);
            }
          }
        }
        return table;
      } catch (IOException | RuntimeException e) {
        table.close();
        throw e;
      }
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static ByteBuffer header(TableKind kind, int bits, int shards, long count, long slots) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).putInt(FORMAT_VERSION).putInt(kind.code()).putInt(bits).putInt(bits).putLong(count).putLong(slots);
    CRC32C c = new CRC32C();
    c.update(b.array(), 0, 40);
    b.putInt((int) c.getValue()).putInt(shards);
    return b.flip();
  }

  private static SnapshotHeader readHeader(FileChannel ch, Path file) throws IOException {
    long size = ch.size();
    if (size < HEADER_BYTES) {
      if (size >= MAGIC.length && !startsWithMagic(ch)) {
        throw bad(file, "not a wixlib snapshot (no WIXLSNAP magic)");
      }
      throw bad(file, "truncated: " + size + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
    }
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    readFully(ch, b, 0, file);
    b.flip();
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw bad(file, "not a wixlib snapshot (no WIXLSNAP magic)");
    }
    CRC32C c = new CRC32C();
    c.update(b.array(), 0, 40);
    if (b.getInt(40) != (int) c.getValue()) {
      throw bad(file, "corrupt: header checksum mismatch");
    }
    int version = b.getInt();
    int kindCode = b.getInt();
    int keyBits = b.getInt();
    int valueBits = b.getInt();
    long count = b.getLong();
    long slots = b.getLong();
    b.getInt(); // the header checksum, checked above
    int shards = b.getInt();
    if (version != FORMAT_VERSION) {
      throw bad(file, "format version " + version + " is not supported (this library reads version "
          + FORMAT_VERSION + ")");
    }
    if (!(keyBits == valueBits && (keyBits == 32 || keyBits == 64))) {
      throw bad(file, keyBits + "-bit keys and " + valueBits + "-bit values are not supported (32 and 32, or 64 and 64)");
    }
    TableKind kind;
    try {
      kind = TableKind.fromCode(kindCode);
    } catch (InvalidArgumentException e) {
      throw bad(file, "unknown table kind code " + kindCode);
    }
    if (count < 0 || count > (Long.MAX_VALUE - HEADER_BYTES - TRAILER_BYTES) / 16) {
      throw bad(file, "corrupt: count " + count);
    }
    long expected = fileSize(count, keyBits);
    if (size < expected) {
      throw bad(file, "truncated: " + size + " bytes, the header's count " + count + " needs " + expected);
    }
    if (size > expected) {
      throw bad(file, "corrupt: " + (size - expected) + " bytes after the end of the snapshot");
    }
    if (shards < 0) {
      throw bad(file, "corrupt: shard count " + Integer.toUnsignedString(shards));
    }
    return new SnapshotHeader(version, kind, keyBits, valueBits, count, slots, Math.max(1, shards));
  }

  private static boolean startsWithMagic(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(MAGIC.length);
    while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
      // keep reading
    }
    return Arrays.equals(b.array(), MAGIC);
  }

  /** Writes n words of bits 32 or 64 from src, little-endian, through buf. */
  private static void writeWords(FileChannel ch, CRC32C crc, ByteBuffer buf, MemorySegment src, long n, int bits)
      throws IOException {
    MemorySegment view = MemorySegment.ofBuffer(buf.clear()); // the whole buffer, whatever its position
    int w = bits / 8;
    int chunk = CHUNK_BYTES / w;
    for (long i = 0; i < n; i += chunk) {
      int m = (int) Math.min(chunk, n - i);
      if (bits == 64) {
        MemorySegment.copy(src, JAVA_LONG, 8 * i, view, LE_LONG, 0, m);
      } else {
        MemorySegment.copy(src, JAVA_INT, 4 * i, view, LE_INT, 0, m);
      }
      buf.clear().limit(w * m);
      crc.update(buf.duplicate());
      writeFully(ch, buf);
    }
  }

  /** Reads n little-endian words of bits 32 or 64 at pos into dst; returns the position after them. */
  private static long readWords(FileChannel ch, CRC32C crc, ByteBuffer buf, MemorySegment dst, long n, int bits,
      long pos, Path file) throws IOException {
    MemorySegment view = MemorySegment.ofBuffer(buf.clear()); // the whole buffer, whatever its position
    int w = bits / 8;
    int chunk = CHUNK_BYTES / w;
    for (long i = 0; i < n; i += chunk) {
      int m = (int) Math.min(chunk, n - i);
      buf.clear().limit(w * m);
      readFully(ch, buf, pos, file);
      pos += (long) w * m;
      buf.flip();
      crc.update(buf.duplicate());
      if (bits == 64) {
        MemorySegment.copy(view, LE_LONG, 0, dst, JAVA_LONG, 8 * i, m);
      } else {
        MemorySegment.copy(view, LE_INT, 0, dst, JAVA_INT, 4 * i, m);
      }
    }
    return pos;
  }

  private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  private static void readFully(FileChannel ch, ByteBuffer b, long pos, Path file) throws IOException {
    while (b.hasRemaining()) {
      int r = ch.read(b, pos);
      if (r < 0) {
        throw bad(file, "truncated while reading");
      }
      pos += r;
    }
  }

  /** Makes the rename durable where the platform allows opening a directory (Linux does). */
  private static void syncDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException ignored) {
      // best effort: the snapshot itself is already forced to disk
    }
  }

  private static SnapshotFormatException bad(Path file, String what) {
    return new SnapshotFormatException(file + ": " + what);
  }

  private static String hex(int v) {
    return String.format("0x%08X", v);
  }

  /** A key as Java prints it (signed), with its bits in hex. */
  private static String keyText(long key, int bits) {
    return bits == 64 ? key + " (" + String.format("0x%016X", key) + ")"
        : (int) key + " (" + hex((int) key) + ")";
  }
}
