package org.wixlib.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads keys (and values) of a table's width ({@link KeyBits}) from CSV/TSV text or raw little-endian
 * int32/int64 files (int32 numbers sign-extended for 64-bit tables). A bad line (or
 * binary record) is an error naming its number, and then nothing of the file is used, unless skipBad:
 * then bad lines are left out and counted.
 */
final class KeyFileReader {
  private final Path file;
  private final DataFormat format;
  private final boolean skipBad;
  private final KeyBits width;
  private long skipped;
  private String firstBad;
  private long[] keys = new long[1024];
  private long[] values;
  private int n;

  private KeyFileReader(Path file, DataFormat format, boolean skipBad, KeyBits width) {
    this.file = file;
    this.format = format;
    this.skipBad = skipBad;
    this.width = width;
  }

  /**
   * Reads the whole file (format null: from the extension) as numbers of the given width; session (may
   * be null) hears of skipped lines.
   */
  static KeyData read(Path file, DataFormat given, boolean skipBad, KeyBits width, Session session) {
    KeyFileReader r = new KeyFileReader(file, DataFormat.of(given, file), skipBad, width);
    try {
      if (r.format.isText()) {
        r.readText();
      } else {
        r.readBinary();
      }
    } catch (NoSuchFileException e) {
      throw new ShellError(file + ": no such file");
    } catch (IOException e) {
      throw new ShellError(file + ": " + e.getMessage());
    }
    if (r.skipped > 0 && session != null) {
      session.info("skipped " + r.skipped + " bad line" + (r.skipped == 1 ? "" : "s") + " of " + file
          + " (first: " + r.firstBad + ")");
    }
    long[] k = Arrays.copyOf(r.keys, r.n);
    long[] v = r.values == null ? null : Arrays.copyOf(r.values, r.n);
    return new KeyData(k, v, r.skipped);
  }

  private void bad(long line, String why) {
    String where = (format.isText() ? "line " : "record ") + line + ": " + why;
    if (!skipBad) {
      throw new ShellError(file + ": " + where + "; nothing from the file was applied (--skip-bad leaves bad lines out)");
    }
    if (firstBad == null) {
      firstBad = where;
    }
    skipped++;
  }

  private void add(long key, long value, boolean hasValue) {
    if (n == keys.length) {
      keys = Arrays.copyOf(keys, n * 2);
      if (values != null) {
        values = Arrays.copyOf(values, n * 2);
      }
    }
    keys[n] = key;
    if (hasValue) {
      if (values == null) {
        values = new long[keys.length];
      }
      values[n] = value;
    }
    n++;
  }

  private void readText() throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      long no = 0;
      int columns = -1; // fixed by the first data line
      boolean first = true;
      while ((line = in.readLine()) != null) {
        no++;
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) {
          continue;
        }
        String[] f = format == DataFormat.CSV ? s.split("\\s*,\\s*", -1) : s.split("\\s+");
        if (first) {
          first = false;
          if (width.parse(f[0]) == null && f[0].matches(".*[A-Za-z_].*")) {
            continue; // a header line
          }
        }
        if (f.length > 2) {
          bad(no, f.length + " columns (key[,value] expected)");
          continue;
        }
        if (columns < 0) {
          columns = f.length;
        } else if (f.length != columns) {
          bad(no, f.length + " column" + (f.length == 1 ? "" : "s") + " where the file has " + columns);
          continue;
        }
        Long key = width.parse(f[0]);
        if (key == null) {
          bad(no, "'" + f[0] + "' is not a " + width.noun() + " key");
          continue;
        }
        if (width.isReserved(key)) {
          bad(no, "key " + f[0] + " is reserved (" + width.reserved + ")");
          continue;
        }
        Long value = null;
        if (f.length == 2) {
          value = width.parse(f[1]);
          if (value == null) {
            bad(no, "'" + f[1] + "' is not a " + width.noun() + " value");
            continue;
          }
        }
        add(key, value == null ? 0 : value, value != null);
      }
    }
  }

  private void readBinary() throws IOException {
    int record = format.width * (format.pairs ? 2 : 1);
    long size = Files.size(file);
    if (size % record != 0) {
      throw new ShellError(file + ": " + size + " bytes is not a whole number of " + record + "-byte "
          + format.label() + " records; nothing from the file was applied");
    }
    if (size / record > Integer.MAX_VALUE - 8) {
      throw new ShellError(file + ": too many records for one command (" + size / record + ")");
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[record * 8192];
      ByteBuffer bb = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
      long no = 0;
      int got;
      int fill = 0;
      while ((got = in.read(buf, fill, buf.length - fill)) >= 0) {
        fill += got;
        int whole = fill / record * record;
        for (int at = 0; at < whole; at += record) {
          no++;
          long key = format.width == 4 ? bb.getInt(at) : bb.getLong(at);
          long value = !format.pairs ? 0 : format.width == 4 ? bb.getInt(at + 4) : bb.getLong(at + 8);
          if (!width.fits(key)) {
            bad(no, "key " + key + " does not fit " + width.bits + " bits");
          } else if (width.isReserved(key)) {
            bad(no, "key " + width.text(key) + " is reserved (" + width.reserved + ")");
          } else if (!width.fits(value)) {
            bad(no, "value " + value + " does not fit " + width.bits + " bits");
          } else {
            add(width.held(key), width.held(value), format.pairs);
          }
        }
        System.arraycopy(buf, whole, buf, 0, fill - whole);
        fill -= whole;
      }
    }
  }
}
