package org.wixlib;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * GPU tests skip (visibly) where the kind is not available, but fail when the environment says a GPU
 * must be there: env {@code WIXLIB_REQUIRE_GPU=1} or system property {@code wixlib.require.gpu=true}.
 */
public final class GpuAssumptions {
  private GpuAssumptions() {}

  /** True when a missing GPU must fail the test rather than skip it. */
  public static boolean gpuRequired() {
    String env = System.getenv("WIXLIB_REQUIRE_GPU");
    String prop = System.getProperty("wixlib.require.gpu");
    return isTrue(env) || isTrue(prop);
  }

  static boolean isTrue(String s) {
    return s != null && (s.equals("1") || s.equalsIgnoreCase("true") || s.equalsIgnoreCase("yes"));
  }

  /** Returns when {@code kind} is usable; otherwise skips the test, or fails it when a GPU is required. */
  public static void requireOrSkip(TableKind kind) {
    java.util.Optional<String> reason = Wixlib.unavailableReason(kind);
    if (reason.isEmpty()) {
      return;
    }
    String why = kind + " is not available here (" + reason.get() + ")";
    if (gpuRequired()) {
      Assertions.fail(why + ", but WIXLIB_REQUIRE_GPU is set");
    }
    Assumptions.abort(why + ": skipped (set WIXLIB_REQUIRE_GPU=1 to make this a failure)");
  }
}
