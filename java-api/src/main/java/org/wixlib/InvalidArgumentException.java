package org.wixlib;

import org.wixlib.internal.Status;

/** A bad argument: wrong length, negative count, bad flag, bad configuration, heap segment ({@code WX_ERR_INVALID_ARGUMENT}). */
public class InvalidArgumentException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public InvalidArgumentException(String message) {
    super(Status.INVALID_ARGUMENT, message);
  }

  public InvalidArgumentException(String message, Throwable cause) {
    super(Status.INVALID_ARGUMENT, message, cause);
  }
}
