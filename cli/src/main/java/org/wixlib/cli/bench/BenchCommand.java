package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.wixlib.TableKind;
import org.wixlib.cli.CountConverter;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.KindsOption;
import org.wixlib.cli.OutputOptions;
import org.wixlib.cli.TableOptions;
import org.wixlib.cli.Texts;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code wixlib bench}: bulk and mixed-batch throughput of one or more table kinds. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    showDefaultValues = false,
    description = {
      "Measures the throughput (million ops per second) of bulk insert, find of present keys, find of"
          + " absent keys and erase, and optionally of mixed batches, for each table kind asked for.",
      "",
      "Keys are distinct random 32-bit keys (never the reserved -1/-2), or with --key-bits 64 the same"
          + " keys widened one to one to 64 bits (tables of 64-bit keys and values); the absent keys are disjoint"
          + " from the present ones. Every rep runs on a fresh table created with capacity = --keys and"
          + " max load factor = --load-factor, so it holds the keys without growing. Results are checked"
          + " (untimed); a wrong result fails the run (exit 1).",
      "",
      "Columns: mops = end-to-end M ops/s (median of the reps; min and max beside it): the whole Java"
          + " call with int[] in and results out, every copy included (System.nanoTime). kernel_mops"
          + " (GPU kinds) = device time only, from the library's CUDA events (stats().lastKernelMillis)"
          + " with inputs already resident in device memory (DeviceBuffer).",
      "",
      "A kind that cannot run here is reported as unavailable (never estimated); then the exit code is 3.",
      "",
      "--suite runs the experiments of the GLHT and Hive papers instead (static, dynamic, load) and the same"
          + " streams on the maps a Java user would pick otherwise (baseline), with one row per measurement"
          + " (suite, kind, op, n, load factor, mix, key range), summary ratios in the header (GPU kind over"
          + " cpu, kernel-only over end-to-end, cpu over each Java map), a progress bar on stderr and"
          + " paper-style charts (--chart, --out). 'wixlib bench compare A.json B.json' judges a change."
    },
    footerHeading = "%nExamples:%n",
    subcommands = {CompareCommand.class},
    footer = {
      "  wixlib bench --kind cpu --keys 2^20",
      "  wixlib bench --suite baseline,static --keys 2^22 --chart bench.svg",
      "  wixlib bench --suite all --kind glht,hive,cpu --out results/",
      "  wixlib bench compare before.json after.json",
      "  wixlib bench --kind cpu,glht,hive --keys 16Mi --load-factor 0.9 --format csv",
      "  wixlib bench --kind glht --mix 20,20,60 --mix 40,40,20 --key-range 100000",
      "  wixlib bench --kind cpu --threads 1 --reps 3 --warmup 0 --format json",
      "  wixlib bench --kind glht,cpu --key-bits 64 --load-factor 0.95"
    })
