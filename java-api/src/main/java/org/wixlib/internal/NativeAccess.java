package org.wixlib.internal;

import java.lang.foreign.ValueLayout;
import java.util.function.IntSupplier;
import org.wixlib.NativeLibraryException;

/**
 * Whether this code may call restricted FFM methods, checked before the generated bindings
 * initialize: under {@code --illegal-native-access=deny} their static initializer fails with a bare
 * {@link IllegalCallerException}, while this check names the flag to add. Every class that reads the
 * bindings in its own static initializer calls {@link #check()} (or {@link #code}) first.
 */
public final class NativeAccess {
  private static final IllegalCallerException DENIED = probe();

  private NativeAccess() {}

  /** Throws {@link NativeLibraryException} naming the flag when native access is denied. */
  public static void check() {
    if (DENIED != null) {
      throw NativeLoader.nativeAccessDenied(DENIED);
    }
  }

  /** A constant of the bindings, read after {@link #check()}: for enum constants. */
  public static int code(IntSupplier constant) {
    check();
    return constant.getAsInt();
  }

  private static IllegalCallerException probe() {
    try {
      ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_BYTE);  // restricted, as in the bindings
      return null;
    } catch (IllegalCallerException e) {
      return e;
    }
  }
}
