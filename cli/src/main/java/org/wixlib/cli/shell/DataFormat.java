package org.wixlib.cli.shell;

import java.nio.file.Path;
import java.util.Locale;

/** Formats of key (and value) files; picked with --format or from the file's extension. */
enum DataFormat {
  /** Text, comma-separated: key[,value] per line; an optional header line. */
  CSV(0, false),
  /** Text, tab- or blank-separated: key[ value] per line; an optional header line. */
  TSV(0, false),
  /** Raw little-endian int32 keys. */
  I32(4, false),
  /** Raw little-endian int64 keys (on a 32-bit table each must fit 32 bits). */
  I64(8, false),
  /** Raw little-endian int32 key, value records. */
  I32KV(4, true),
  /** Raw little-endian int64 key, value records (on a 32-bit table each must fit 32 bits). */
  I64KV(8, true);

  /** Bytes per number of a binary format, 0 for text. */
  final int width;
  /** Binary records hold a value after the key. */
  final boolean pairs;

  DataFormat(int width, boolean pairs) {
    this.width = width;
    this.pairs = pairs;
  }

  boolean isText() {
    return width == 0;
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  static final String NAMES = "csv, tsv, i32, i64, i32kv, i64kv";

  /** The format given, or the one the file's extension names (.csv .tsv .txt .i32 .bin .i64 .i32kv .i64kv). */
  static DataFormat of(DataFormat given, Path file) {
    if (given != null) {
      return given;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1);
    switch (ext) {
      case "csv": return CSV;
      case "tsv": case "txt": return TSV;
      case "i32": case "bin": return I32;
      case "i64": return I64;
      case "i32kv": return I32KV;
      case "i64kv": return I64KV;
      default:
        throw new ShellError(file + ": cannot tell the format from the extension; give --format (" + NAMES + ")");
    }
  }
}
