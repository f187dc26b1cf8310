package org.wixlib;

/**
 * Operation codes of a mixed batch ({@link HashTable#batch}); the native {@code wx_op} values. They
 * are compile-time constants, so that they serve as {@code case} labels; a test keeps them equal to
 * the generated {@code wixlib_h.WX_OP_*()}.
 */
public final class Op {
  /** Insert; the value is read from values[i]. */
  public static final byte INSERT = 0;
  /** Erase. */
  public static final byte ERASE = 1;
  /** Find; the value is written to values[i] when found, else values[i] is left as it was. */
  public static final byte FIND = 2;
  /** Insert or assign; the value is read from values[i]. */
  public static final byte INSERT_OR_ASSIGN = 3;

  private static final String[] NAMES = {"INSERT", "ERASE", "FIND", "INSERT_OR_ASSIGN"};

  private Op() {}

  /** True when the byte is one of the op codes. */
  public static boolean isValid(byte op) {
    return op >= INSERT && op <= INSERT_OR_ASSIGN;
  }

  /** The constant's name, or {@code "UNKNOWN(<n>)"}. */
  public static String name(byte op) {
    int i = Byte.toUnsignedInt(op);
    return i < NAMES.length ? NAMES[i] : "UNKNOWN(" + i + ")";
  }
}
