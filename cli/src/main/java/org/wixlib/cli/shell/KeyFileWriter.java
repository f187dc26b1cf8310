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
 * where absent; i32kv/i64kv get key, value records of the keys found.
 */
final class KeyFileWriter {
  private KeyFileWriter() {}

  static void write(Path file, DataFormat given, int[] keys, int[] values, boolean[] found, String valueName,
      int notFound) {
    DataFormat f = DataFormat.of(given, file);
    try {
      if (f.isText()) {
        String sep = f == DataFormat.CSV ? "," : "\t";
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
          w.write("key" + sep + valueName + "\n");
          for (int i = 0; i < keys.length; i++) {
            w.write(Integer.toString(keys[i]));
            w.write(sep);
            if (found[i]) {
              w.write(values == null ? "true" : Integer.toString(values[i]));
            } else if (values == null) {
              w.write("false");
            }
            w.write('\n');
          }
        }
        return;
      }
      try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < keys.length; i++) {
          b.clear();
          int v = values == null ? (found[i] ? 1 : 0) : found[i] ? values[i] : notFound;
          if (f.pairs) {
            if (!found[i]) {
              continue;
            }
            put(b, f, keys[i], true);
          }
          put(b, f, v, false);
          out.write(b.array(), 0, b.position());
        }
      }
    } catch (IOException e) {
      throw new ShellError(file + ": " + e.getMessage());
    }
  }

  private static void put(ByteBuffer b, DataFormat f, int v, boolean key) {
    if (f.width == 4) {
      b.putInt(v);
    } else {
      b.putLong(key ? Integer.toUnsignedLong(v) : v);
    }
  }

}
