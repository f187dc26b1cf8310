package org.wixlib.cli;

/** A requested table kind cannot run here (no CUDA build, no device); exit code 3. */
public final class KindUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public KindUnavailableException(String message) {
    super(message);
  }
}
