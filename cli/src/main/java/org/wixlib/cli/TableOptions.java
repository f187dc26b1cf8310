package org.wixlib.cli;

import java.util.List;
import java.util.function.Consumer;
import org.wixlib.HashTable;
import org.wixlib.InvalidArgumentException;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Report;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Mixin: the CUDA device (--device) and the random seed (--seed); availability checks of kinds. */
public final class TableOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = {"-d", "--device"},
      paramLabel = "N",
      defaultValue = "0",
      description = "CUDA device ordinal for GPU kinds (default: ${DEFAULT-VALUE}).")
  public int device;

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
    String gpuName = "none";
    if (device >= 0 && device < info.devices().size()) {
      Wixlib.DeviceInfo d = info.devices().get(device);
      gpuName = d.name() + " (device " + d.ordinal() + ", CC " + Texts.computeCapability(d.computeCapability())
          + ", " + d.multiprocessors() + " SMs, " + Texts.bytes(d.totalBytes()) + ")";
    }
    r.field("gpu", gpu ? gpuName : "not used");
    r.field("cuda_driver", Texts.cudaVersion(info.cudaDriverVersion()));
    r.field("cuda_runtime", Texts.cudaVersion(info.cudaRuntimeVersion()));
    r.field("native_version", info.nativeVersion());
    r.field("java_version", Runtime.version().toString());
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
