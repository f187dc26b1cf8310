package org.wixlib.cli.shell;

import org.wixlib.HashTable;
import org.wixlib.cli.KeySpace;
import org.wixlib.cli.KeySpace64;

/**
 * The key width of a shell table (32 or 64 bits): how its keys and values are read from text and
 * binary files, checked and printed. Keys and values travel through the shell as longs: a 32-bit
 * number as its int value (sign-extended), a 64-bit one as itself.
 */
enum KeyBits {
  B32(32, "0xFFFFFFFF and 0xFFFFFFFE"),
  B64(64, "0xFFFFFFFFFFFFFFFF and 0xFFFFFFFFFFFFFFFE");

  final int bits;
  final String reserved;

  KeyBits(int bits, String reserved) {
    this.bits = bits;
    this.reserved = reserved;
  }

  static KeyBits of(HashTable t) {
    return t.keyBits() == 64 ? B64 : B32;
  }

  /** "32-bit" or "64-bit". */
  String noun() {
    return bits + "-bit";
  }

  /**
   * A decimal (maybe negative) or 0x-hex number of this width, signed or unsigned (32 bits: -2^31 ..
   * 2^32 - 1; 64 bits: -2^63 .. 2^64 - 1), as the shell holds it; null when it is none.
   */
  Long parse(String s) {
    try {
      boolean hex = s.startsWith("0x") || s.startsWith("0X");
      String digits = hex ? s.substring(2) : s;
      if (this == B64) {
        return digits.startsWith("-") ? Long.parseLong(digits, hex ? 16 : 10)
            : Long.parseUnsignedLong(digits, hex ? 16 : 10);
      }
      long v = Long.parseLong(digits, hex ? 16 : 10);
      return fits(v) ? (long) (int) v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether a number read from a binary file (an int32 sign-extended, or an int64) fits this width. */
  boolean fits(long v) {
    return this == B64 || (v >= Integer.MIN_VALUE && v <= 0xFFFFFFFFL);
  }

  /** The number as the shell holds it (a 32-bit one as its int value). */
  long held(long v) {
    return this == B64 ? v : (int) v;
  }

  /** Whether the key (as held) is reserved. */
  boolean isReserved(long key) {
    return this == B64 ? KeySpace64.isReserved(key) : KeySpace.isReserved((int) key);
  }

  /** The number as the shell prints it: signed decimal of its width. */
  String text(long v) {
    return this == B64 ? Long.toString(v) : Integer.toString((int) v);
  }
}
