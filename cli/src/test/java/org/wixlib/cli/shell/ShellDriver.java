package org.wixlib.cli.shell;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.wixlib.cli.Cli;

/** Runs `wixlib shell` in-process with the given text as its standard input. */
final class ShellDriver {
  private ShellDriver() {}

  static synchronized Cli shell(String stdin, String... extraArgs) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    try {
      String[] args = new String[extraArgs.length + 1];
      args[0] = "shell";
      System.arraycopy(extraArgs, 0, args, 1, extraArgs.length);
      return Cli.run(args);
    } finally {
      System.setIn(saved);
    }
  }

  /** A session driven directly, for tests that look at its tables afterwards. */
  static final class Direct implements AutoCloseable {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final Session session = new Session(new PrintWriter(out, true), new PrintWriter(err, true), false);
    final ScriptRunner runner = new ScriptRunner(session, false);

    /** Runs one line; fails the test with the output when a command fails. */
    Direct ok(String line) {
      if (!runner.line(line, "test")) {
        throw new AssertionError("'" + line + "' failed:\n" + err);
      }
      return this;
    }

    @Override
    public void close() {
      session.close();
    }
  }
}
