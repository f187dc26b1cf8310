package org.wixlib.internal;

import java.util.Map;
import java.util.function.Function;
import org.wixlib.CudaException;
import org.wixlib.DeviceOutOfMemoryException;
import org.wixlib.HostOutOfMemoryException;
import org.wixlib.InvalidArgumentException;
import org.wixlib.InvalidKeyException;
import org.wixlib.NoDeviceException;
import org.wixlib.TableFullException;
import org.wixlib.UnsupportedKindException;
import org.wixlib.WixlibException;
import org.wixlib.internal.ffi.wixlib_h;

/** Native status codes ({@code wx_status}, from the generated bindings) and their exceptions. */
public final class Status {
  static {
    NativeAccess.check();  // before the bindings initialize
  }

  public static final int OK = wixlib_h.WX_OK();
  public static final int INVALID_ARGUMENT = wixlib_h.WX_ERR_INVALID_ARGUMENT();
  public static final int INVALID_KEY = wixlib_h.WX_ERR_INVALID_KEY();
  public static final int OUT_OF_MEMORY = wixlib_h.WX_ERR_OUT_OF_MEMORY();
  public static final int NO_DEVICE = wixlib_h.WX_ERR_NO_DEVICE();
  public static final int CUDA = wixlib_h.WX_ERR_CUDA();
  public static final int FULL = wixlib_h.WX_ERR_FULL();
  public static final int UNSUPPORTED = wixlib_h.WX_ERR_UNSUPPORTED();
  public static final int INTERNAL = wixlib_h.WX_ERR_INTERNAL();

  /** The codes and the names native wx_status_name() gives them (a test keeps them equal). */
  private static final Map<Integer, String> NAMES = Map.of(
      OK, "OK", INVALID_ARGUMENT, "INVALID_ARGUMENT", INVALID_KEY, "INVALID_KEY",
      OUT_OF_MEMORY, "OUT_OF_MEMORY", NO_DEVICE, "NO_DEVICE", CUDA, "CUDA_ERROR", FULL, "FULL",
      UNSUPPORTED, "UNSUPPORTED", INTERNAL, "INTERNAL");

  /** The exception type of each failure status (other codes: a plain WixlibException). */
  private static final Map<Integer, Function<String, WixlibException>> EXCEPTIONS = Map.of(
      INVALID_ARGUMENT, InvalidArgumentException::new, INVALID_KEY, InvalidKeyException::new,
      OUT_OF_MEMORY, DeviceOutOfMemoryException::new, NO_DEVICE, NoDeviceException::new,
      CUDA, CudaException::new, FULL, TableFullException::new, UNSUPPORTED, UnsupportedKindException::new);

  private Status() {}

  /**
   * The name of a status code as wx_status_name() gives it ("FULL", "CUDA_ERROR", ...); -1 (a failure
   * to load the library, found on the Java side) is {@code "NATIVE_LIBRARY"}.
   */
  public static String name(int status) {
    if (status == -1) {
      return "NATIVE_LIBRARY";
    }
    return NAMES.getOrDefault(status, "UNKNOWN_STATUS");
  }

  /**
   * The exception of a failure of a CPU-kind table or join, whose memory is all host memory: an
   * OUT_OF_MEMORY becomes a HostOutOfMemoryException with the same message; others are returned as
   * they are.
   */
  public static RuntimeException onHost(RuntimeException e) {
    return e instanceof DeviceOutOfMemoryException ? new HostOutOfMemoryException(e.getMessage()) : e;
  }

  /** The exception of a non-OK status, with the native message (may be empty). */
  public static WixlibException toException(int status, String message) {
    String text = name(status) + (NAMES.containsKey(status) ? "" : " " + status)
        + (message == null || message.isEmpty() ? "" : ": " + message);
    return EXCEPTIONS.getOrDefault(status, t -> new WixlibException(status, t)).apply(text);
  }
}
