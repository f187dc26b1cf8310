package org.wixlib;

import java.util.Locale;
import org.wixlib.internal.NativeAccess;
import org.wixlib.internal.ffi.wixlib_h;

/** The table designs of wixlib; {@link #code()} is the native {@code wx_kind}. */
public enum TableKind {
  /** Concurrent hopscotch table on the host (runs everywhere). */
  CPU(NativeAccess.code(wixlib_h::WX_KIND_CPU)),
  /** GPU lock-free hopscotch, warp-cooperative. */
  GLHT(NativeAccess.code(wixlib_h::WX_KIND_GLHT)),
  /** GPU bucketed cuckoo with stash and linear-hashing resize. */
  HIVE(NativeAccess.code(wixlib_h::WX_KIND_HIVE));

  private final int code;

  TableKind(int code) {
    this.code = code;
  }

  /** The native {@code wx_kind} value. */
  public int code() {
    return code;
  }

  /** True for the kinds that live in GPU memory. */
  public boolean isGpu() {
    return this != CPU;
  }

  /** The kind of a native {@code wx_kind} value. */
  public static TableKind fromCode(int code) {
    for (TableKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new InvalidArgumentException("unknown table kind code " + code);
  }

  /** Parses a kind name, case-insensitively ("cpu", "glht", "hive"). */
  public static TableKind parse(String name) {
    if (name == null) {
      throw new NullPointerException("name");
    }
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("unknown table kind '" + name + "' (expected cpu, glht or hive)");
    }
  }
}
