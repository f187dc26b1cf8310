package org.wixlib;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.wixlib.internal.Native;

/**
 * Where a table's (or join's) shards live: the builders' {@code shards(n)} / {@code devices(...)} /
 * {@code device(d)} settings turned into the wx_config fields, and what a built table reports about
 * them ({@link HashTable#shards()}, {@link HashTable#devices()}, the devices its buffers may live on).
 *
 * <p>Defaults: no {@code shards} means one shard per listed device, or one shard without a device list.
 * Shard i lives on {@code devices[i % devices.length]}; without a device list every shard of a GPU
 * table lives on {@code device}. The native {@code device} field is set to the first listed device, so
 * a build of the library without sharding still places the table where the caller asked.
 */
final class Sharding {
  /** The shard count. */
  final int shards;
  /** The devices listed (wx_config devices), null when none was. */
  private final int[] listed;
  /** The device of a GPU table's first shard (wx_config device). */
  final int device;
  /** The table's devices: those listed, or the one device (empty on the CPU kind). */
  final List<Integer> used;

  private Sharding(int shards, int[] listed, int device, List<Integer> used) {
    this.shards = shards;
    this.listed = listed;
    this.device = device;
    this.used = used;
  }

  /**
   * The layout of a new table or join of {@code kind}: null settings were not given. GPU kinds: every
   * listed device must exist here (with no device at all, creating the table throws
   * {@link NoDeviceException} instead). The CPU kind keeps its shards in host memory: a device list
   * is refused there ({@link #CPU_DEVICES}).
   */
  static Sharding of(TableKind kind, Integer device, Integer shards, int[] devices) {
    int count = shards != null ? shards : devices != null ? devices.length : 1;
    if (devices == null) {
      int d = device == null ? 0 : device;
      return new Sharding(count, null, d, kind.isGpu() ? List.of(d) : List.of());
    }
    if (!kind.isGpu()) {
      throw new InvalidArgumentException(CPU_DEVICES);
    }
    requireExisting(devices);
    List<Integer> used = new ArrayList<>();
    for (int d : devices) {
      used.add(d);
    }
    return new Sharding(count, devices.clone(), devices[0], List.copyOf(used));
  }

  /** Why the CPU kind takes no device list. */
  static final String CPU_DEVICES = "devices apply to GPU kinds (GLHT, Hive): the cpu kind keeps its shards in"
      + " host memory; set shards(n) alone";

  /** Every listed device exists, when the machine has any (none: the library reports no device). */
  private static void requireExisting(int[] devices) {
    int count = Native.deviceCount();
    if (count == 0) {
      return;
    }
    for (int d : devices) {
      if (d >= count) {
        throw new InvalidArgumentException("device " + d + " does not exist: this machine has " + count
            + " CUDA device" + (count == 1 ? " (0)" : "s (0.." + (count - 1) + ")"));
      }
    }
  }

  /** The wx_config fields of this layout. */
  Native.Placement placement() {
    return new Native.Placement(shards, listed);
  }

  /** Whether a device buffer on {@code device} may be passed to this GPU table. */
  boolean holds(int device) {
    return used.contains(device);
  }

  /** "device 0" or "devices [0, 1]", for messages. */
  String where() {
    return used.size() == 1 ? "device " + used.get(0) : "devices " + used;
  }

  @Override
  public String toString() {
    return shards + " shard(s) on " + (listed == null ? "device " + device : Arrays.toString(listed));
  }
}
