package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.wixlib.internal.ffi.wixlib_h;

/** The Java constants equal the header's (through the generated bindings). */
class TypesTest {

  @Test
  void outcomeConstantsMatchTheHeader() {
    Wixlib.load();
    assertEquals(wixlib_h.WX_OUT_NONE(), Outcome.NONE);
    assertEquals(wixlib_h.WX_OUT_INSERTED(), Outcome.INSERTED);
    assertEquals(wixlib_h.WX_OUT_PRESENT(), Outcome.PRESENT);
    assertEquals(wixlib_h.WX_OUT_ASSIGNED(), Outcome.ASSIGNED);
    assertEquals(wixlib_h.WX_OUT_FOUND(), Outcome.FOUND);
    assertEquals(wixlib_h.WX_OUT_NOT_FOUND(), Outcome.NOT_FOUND);
    assertEquals(wixlib_h.WX_OUT_ERASED(), Outcome.ERASED);
    assertEquals(wixlib_h.WX_OUT_FULL(), Outcome.FULL);
    assertEquals(wixlib_h.WX_OUT_INVALID_KEY(), Outcome.INVALID_KEY);
    assertEquals("INVALID_KEY", Outcome.name(Outcome.INVALID_KEY));
    assertEquals("UNKNOWN(200)", Outcome.name((byte) 200));
  }

  @Test
  void opKindGrowConstantsMatchTheHeader() {
    assertEquals(wixlib_h.WX_OP_INSERT(), Op.INSERT);
    assertEquals(wixlib_h.WX_OP_ERASE(), Op.ERASE);
    assertEquals(wixlib_h.WX_OP_FIND(), Op.FIND);
    assertEquals(wixlib_h.WX_OP_INSERT_OR_ASSIGN(), Op.INSERT_OR_ASSIGN);
    assertTrue(Op.isValid(Op.INSERT_OR_ASSIGN));
    assertFalse(Op.isValid((byte) 4));
    assertFalse(Op.isValid((byte) -1));
    assertEquals(wixlib_h.WX_KIND_CPU(), TableKind.CPU.code());
    assertEquals(wixlib_h.WX_KIND_GLHT(), TableKind.GLHT.code());
    assertEquals(wixlib_h.WX_KIND_HIVE(), TableKind.HIVE.code());
    assertEquals(wixlib_h.WX_GROW_AUTO(), GrowPolicy.AUTO.code());
    assertEquals(wixlib_h.WX_GROW_NEVER(), GrowPolicy.NEVER.code());
    assertEquals(wixlib_h.WX_KEY32_EMPTY(), HashTable.EMPTY_KEY);
    assertEquals(wixlib_h.WX_KEY32_TOMBSTONE(), HashTable.TOMBSTONE_KEY);
    assertEquals(wixlib_h.WX_MEM_HOST(), org.wixlib.internal.Native.MEM_HOST);
    assertEquals(wixlib_h.WX_MEM_DEVICE(), org.wixlib.internal.Native.MEM_DEVICE);
    assertEquals(wixlib_h.WX_JOIN_UNIQUE(), Join.Build.UNIQUE.code());
    assertEquals(wixlib_h.WX_JOIN_MULTI(), Join.Build.MULTI.code());
  }

  @Test
  void tableKindParsing() {
    assertEquals(TableKind.HIVE, TableKind.parse(" hive "));
    assertEquals(TableKind.GLHT, TableKind.parse("GLHT"));
    assertEquals(TableKind.CPU, TableKind.fromCode(0));
    assertThrows(InvalidArgumentException.class, () -> TableKind.parse("cuckoo"));
    assertThrows(InvalidArgumentException.class, () -> TableKind.fromCode(3));
    assertFalse(TableKind.CPU.isGpu());
    assertTrue(TableKind.HIVE.isGpu());
  }

  @Test
  void infoIsConsistent() {
    Wixlib.Info info = Wixlib.info();
    assertTrue(info.javaApiVersion().matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), info.javaApiVersion());
    // The native version is the build id: the jar's version (less -SNAPSHOT) and a hash of the sources.
    assertTrue(info.nativeVersion().startsWith(info.javaApiVersion().replace("-SNAPSHOT", "") + "+"),
        info.nativeVersion());
    assertTrue(info.availableKinds().contains(TableKind.CPU));
    for (TableKind k : TableKind.values()) {
      assertEquals(Wixlib.isAvailable(k), info.availableKinds().contains(k), k.name());
    }
    for (TableKind k : TableKind.values()) {
      String why = info.unavailableReasons().get(k);
      assertEquals(info.availableKinds().contains(k), why == null, k + ": a reason iff unavailable");
      assertEquals(Wixlib.unavailableReason(k).orElse(null), why, k.name());
      assertTrue(why == null || !why.isBlank(), k.name());
    }
    boolean gpu = Wixlib.isAvailable(TableKind.GLHT);
    // A listed device may be too old for the build, so only one way round.
    assertTrue(!gpu || !info.devices().isEmpty(), "a GPU kind is available only with a device");
    for (Wixlib.DeviceInfo d : info.devices()) {
      assertTrue(d.totalBytes() > 0 && d.freeBytes() <= d.totalBytes(), d.toString());
      assertTrue(d.computeCapability() >= 30 && d.multiprocessors() > 0, d.toString());
      assertFalse(d.name().isBlank());
    }
    if (gpu) {
      assertTrue(info.cudaRuntimeVersion() > 0, "runtime version");
    }
    assertTrue(Wixlib.libraryLocation() != null);
  }

  @Test
  void anUnavailableGpuKindSaysWhyAndTablesOfItAreRefusedWithTheSameReason() {
    org.junit.jupiter.api.Assumptions.assumeFalse(Wixlib.isAvailable(TableKind.GLHT), "a usable GPU is present");
    String why = Wixlib.unavailableReason(TableKind.GLHT).orElseThrow();
    assertEquals(why, Wixlib.unavailableReason(TableKind.HIVE).orElseThrow());
    boolean cudaBuild = Wixlib.info().cudaRuntimeVersion() != 0;
    if (!cudaBuild) {
      assertEquals("this build of wixlib has no CUDA support", why);
    }
    for (TableKind k : new TableKind[] {TableKind.GLHT, TableKind.HIVE}) {
      NoDeviceException e = assertThrows(NoDeviceException.class, () -> HashTable.builder().kind(k).build());
      assertTrue(e.getMessage().contains(cudaBuild ? why : "CUDA"), e.getMessage());
    }
    assertEquals(Optional.empty(), Wixlib.unavailableReason(TableKind.CPU));
  }

  @Test
  void deviceCallsWithoutAGpuThrowNoDevice() {
    org.junit.jupiter.api.Assumptions.assumeTrue(Wixlib.devices().isEmpty(), "a CUDA device is present");
    NoDeviceException e = assertThrows(NoDeviceException.class, () -> DeviceBuffer.allocate(0, 64));
    assertEquals("NO_DEVICE", e.statusName());
    assertThrows(NoDeviceException.class, () -> HashTable.builder().kind(TableKind.HIVE).build());
    assertThrows(NoDeviceException.class, () -> HashTable.builder().kind(TableKind.GLHT).build());
    try (DeviceBuffer empty = DeviceBuffer.allocate(0, 0)) {
      assertEquals(0, empty.byteSize());
    }
  }
}
