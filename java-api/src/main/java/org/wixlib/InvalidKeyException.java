package org.wixlib;

import org.wixlib.internal.Status;

/**
 * A reserved key (0xFFFFFFFF or 0xFFFFFFFE, i.e. -1 or -2 as int) was given to a call that changes
 * the table ({@code WX_ERR_INVALID_KEY}); lookups answer "not found" for such keys instead.
 * {@link HashTable} throws it after the call, whose other elements were applied (a call given an
 * outcomes array reports {@link Outcome#INVALID_KEY} there instead). {@link #index()} names the first
 * offending element where the keys are host memory (arrays, segments); -1 for device buffers.
 */
public class InvalidKeyException extends WixlibException {
  private static final long serialVersionUID = 1L;

  private final long index;

  public InvalidKeyException(String message) {
    this(message, -1);
  }

  public InvalidKeyException(String message, long index) {
    super(Status.INVALID_KEY, message);
    this.index = index;
  }

  /** Index of the first reserved key, or -1 when not known. */
  public long index() {
    return index;
  }
}