public final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin KindsOption kinds;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;

  @Option(names = {"-n", "--keys"}, paramLabel = "N", converter = CountConverter.class,
      description = {"Keys per bulk op, e.g. 1000000, 2^24, 16M (10^6), 16Mi (2^20). Default: 2^24 when a GPU"
          + " kind runs, else 2^22.", "With --suite: the largest static size (default 2^26), the large"
          + " dynamic op count (default 2^24), the load-suite keys (default 2^24) and the baseline size"
          + " (default 2^22)."})
  Long keysOption;

  long keys;

  /** The most keys (or ops) of one call: Java arrays hold them. */
  static final long MAX_KEYS = 1L << 30;

  @Option(names = "--load-factor", paramLabel = "F", defaultValue = "0.8",
      description = "Max load factor of the tables, created with capacity = --keys at this factor. Kinds that"
          + " round their slot count up (e.g. to a power of two) end below it: the note column shows the"
          + " load reached (default: ${DEFAULT-VALUE}).")
  double loadFactor;

  @Option(names = "--reps", paramLabel = "R",
      description = "Measured repetitions; the median is reported with min and max (default: 5, with --suite 3).")
  Integer repsOption;

  int reps;

  @Option(names = "--warmup", paramLabel = "W", defaultValue = "1",
      description = "Unmeasured repetitions before them (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--threads", paramLabel = "T", defaultValue = "0",
      description = "Worker threads of the cpu kind; staging copy threads of the GPU kinds (host arrays into and"
          + " out of page-locked buffers); 0 = all cores (GPU kinds: half, at most 8) (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--mix", paramLabel = "I,D,F", converter = Mix.Converter.class,
      description = {
        "Also time a mixed batch (HashTable.batch) of --keys ops: I%% insert, D%% erase, F%% find on keys"
            + " drawn uniformly from --key-range keys, half of them present at the start. Repeatable."
      })
  List<Mix> mixes = new ArrayList<>();

  @Option(names = "--key-range", paramLabel = "N", converter = CountConverter.class,
      description = "Distinct keys the mixed batches draw from (default: --keys).")
  Long keyRange;

  @Option(names = "--key-bits", paramLabel = "B", defaultValue = "32",
      description = "Width of keys and values: 32 (int) or 64 (long: tables built with keyBits(64), bulk ops"
          + " only) (default: ${DEFAULT-VALUE}).")
  int keyBits;

  @Mixin SuiteOptions suite;

  @Override
  public Integer call() {
    table.check("--key-bits", b -> b.keyBits(keyBits));
    table.check("--threads", b -> b.threads(threads));
    if (keyBits == 64 && !suite.names.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--suite runs 32-bit keys; drop --key-bits 64");
    }
    if (!suite.names.isEmpty()) {
      return new SuiteBench(this).call();
    }
    List<TableKind> kinds = this.kinds.kinds();
    boolean anyGpu = kinds.stream().anyMatch(TableKind::isGpu);
    keys = keysOption != null ? keysOption : anyGpu ? 1L << 24 : 1L << 22;
    reps = repsOption != null ? repsOption : 5;
    validate();
    int n = (int) keys;
    long range = keyRange == null ? n : keyRange;

    Report r = new Report("results", "kind", "op", "n", "mops", "mops_min", "mops_max", "kernel_mops",
        "kernel_mops_min", "kernel_mops_max", "note");
    header(r, kinds, n, range);

    Map<TableKind, String> unavailable = new LinkedHashMap<>();
    for (TableKind kind : kinds) {
      String why = table.unavailableReason(kind);
      if (why != null) {
        unavailable.put(kind, why);
        output.progress("bench " + Texts.kindName(kind) + ": unavailable: " + why);
      }
    }
    BenchData data = null;
    List<BenchData.Mixed> mixed = new ArrayList<>();
    if (unavailable.size() < kinds.size()) {
      output.progress("bench: generating " + n + " present and " + n + " absent keys (seed " + table.seed + ")");
      data = new BenchData(table.seed, n, keyBits);
      for (Mix m : mixes) {
        mixed.add(new BenchData.Mixed(table.seed, m, n, range));
      }
    }

    BenchRunner.Params params = new BenchRunner.Params(n, loadFactor, reps, warmup, threads, table.device);
    for (TableKind kind : kinds) {
      String name = Texts.kindName(kind);
      if (unavailable.containsKey(kind)) {
        r.row(name, "-", null, null, null, null, null, null, null, "unavailable: " + unavailable.get(kind));
        continue;
      }
      BenchRunner runner = new BenchRunner(kind, params, output);
      List<BenchRunner.Result> results = new ArrayList<>(runner.bulk(data));
      for (BenchData.Mixed m : mixed) {
        results.add(runner.mixed(m));
      }
      for (BenchRunner.Result res : results) {
        Throughput k = res.kernel();
        r.row(name, res.op(), res.n(), res.endToEnd().median(), res.endToEnd().min(), res.endToEnd().max(),
            k == null ? null : k.median(), k == null ? null : k.min(), k == null ? null : k.max(),
            res.note().isEmpty() ? null : res.note());
      }
    }
    ReportWriter.write(r, output.format, output.out());
    return unavailable.isEmpty() ? ExitCodes.OK : ExitCodes.UNAVAILABLE;
  }

  void validate() {
    requireIn("--keys", keys, 1, MAX_KEYS);
    table.check("--load-factor", b -> b.maxLoadFactor(loadFactor));
    requireReps(reps);
    if (keyRange != null) {
      requireIn("--key-range", keyRange, 1, 1L << 31);
    }
    if (keyBits == 64 && !mixes.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--key-bits 64 times the bulk ops only; drop --mix");
    }
    if (keyRange != null && mixes.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--key-range applies to --mix workloads; give --mix too");
    }
  }

  /** A usage error unless {@code min <= value <= max}. */
  void requireIn(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ParameterException(spec.commandLine(), option + " must be in [" + Texts.count(min) + ", "
          + Texts.count(max) + "], got " + value);
    }
  }

  /** --reps at least 1, --warmup at least 0. */
  void requireReps(int reps) {
    if (reps < 1) {
      throw new ParameterException(spec.commandLine(), "--reps must be >= 1, got " + reps);
    }
    if (warmup < 0) {
      throw new ParameterException(spec.commandLine(), "--warmup must be >= 0, got " + warmup);
    }
  }

  void header(Report r, List<TableKind> kinds, int n, long range) {
    r.field("command", "bench");
    table.machineFields(r, kinds);
    r.field("kinds", Texts.kindNames(kinds));
    r.field("keys", n);
    r.field("key_bits", keyBits);
    r.field("max_load_factor", loadFactor);
    r.field("reps", reps);
    r.field("warmup", warmup);
    r.field("seed", table.seed);
    r.field("threads", threads == 0 ? "all (" + Runtime.getRuntime().availableProcessors() + ")"
        : Integer.toString(threads));
    if (!mixes.isEmpty()) {
      List<String> m = new ArrayList<>();
      for (Mix x : mixes) {
        m.add(x.toString());
      }
      r.field("mixes", m);
      r.field("key_range", range);
    }
    r.field("unit", "M ops/s; mops = end-to-end through Java (" + (keyBits == 64 ? "long[]" : "int[]")
        + " in, results out),"
        + " kernel_mops = device time with device-resident inputs");
  }
}
