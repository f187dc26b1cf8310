package org.wixlib;

import java.lang.foreign.MemorySegment;

/** Checks of the arguments that tables and joins share: host segments and array lengths. */
final class Args {
  private Args() {}

  /**
   * A host segment argument of at least {@code bytes} bytes; returns it, or MemorySegment.NULL for an
   * absent optional one (or an absent one of 0 bytes). Native memory only: heap segments are refused
   * (the array overloads take arrays); a closed or another thread's confined segment throws what the
   * segment itself would.
   */
  static MemorySegment host(MemorySegment s, String name, long bytes, boolean optional, boolean written) {
    if (ConfigChecks.isAbsent(s)) {
      if (s == null && !optional) {
        throw new NullPointerException(name);
      }
      if (optional || bytes == 0) {
        return MemorySegment.NULL;
      }
      throw new InvalidArgumentException(name + " is MemorySegment.NULL");
    }
    if (!s.isNative()) {
      throw new InvalidArgumentException(name + " is a heap segment; pass native (off-heap) memory "
          + "or use the array overloads");
    }
    ConfigChecks.usable(s, name);
    if (s.byteSize() < bytes) {
      throw new InvalidArgumentException(name + " holds " + s.byteSize() + " bytes; needs " + bytes);
    }
    if (written && s.isReadOnly()) {
      throw new InvalidArgumentException(name + " is read-only but is written");
    }
    return s;
  }

  /** A required host segment that is read. */
  static MemorySegment host(MemorySegment s, String name, long bytes) {
    return host(s, name, bytes, false, false);
  }

  /** An array argument's length must be the keys'. */
  static void sameLength(String name, int length, int n) {
    if (length != n) {
      throw new InvalidArgumentException(name + ".length = " + length + " but keys.length = " + n);
    }
  }
}
