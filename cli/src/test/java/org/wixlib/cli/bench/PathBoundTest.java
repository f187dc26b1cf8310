package org.wixlib.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.wixlib.LinkRates;

/** The bound model: bytes per op and the bound of each memory path, by hand-computed cases. */
class PathBoundTest {
  /** A PCIe 5 x16 host with 16 staging threads: 54.8 / 54.9 GB/s one way, 90.5 both, host copy 42.4. */
  static final LinkRates H200 = new LinkRates(54.8, 54.9, 90.5, 42.4, 16, 42.4, 16);

  @Test
  void trafficPerOpAndWidth() {
    assertEquals(new PathBound.Traffic(8, 1), PathBound.Traffic.of("insert", 32));
    assertEquals(new PathBound.Traffic(4, 4), PathBound.Traffic.of("find_present", 32));
    assertEquals(new PathBound.Traffic(4, 4), PathBound.Traffic.of("find_absent", 32));
    assertEquals(new PathBound.Traffic(4, 1), PathBound.Traffic.of("erase", 32));
    assertEquals(new PathBound.Traffic(16, 1), PathBound.Traffic.of("insert", 64));
    assertEquals(new PathBound.Traffic(8, 8), PathBound.Traffic.of("find_present", 64));
    assertEquals(new PathBound.Traffic(8, 1), PathBound.Traffic.of("erase", 64));
    assertEquals(new PathBound.Traffic(9, 5), PathBound.Traffic.of("mixed_20/20/60", 32));
    assertThrows(IllegalArgumentException.class, () -> PathBound.Traffic.of("grow_insert", 32));
  }

  @Test
  void pinnedIsTheSlowestDirectionOfTheDma() {
    // insert 32-bit: 8 B in at 54.8 (0.146 ns) is slower than 1 B out (0.018) and 9 B both ways (0.099).
    assertEquals(54.8 / 8, PathBound.gops(MemoryPath.PINNED, PathBound.Traffic.of("insert", 32), H200, null), 1e-12);
    // find: 8 B over both directions at once (0.0884 ns) is slower than 4 B either way alone.
    assertEquals(90.5 / 8, PathBound.gops(MemoryPath.PINNED, PathBound.Traffic.of("find_present", 32), H200, null),
        1e-12);
    // A slow device-to-host link makes the results the bound.
    LinkRates slowBack = new LinkRates(50, 2, 60, 40, 8, 40, 8);
    assertEquals(2.0 / 4, PathBound.gops(MemoryPath.PINNED, PathBound.Traffic.of("find_absent", 32), slowBack, null),
        1e-12);
  }

  @Test
  void heapAndNativeAddTheHostCopyOverlappedWithTheDma() {
    // insert 32-bit: host copy of 9 B at 42.4 (0.212 ns) is slower than the DMA (0.146 ns).
    for (MemoryPath p : List.of(MemoryPath.HEAP, MemoryPath.NATIVE)) {
      assertEquals(42.4 / 9, PathBound.gops(p, PathBound.Traffic.of("insert", 32), H200, null), 1e-12);
      assertEquals(42.4 / 16, PathBound.gops(p, PathBound.Traffic.of("find_present", 64), H200, null), 1e-12);
    }
    // A fast host copy leaves the DMA as the bound: the two overlap, they do not add up.
    LinkRates fastCopy = new LinkRates(54.8, 54.9, 90.5, 400, 16, 400, 16);
    assertEquals(54.8 / 8, PathBound.gops(MemoryPath.HEAP, PathBound.Traffic.of("insert", 32), fastCopy, null), 1e-12);
  }

  @Test
  void deviceIsItsOwnKernelRate() {
    assertEquals(12.0, PathBound.gops(MemoryPath.DEVICE, PathBound.Traffic.of("insert", 32), H200, 12.0));
    assertEquals(12.0, PathBound.gops(MemoryPath.DEVICE, PathBound.Traffic.of("insert", 32), null, 12.0));
    assertNull(PathBound.gops(MemoryPath.DEVICE, PathBound.Traffic.of("insert", 32), H200, null));
    assertEquals(100.0, PathBound.percent(12_000.0, 12.0), 1e-9);
  }

  @Test
  void theKernelCapsTheHostPaths() {
    PathBound.Traffic erase = PathBound.Traffic.of("erase", 32);
    // pinned erase: 4 B in at 54.8 gives 13.7 G/s; a 10.7 G/s kernel is the bound.
    assertEquals(10.7, PathBound.gops(MemoryPath.PINNED, erase, H200, 10.7), 1e-12);
    assertEquals(54.8 / 4, PathBound.gops(MemoryPath.PINNED, erase, H200, null), 1e-12);
    // A kernel faster than the link leaves the link as the bound.
    assertEquals(54.8 / 4, PathBound.gops(MemoryPath.PINNED, erase, H200, 30.0), 1e-12);
    // heap: the host copy (5 B at 42.4 = 8.48 G/s) is below a 10.7 kernel; a 5.0 kernel caps it.
    assertEquals(42.4 / 5, PathBound.gops(MemoryPath.HEAP, erase, H200, 10.7), 1e-12);
    assertEquals(5.0, PathBound.gops(MemoryPath.HEAP, erase, H200, 5.0), 1e-12);
    // Over several devices the kernel caps the summed links too.
    assertEquals(10.7, PathBound.gopsOver(MemoryPath.PINNED, erase, List.of(H200, H200), 10.7), 1e-12);
  }

  @Test
  void noRatesNoBound() {
    assertNull(PathBound.gops(MemoryPath.HEAP, PathBound.Traffic.of("insert", 32), null, null));
    assertNull(PathBound.gops(MemoryPath.PINNED, PathBound.Traffic.of("insert", 32), new LinkRates(0, 1, 1, 1, 1, 1, 1),
        null));
    assertNull(PathBound.gops(MemoryPath.NATIVE, PathBound.Traffic.of("insert", 32), new LinkRates(1, 1, 1, 0, 1, 0, 1),
        null));
    // pinned needs no host copy rate.
    assertEquals(1.0 / 8, PathBound.gops(MemoryPath.PINNED, PathBound.Traffic.of("insert", 32),
        new LinkRates(1, 1, 100, 0, 1, 0, 1), null), 1e-12);
  }

  @Test
  void percentOfBound() {
    assertEquals(50.0, PathBound.percent(2350.0, 4.7), 1e-9);
    assertNull(PathBound.percent(null, 4.7));
    assertNull(PathBound.percent(2350.0, null));
    assertNull(PathBound.percent(2350.0, 0.0));
  }

  @Test
  void memoryPathNames() {
    assertEquals(List.of(MemoryPath.PINNED, MemoryPath.HEAP), MemoryPath.parse(List.of("pinned", " HEAP", "pinned")));
    assertEquals(List.of(MemoryPath.values()), MemoryPath.parse(List.of("all")));
    assertEquals(List.of(MemoryPath.HEAP, MemoryPath.DEVICE), MemoryPath.defaults(true));
    assertEquals(List.of(MemoryPath.HEAP), MemoryPath.defaults(false));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryPath.parse(List.of("gpu")));
    assertEquals("unknown memory path 'gpu' (expected heap, native, pinned, device or all)", e.getMessage());
  }
}
