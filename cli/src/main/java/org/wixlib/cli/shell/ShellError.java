package org.wixlib.cli.shell;

/** A shell command that cannot do what it was asked (unknown table, bad file...): exit code 1, one message. */
final class ShellError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ShellError(String message) {
    super(message);
  }

  ShellError(String message, Throwable cause) {
    super(message, cause);
  }

  /** The running command was cancelled (Ctrl-C). */
  static ShellError cancelled(String what) {
    return new ShellError("cancelled: " + what);
  }
}
