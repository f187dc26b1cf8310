package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/** Where a benchmark's keys, values and results live: the memory path of its bulk calls. */
public enum MemoryPath {
  /** Java arrays: a GPU table copies them through its page-locked staging buffers. */
  HEAP("int[]/long[] arrays"),
  /** Ordinary native segments: copied through the staging buffers like arrays. */
  NATIVE("ordinary native MemorySegments from an Arena"),
  /** Page-locked segments: a GPU table moves them by DMA without a staging copy. */
  PINNED("page-locked MemorySegments from PinnedMemory.allocate (ordinary native memory without a GPU)"),
  /** Device buffers: nothing crosses the link; timed by the library's CUDA events. */
  DEVICE("DeviceBuffers resident on the GPU (kernel time only)");

  /** What the path holds (no commas: reports join lists with them). */
  public final String description;

  MemoryPath(String description) {
    this.description = description;
  }

  /** The name people type: heap, native, pinned, device. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Rows of this path are the library's device time (CUDA events), not the wall time of the Java call. */
  boolean kernelTimed() {
    return this == DEVICE;
  }

  /** Only GPU kinds have it. */
  boolean needsGpu() {
    return this == DEVICE;
  }

  /** A placement of arrays in this path's memory (device buffers on the given device). */
  Placement open(int device) {
    return switch (this) {
      case HEAP -> new Placement.Heap();
      case NATIVE -> Placement.Segments.ordinary();
      case PINNED -> Placement.Segments.pageLocked();
      case DEVICE -> new Placement.Device(device);
    };
  }

  /** The default paths: heap and, when a GPU kind runs, device. */
  static List<MemoryPath> defaults(boolean anyGpu) {
    return anyGpu ? List.of(HEAP, DEVICE) : List.of(HEAP);
  }

  /** The paths named (each once, in the order given); "all" = every path. */
  static List<MemoryPath> parse(List<String> names) {
    LinkedHashSet<MemoryPath> out = new LinkedHashSet<>();
    for (String raw : names) {
      String s = raw.trim().toLowerCase(Locale.ROOT);
      if (s.equals("all")) {
        out.addAll(List.of(values()));
        continue;
      }
      MemoryPath found = null;
      for (MemoryPath p : values()) {
        if (p.id().equals(s)) {
          found = p;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException("unknown memory path '" + raw + "' (expected heap, native, pinned,"
            + " device or all)");
      }
      out.add(found);
    }
    return new ArrayList<>(out);
  }
}
