package org.wixlib;

import org.wixlib.internal.Status;

/**
 * Base of every exception wixlib throws for a failed call. {@link #status()} is the native status
 * code ({@code wx_status}), or -1 for failures found on the Java side before any native call
 * ({@link NativeLibraryException}).
 */
public class WixlibException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public WixlibException(int status, String message) {
    super(message);
    this.status = status;
  }

  public WixlibException(int status, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The native status code ({@code wx_status}), -1 when none applies. */
  public int status() {
    return status;
  }

  /** The status code's name, e.g. {@code "FULL"} (the names of the native wx_status_name()). */
  public String statusName() {
    return Status.name(status);
  }
}
