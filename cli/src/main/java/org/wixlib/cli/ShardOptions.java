package org.wixlib.cli;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.wixlib.HashTable;
import org.wixlib.Join;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Mixin: how a command's tables are sharded (--shards) and over which GPUs (--devices). */
public final class ShardOptions {
  @Option(
      names = "--shards",
      paramLabel = "N",
      description = {"Split each table into N shards (1 to 256; default 1, or one per --devices entry) by a hash"
          + " of the key: every call is split per shard, the shards run at once, results come back in order.",
          "Pays when a table outgrows one GPU or the calls need more than one GPU or PCIe link (with --devices);"
          + " on one device, shards let a large table grow in smaller steps."})
  public Integer shards;

  @Option(
      names = "--devices",
      paramLabel = "D,D",
      split = ",",
      description = "GPU kinds: spread the shards over these CUDA devices, shard i on the i-th mod their count"
          + " (e.g. 0,1; replaces --device). Host arrays then cross every device's own PCIe link.")
  public List<Integer> devices;

  /** --devices as an array, or null when not given. */
  public int[] devicesArray() {
    return devices == null ? null : devices.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The device of a GPU table's first shard: the first of --devices, else {@code device}. */
  public int firstDevice(int device) {
    return devices == null || devices.isEmpty() ? device : devices.get(0);
  }

  /** --shards or --devices was given. */
  public boolean sharded() {
    return shards != null || devices != null;
  }

  /**
   * Checks --shards and --devices for the kinds a command runs: a malformed value, or --devices with no
   * GPU kind, is a usage error (exit 2); --devices on a machine without GPUs, or naming one that does
   * not exist, is {@link KindUnavailableException} (exit 3).
   */
  public void check(CommandSpec spec, List<TableKind> kinds) {
    if (shards != null) {
      TableOptions.check(spec, "--shards", b -> b.shards(shards));
    }
    if (devices == null) {
      return;
    }
    TableOptions.check(spec, "--devices", b -> b.devices(devicesArray()));
    int count = Wixlib.devices().size();
    if (count == 0) {
      throw new KindUnavailableException("--devices places shards on GPUs, but none can be used here: "
          + Wixlib.unavailableReason(TableKind.GLHT).orElse("no CUDA device was found"));
    }
    for (int d : devices) {
      if (d >= count) {
        throw new KindUnavailableException("--devices: CUDA device " + d + " does not exist (" + count + " device(s))");
      }
    }
    if (kinds.stream().noneMatch(TableKind::isGpu)) {
      throw new ParameterException(spec.commandLine(), "--devices places shards on GPUs; the cpu kind keeps its"
          + " shards in host memory: give --shards alone, or a GPU --kind");
    }
  }

  /** Where a table of {@code kind} lives: {@code device} or --devices (GPU kinds), --shards (every kind). */
  public HashTable.Builder place(HashTable.Builder b, TableKind kind, int device) {
    place(kind, device, b::devices, b::device, b::shards);
    return b;
  }

  /** As {@link #place(HashTable.Builder, TableKind, int)} for a join's table. */
  public Join.Builder place(Join.Builder b, TableKind kind, int device) {
    place(kind, device, b::devices, b::device, b::shards);
    return b;
  }

  private void place(TableKind kind, int device, Consumer<int[]> onDevices, IntConsumer onDevice,
      IntConsumer onShards) {
    if (kind.isGpu()) {
      if (devices != null) {
        onDevices.accept(devicesArray());
      } else {
        onDevice.accept(device);
      }
    }
    if (shards != null) {
      onShards.accept(shards);
    }
  }

  /** A kind's tables for reports: "3 shards on device 0", "2 shards on devices 0,1", "4 shards in host memory". */
  public String layout(TableKind kind, int device) {
    int[] ds = kind.isGpu() ? devicesArray() : null;
    int n = shards != null ? shards : ds != null ? ds.length : 1;
    String where = !kind.isGpu() ? "in host memory" : ds == null ? "on device " + device : "on devices " + Texts.ints(ds);
    return n + (n == 1 ? " shard " : " shards ") + where;
  }
}
