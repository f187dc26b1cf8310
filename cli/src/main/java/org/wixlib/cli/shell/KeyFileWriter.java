package org.wixlib.cli.shell;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes find/contains results: text gets a header and one "key,value" (or key TAB value) line per
 * key, the value empty where the key is absent; i32/i64 get the values only, in key order, notFound
 * where absent; i32kv/i64kv get key, value records of the keys found. Text holds signed numbers of the
 * table's width; int32 formats are for 32-bit tables only.
 */
final class KeyFileWriter {
  private KeyFileWriter() {}

  static void write(Path file, DataFormat given, long[] keys, long[] values, boolean[] found, String valueName,
      long notFound, KeyBits width) {
    DataFormat f = DataFormat.of(given, file);
    try {
      if (f.isText()) {
        String sep = f == DataFormat.CSV ? "," : "\t";
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
          w.write("key" + sep + valueName + "\n");
          for (int i = 0; i < keys.length; i++) {
            w.write(width.text(keys[i]));
            w.write(sep);
            if (found[i]) {
              w.write(values == null ? "true" : width.text(values[i]));
            } else if (values == null) {
              w.write("false");
            }
            w.write('\n');
          }
        }
        return;
      }
      if (f.width < width.bits / 8) {
        throw new ShellError(file + ": " + f.label() + " holds 32-bit numbers, the table's are " + width.noun()
            + "; write i64 or i64kv");
      }
      try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < keys.length; i++) {
          b.clear();
          long v = values == null ? (found[i] ? 1 : 0) : found[i] ? values[i] : notFound;
          if (f.pairs) {
            if (!found[i]) {
              continue;
            }
            // a 32-bit table's keys as unsigned numbers in int64 records, its values as signed ones
            put(b, f, f.width == 8 && width == KeyBits.B32 ? Integer.toUnsignedLong((int) keys[i]) : keys[i]);
          }
          put(b, f, v);
          out.write(b.array(), 0, b.position());
        }
      }
    } catch (IOException e) {
      throw new ShellError(file + ": " + e.getMessage());
    }
  }

  private static void put(ByteBuffer b, DataFormat f, long v) {
    if (f.width == 4) {
      b.putInt((int) v);
    } else {
      b.putLong(v);
    }
  }
}
