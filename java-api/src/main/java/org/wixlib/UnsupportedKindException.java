package org.wixlib;

import org.wixlib.internal.Status;

/** A valid request that this table kind or build does not support ({@code WX_ERR_UNSUPPORTED}). */
public class UnsupportedKindException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public UnsupportedKindException(String message) {
    super(Status.UNSUPPORTED, message);
  }

  public UnsupportedKindException(String message, Throwable cause) {
    super(Status.UNSUPPORTED, message, cause);
  }
}
