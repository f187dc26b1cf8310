package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.wixlib.CudaException;
import org.wixlib.DeviceOutOfMemoryException;
import org.wixlib.InvalidArgumentException;
import org.wixlib.InvalidKeyException;
import org.wixlib.NativeLibraryException;
import org.wixlib.NoDeviceException;
import org.wixlib.TableFullException;
import org.wixlib.UnsupportedKindException;
import org.wixlib.WixlibException;
import org.wixlib.internal.ffi.wixlib_h;

class StatusTest {

  @Test
  void everyStatusMapsToItsException() {
    Object[][] cases = {
      {Status.INVALID_ARGUMENT, InvalidArgumentException.class},
      {Status.INVALID_KEY, InvalidKeyException.class},
      {Status.OUT_OF_MEMORY, DeviceOutOfMemoryException.class},
      {Status.NO_DEVICE, NoDeviceException.class},
      {Status.CUDA, CudaException.class},
      {Status.FULL, TableFullException.class},
      {Status.UNSUPPORTED, UnsupportedKindException.class},
      {Status.INTERNAL, WixlibException.class},
      {42, WixlibException.class},
    };
    for (Object[] c : cases) {
      int status = (Integer) c[0];
      WixlibException e = Status.toException(status, "the message");
      assertSame(c[1], e.getClass(), "status " + status);
      assertEquals(status, e.status());
      assertEquals(Status.name(status), e.statusName());
      assertTrue(e.getMessage().startsWith(Status.name(status)), e.getMessage());
      assertTrue(e.getMessage().endsWith(": the message"), e.getMessage());
    }
    assertEquals("UNKNOWN_STATUS 42", Status.toException(42, "").getMessage());
    assertEquals("NATIVE_LIBRARY", new NativeLibraryException("x").statusName());
    assertEquals(-1, new NativeLibraryException("x").status());
  }

  @Test
  void statusCodesAndNamesMatchTheNativeLibrary() {
    Native.ensureLoaded();
    int[] header = {
      wixlib_h.WX_OK(), wixlib_h.WX_ERR_INVALID_ARGUMENT(), wixlib_h.WX_ERR_INVALID_KEY(),
      wixlib_h.WX_ERR_OUT_OF_MEMORY(), wixlib_h.WX_ERR_NO_DEVICE(), wixlib_h.WX_ERR_CUDA(),
      wixlib_h.WX_ERR_FULL(), wixlib_h.WX_ERR_UNSUPPORTED(), wixlib_h.WX_ERR_INTERNAL(),
    };
    int[] java = {
      Status.OK, Status.INVALID_ARGUMENT, Status.INVALID_KEY, Status.OUT_OF_MEMORY, Status.NO_DEVICE,
      Status.CUDA, Status.FULL, Status.UNSUPPORTED, Status.INTERNAL,
    };
    for (int i = 0; i < java.length; i++) {
      assertEquals(header[i], java[i]);
      assertEquals(Native.statusName(java[i]), Status.name(java[i]), "name of status " + java[i]);
    }
    assertEquals(Native.statusName(99), Status.name(99));
  }

  @Test
  void nativeMessagesReachTheException() {
    // A real failing native call: the message is this thread's wx_last_error().
    InvalidArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        InvalidArgumentException.class, () -> Native.tableCreate(
            new Native.Config(0, 1L << 40, null, null, null, null, null)));
    assertTrue(e.getMessage().contains("2^36"), e.getMessage());
    UnsupportedKindException u = org.junit.jupiter.api.Assertions.assertThrows(
        UnsupportedKindException.class, () -> Native.check(Status.UNSUPPORTED));
    assertEquals(Status.UNSUPPORTED, u.status());
  }
}
