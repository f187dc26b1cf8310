package org.wixlib;

import org.wixlib.internal.Status;

/**
 * Some inserts could not be placed (growth disabled, or no memory to grow) ({@code WX_ERR_FULL}).
 * The table stays valid and holds everything else. Thrown only when the caller passed no outcomes
 * array; with one, {@link Outcome#FULL} elements are a result.
 */
public class TableFullException extends WixlibException {
  private static final long serialVersionUID = 1L;

  private final long count;

  public TableFullException(String message) {
    this(message, -1);
  }

  public TableFullException(String message, long count) {
    super(Status.FULL, message);
    this.count = count;
  }

  /** Number of elements that were not placed, or -1 when not known. */
  public long count() {
    return count;
  }
}
