package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

class JoinKindsTest {
  @Test
  void cpuAndWideKeys() {
    assertEquals(new JoinKinds.Choice(TableKind.CPU, 32), JoinKinds.resolve(" CPU ", false));
    assertEquals(new JoinKinds.Choice(TableKind.CPU, 64), JoinKinds.resolve("cpu", true));
    // The GPU kinds take 32-bit keys: 64-bit build keys run on the CPU kind.
    assertEquals(new JoinKinds.Choice(TableKind.CPU, 64), JoinKinds.resolve("glht", true));
    assertEquals(new JoinKinds.Choice(TableKind.CPU, 64), JoinKinds.resolve("auto", true));
  }

  @Test
  void autoIsGlhtWhereAvailable() {
    TableKind expected = Wixlib.isAvailable(TableKind.GLHT) ? TableKind.GLHT : TableKind.CPU;
    assertEquals(new JoinKinds.Choice(expected, 32), JoinKinds.resolve("auto", false));
    assertEquals(new JoinKinds.Choice(expected, 32), JoinKinds.resolve(null, false));
  }

  @Test
  void aNamedGpuKindWithoutAGpuFailsWithTheReason() {
    assumeFalse(Wixlib.isAvailable(TableKind.HIVE), "a GPU is usable here");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> JoinKinds.resolve("hive", false));
    assertTrue(e.getMessage().contains(Wixlib.unavailableReason(TableKind.HIVE).orElseThrow()), e.getMessage());
  }

  @Test
  void unknownKindsAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JoinKinds.resolve("gpu", false));
    assertTrue(e.getMessage().contains(WixlibJoins.KIND), e.getMessage());
  }
}
