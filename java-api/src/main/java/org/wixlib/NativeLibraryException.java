package org.wixlib;

/** libwixlib.so could not be found or loaded, or its version does not match this jar. */
public class NativeLibraryException extends WixlibException {
  private static final long serialVersionUID = 1L;

  public NativeLibraryException(String message) {
    super(-1, message);
  }

  public NativeLibraryException(String message, Throwable cause) {
    super(-1, message, cause);
  }
}
