package org.wixlib;

import org.wixlib.internal.Status;

/**
 * A host memory allocation of the CPU kind failed ({@code WX_ERR_OUT_OF_MEMORY} from a CPU table or
 * join); the table is intact. GPU kinds report theirs as {@link DeviceOutOfMemoryException}.
 */
public class HostOutOfMemoryException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public HostOutOfMemoryException(String message) {
    super(Status.OUT_OF_MEMORY, message);
  }
}
