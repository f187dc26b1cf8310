package org.wixlib.cli;

import java.util.List;
import java.util.function.Consumer;
import org.wixlib.HashTable;
import org.wixlib.InvalidArgumentException;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Report;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Mixin: where tables live (--device, --shards, --devices), the random seed (--seed), and availability
 * checks of kinds.
 */
public final class TableOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = {"-d", "--device"},
      paramLabel = "N",
      defaultValue = "0",
      description = "CUDA device ordinal for GPU kinds (default: ${DEFAULT-VALUE}).")
  public int device;

  @Mixin public ShardOptions sharding = new ShardOptions();

  @Option(
      names = {"-s", "--seed"},
      paramLabel = "SEED",
      defaultValue = "1",
      description = "Seed of the random keys, values and ops; the same seed repeats a run (default: ${DEFAULT-VALUE}).")
  public long seed;

  /** The machine a run used, as every benchmark prints it: host CPU, the GPU (when a kind needs one), versions. */
  public void machineFields(Report r, List<TableKind> kinds) {
    Wixlib.Info info = Wixlib.info();
    r.field("cpu", HostInfo.cpuModel() + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
    boolean gpu = kinds.stream().anyMatch(TableKind::isGpu);
    int first = firstDevice();
    String gpuName = first >= 0 && first < info.devices().size() ? describe(info.devices().get(first)) : "none";
    r.field("gpu", gpu ? gpuName : "not used");
    if (gpu && sharding.devices != null) {
      List<String> listed = new java.util.ArrayList<>();
      for (int d : sharding.devices) {
        listed.add(d < info.devices().size() ? listEntry(info.devices().get(d)) : "device " + d + " (absent)");
      }
      r.field("devices", listed);
    }
    r.field("cuda_driver", Texts.cudaVersion(info.cudaDriverVersion()));
    r.field("cuda_runtime", Texts.cudaVersion(info.cudaRuntimeVersion()));
    r.field("native_version", info.nativeVersion());
    r.field("java_version", Runtime.version().toString());
  }

  /** The device of a GPU table's first shard: the first of --devices, else --device. */
  public int firstDevice() {
    return sharding.firstDevice(device);
  }

  /** --shards or --devices was given. */
  public boolean sharded() {
    return sharding.sharded();
  }

  /** See {@link ShardOptions#check(CommandSpec, List)}. */
  public void checkSharding(List<TableKind> kinds) {
    sharding.check(spec, kinds);
  }

  /** Where a table of {@code kind} lives: --device or --devices (GPU kinds), --shards (every kind). */
  public HashTable.Builder place(HashTable.Builder b, TableKind kind) {
    return sharding.place(b, kind, device);
  }

  /** As {@link #place(HashTable.Builder, TableKind)} for a join's table. */
  public org.wixlib.Join.Builder place(org.wixlib.Join.Builder b, TableKind kind) {
    return sharding.place(b, kind, device);
  }

  /** The layout of a kind's tables for reports ({@link ShardOptions#layout}). */
  public String layout(TableKind kind) {
    return sharding.layout(kind, device);
  }

  /** "NVIDIA H200 (device 0, CC 9.0, 132 SMs, 139.8 GiB)". */
  static String describe(Wixlib.DeviceInfo d) {
    return d.name() + " (device " + d.ordinal() + ", CC " + Texts.computeCapability(d.computeCapability())
        + ", " + d.multiprocessors() + " SMs, " + Texts.bytes(d.totalBytes()) + ")";
  }

  /** "device 0 = NVIDIA H200 (CC 9.0; 132 SMs; 139.8 GiB)": no commas, as reports join lists with them. */
  static String listEntry(Wixlib.DeviceInfo d) {
    return "device " + d.ordinal() + " = " + d.name() + " (CC " + Texts.computeCapability(d.computeCapability())
        + "; " + d.multiprocessors() + " SMs; " + Texts.bytes(d.totalBytes()) + ")";
  }

  /** glht when a GPU is usable, else cpu. */
  public static TableKind defaultKind() {
    return Wixlib.isAvailable(TableKind.GLHT) ? TableKind.GLHT : TableKind.CPU;
  }

  /**
   * Checks an option by the library's own rule, the table builder's setter (e.g. {@code b ->
   * b.maxLoadFactor(f)}): a value the library refuses is a usage error with the library's message.
   */
  public void check(String option, Consumer<HashTable.Builder> setting) {
    check(spec, option, setting);
  }

  /**
   * As {@link #check(String, Consumer)} for any command: the error names the option as typed
   * ("--max-load must be in [0.05, 1.0], got 1.5"), not the builder's setter.
   */
  public static void check(CommandSpec spec, String option, Consumer<HashTable.Builder> setting) {
    try {
      setting.accept(HashTable.builder());
    } catch (InvalidArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + " " + e.getMessage().replaceFirst(SETTER_NAME, ""));
    }
  }

  /** The builder setter's name that starts the library's messages ("maxLoadFactor must be ..."). */
  private static final String SETTER_NAME = "^[a-z][A-Za-z]* (?=must )";

  /** Why the kind cannot run here, or null when it can (loads the native library). */
  public String unavailableReason(TableKind kind) {
    check("--device", b -> b.device(device));
    if (Wixlib.isAvailable(kind)) {
      if (!kind.isGpu()) {
        return null;
      }
      int count = Wixlib.devices().size();
      return device < count ? null
          : "CUDA device " + device + " does not exist (" + count + " device(s))";
    }
    String why = Wixlib.unavailableReason(kind).orElse("not available on this machine");
    return kind.isGpu() ? "kind " + Texts.kindName(kind) + " needs a usable GPU: " + why
        : "kind " + Texts.kindName(kind) + " is not available: " + why;
  }

  /** Throws {@link KindUnavailableException} (exit code 3) when the kind cannot run here. */
  public void requireAvailable(TableKind kind) {
    String why = unavailableReason(kind);
    if (why != null) {
      throw new KindUnavailableException(why);
    }
  }
}
