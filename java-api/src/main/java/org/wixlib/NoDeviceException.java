package org.wixlib;

import org.wixlib.internal.Status;

/** No CUDA device or driver, or the library was built without CUDA ({@code WX_ERR_NO_DEVICE}). */
public class NoDeviceException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public NoDeviceException(String message) {
    super(Status.NO_DEVICE, message);
  }

  public NoDeviceException(String message, Throwable cause) {
    super(Status.NO_DEVICE, message, cause);
  }
}
