package org.wixlib;

import org.wixlib.internal.Status;

/**
 * A reserved key (0xFFFFFFFF or 0xFFFFFFFE, i.e. -1 or -2 as int) was given to a call that changes
 * the table ({@code WX_ERR_INVALID_KEY}); lookups answer "not found" for such keys instead. The
 * array overloads of {@link HashTable} throw it before anything is applied and {@link #index()} names
 * the first offending element; the segment and buffer overloads throw it after the call (the other
 * elements were applied), naming the element where the keys are host memory and -1 otherwise.
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
