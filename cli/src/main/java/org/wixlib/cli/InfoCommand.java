package org.wixlib.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code wixlib info}: versions, backends and CUDA devices of this machine. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Shows what this machine can run: library versions (native, Java API, Java runtime), the table"
          + " kinds available and why the others are not (no CUDA build, no driver or one too old, no"
          + " device, a GPU older than the build's architectures), the CUDA runtime and driver, and every"
          + " CUDA device (name, memory, compute capability, multiprocessors)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib info",
      "  wixlib info --format json",
      "",
      "Exit code 3 when libwixlib.so cannot be loaded."
    })
final class InfoCommand implements Callable<Integer> {
  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    Wixlib.Info info = Wixlib.info();
    Report r = build(info);
    output.write(r);
    return ExitCodes.OK;
  }

  static Report build(Wixlib.Info info) {
    Report r = new Report("devices", "ordinal", "name", "memory_total_mib", "memory_free_mib",
        "compute_capability", "multiprocessors");
    r.field("cli_version", VersionProvider.cliVersion());
    r.field("native_version", info.nativeVersion());
    r.field("java_api_version", info.javaApiVersion());
    r.field("java_runtime", Runtime.version().toString() + " ("
        + System.getProperty("java.vm.vendor", "?") + ")");
    r.field("library_path", Wixlib.libraryLocation());
    r.field("kinds_available", Texts.kindNames(info.availableKinds()));
    List<String> missing = new ArrayList<>();
    for (TableKind k : TableKind.values()) {
      if (!info.availableKinds().contains(k)) {
        missing.add(Texts.kindName(k));
      }
    }
    r.field("kinds_unavailable", missing);
    r.field("why_unavailable", whyUnavailable(info));
    r.field("cuda_runtime", Texts.cudaVersion(info.cudaRuntimeVersion()));
    r.field("cuda_driver", Texts.cudaVersion(info.cudaDriverVersion()));
    r.field("host_cpu", HostInfo.cpuModel());
    r.field("host_cores", Runtime.getRuntime().availableProcessors());
    r.field("device_count", info.devices().size());
    for (Wixlib.DeviceInfo d : info.devices()) {
      r.row(d.ordinal(), d.name(), d.totalBytes() >> 20, d.freeBytes() >> 20,
          Texts.computeCapability(d.computeCapability()), d.multiprocessors());
    }
    return r;
  }

  /** "glht, hive: reason" per distinct reason, or null when every kind is available. */
  static String whyUnavailable(Wixlib.Info info) {
    Map<String, List<TableKind>> byReason = new LinkedHashMap<>();
    for (TableKind k : TableKind.values()) {
      String why = info.unavailableReasons().get(k);
      if (why != null) {
        byReason.computeIfAbsent(why, w -> new ArrayList<>()).add(k);
      }
    }
    if (byReason.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    byReason.forEach((why, kinds) -> parts.add(String.join(", ", Texts.kindNames(kinds)) + ": " + why));
    return String.join("; ", parts);
  }
}
