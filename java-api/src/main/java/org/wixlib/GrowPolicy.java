package org.wixlib;

import org.wixlib.internal.NativeAccess;
import org.wixlib.internal.ffi.wixlib_h;

/** What an insert does when it finds no room; {@link #code()} is the native {@code wx_grow}. */
public enum GrowPolicy {
  /** Grow between launches and re-run the failed elements (default). */
  AUTO(NativeAccess.code(wixlib_h::WX_GROW_AUTO)),
  /** Report {@link Outcome#FULL} per element instead of growing. */
  NEVER(NativeAccess.code(wixlib_h::WX_GROW_NEVER));

  private final int code;

  GrowPolicy(int code) {
    this.code = code;
  }

  /** The native {@code wx_grow} value. */
  public int code() {
    return code;
  }
}
