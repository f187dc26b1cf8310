package org.wixlib;

import java.io.IOException;

/** A file that is not a readable wixlib snapshot: foreign, truncated, corrupt or of an unknown version. */
public class SnapshotFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public SnapshotFormatException(String message) {
    super(message);
  }
}
