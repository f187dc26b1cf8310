package org.wixlib;

/**
 * Per-element outcome bytes written by bulk calls (the native {@code wx_outcome} values). They are
 * compile-time constants, so that they serve as {@code case} labels; a test keeps them equal to the
 * generated {@code wixlib_h.WX_OUT_*()}.
 */
public final class Outcome {
  /** Not executed. */
  public static final byte NONE = 0;
  /** insert / insertOrAssign: the key was new. */
  public static final byte INSERTED = 1;
  /** insert: the key was already present (value left unchanged). */
  public static final byte PRESENT = 2;
  /** insertOrAssign: the key was present, its value replaced. */
  public static final byte ASSIGNED = 3;
  /** find / contains: present. */
  public static final byte FOUND = 4;
  /** find / contains / erase: absent. */
  public static final byte NOT_FOUND = 5;
  /** erase: the key was present and is now removed. */
  public static final byte ERASED = 6;
  /** insert: no room and the table could not grow. */
  public static final byte FULL = 7;
  /** The key is a reserved value; nothing was done. */
  public static final byte INVALID_KEY = 8;

  private static final String[] NAMES = {
    "NONE", "INSERTED", "PRESENT", "ASSIGNED", "FOUND", "NOT_FOUND", "ERASED", "FULL", "INVALID_KEY"
  };

  private Outcome() {}

  /** The constant's name, or {@code "UNKNOWN(<n>)"} for a byte that is no outcome. */
  public static String name(byte outcome) {
    int i = Byte.toUnsignedInt(outcome);
    return i < NAMES.length ? NAMES[i] : "UNKNOWN(" + i + ")";
  }
}
