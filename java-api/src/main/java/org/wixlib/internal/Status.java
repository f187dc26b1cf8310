package org.wixlib.internal;

import org.wixlib.CudaException;
import org.wixlib.DeviceOutOfMemoryException;
import org.wixlib.InvalidArgumentException;
import org.wixlib.InvalidKeyException;
import org.wixlib.NoDeviceException;
import org.wixlib.TableFullException;
import org.wixlib.UnsupportedKindException;
import org.wixlib.WixlibException;

/** Native status codes ({@code wx_status}) and their exceptions. */
public final class Status {
  public static final int OK = 0;
  public static final int INVALID_ARGUMENT = 1;
  public static final int INVALID_KEY = 2;
  public static final int OUT_OF_MEMORY = 3;
  public static final int NO_DEVICE = 4;
  public static final int CUDA = 5;
  public static final int FULL = 6;
  public static final int UNSUPPORTED = 7;
  public static final int INTERNAL = 8;

  /** The same names as the native wx_status_name() (a test keeps them equal). */
  private static final String[] NAMES = {
    "OK", "INVALID_ARGUMENT", "INVALID_KEY", "OUT_OF_MEMORY", "NO_DEVICE", "CUDA_ERROR", "FULL",
    "UNSUPPORTED", "INTERNAL"
  };

  private Status() {}

  /**
   * The name of a status code as wx_status_name() gives it ("FULL", "CUDA_ERROR", ...); -1 (a failure
   * to load the library, found on the Java side) is {@code "NATIVE_LIBRARY"}.
   */
  public static String name(int status) {
    if (status == -1) {
      return "NATIVE_LIBRARY";
    }
    return status >= 0 && status < NAMES.length ? NAMES[status] : "UNKNOWN_STATUS";
  }

  /** The exception of a non-OK status, with the native message (may be empty). */
  public static WixlibException toException(int status, String message) {
    String text = name(status) + (status >= 0 && status < NAMES.length ? "" : " " + status)
        + (message == null || message.isEmpty() ? "" : ": " + message);
    return switch (status) {
      case INVALID_ARGUMENT -> new InvalidArgumentException(text);
      case INVALID_KEY -> new InvalidKeyException(text);
      case OUT_OF_MEMORY -> new DeviceOutOfMemoryException(text);
      case NO_DEVICE -> new NoDeviceException(text);
      case CUDA -> new CudaException(text);
      case FULL -> new TableFullException(text);
      case UNSUPPORTED -> new UnsupportedKindException(text);
      default -> new WixlibException(status, text);
    };
  }
}
