package org.wixlib.cli;

/** A part a command needs is not installed here (e.g. DuckDB's JDBC jar for a baseline); exit code 3. */
public final class NotInstalledException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NotInstalledException(String message) {
    super(message);
  }
}
