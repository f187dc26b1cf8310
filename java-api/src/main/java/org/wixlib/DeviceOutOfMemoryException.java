package org.wixlib;

import org.wixlib.internal.Status;

/**
 * An allocation of a GPU kind failed: device memory, or the page-locked host buffers that stage its
 * copies ({@code WX_ERR_OUT_OF_MEMORY}); the table is intact. The CPU kind reports running out of
 * host memory as {@link HostOutOfMemoryException}.
 */
public class DeviceOutOfMemoryException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public DeviceOutOfMemoryException(String message) {
    super(Status.OUT_OF_MEMORY, message);
  }

  public DeviceOutOfMemoryException(String message, Throwable cause) {
    super(Status.OUT_OF_MEMORY, message, cause);
  }
}
