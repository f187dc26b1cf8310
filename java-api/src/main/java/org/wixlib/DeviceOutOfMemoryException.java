package org.wixlib;

import org.wixlib.internal.Status;

/** A host or device allocation failed; the table is intact ({@code WX_ERR_OUT_OF_MEMORY}). */
public class DeviceOutOfMemoryException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public DeviceOutOfMemoryException(String message) {
    super(Status.OUT_OF_MEMORY, message);
  }

  public DeviceOutOfMemoryException(String message, Throwable cause) {
    super(Status.OUT_OF_MEMORY, message, cause);
  }
}
