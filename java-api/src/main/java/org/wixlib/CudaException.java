package org.wixlib;

import org.wixlib.internal.Status;

/** A CUDA call failed ({@code WX_ERR_CUDA}). */
public class CudaException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public CudaException(String message) {
    super(Status.CUDA, message);
  }

  public CudaException(String message, Throwable cause) {
    super(Status.CUDA, message, cause);
  }
}
