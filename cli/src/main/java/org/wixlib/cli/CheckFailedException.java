package org.wixlib.cli;

/** A check of results failed (verify mismatch, wrong bench result); its details are already printed. */
public final class CheckFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CheckFailedException(String message) {
    super(message);
  }
}
