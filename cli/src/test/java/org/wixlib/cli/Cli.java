package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

/** Runs the CLI in-process and captures what it prints. */
public final class Cli {
  public final int code;
  public final String out;
  public final String err;

  private Cli(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  public static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
    return new Cli(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }

  static boolean gpuRequired() {
    return "1".equals(System.getenv("WIXLIB_REQUIRE_GPU"));
  }

  /** Skips the test visibly when the kind cannot run here; fails instead when WIXLIB_REQUIRE_GPU=1. */
  public static void assumeKind(TableKind kind) {
    boolean ok = Wixlib.isAvailable(kind);
    if (!ok && gpuRequired()) {
      fail("WIXLIB_REQUIRE_GPU=1 but kind " + kind + " is not available");
    }
    assumeTrue(ok, "kind " + kind + " not available here (no GPU): skipped");
  }
}
