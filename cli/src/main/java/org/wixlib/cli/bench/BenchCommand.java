package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.wixlib.LinkRates;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.CountConverter;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.HeapTooSmallException;
import org.wixlib.cli.KindsOption;
import org.wixlib.cli.OutputOptions;
import org.wixlib.cli.ShardOptions;
import org.wixlib.cli.TableOptions;
import org.wixlib.cli.Texts;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.report.Report;
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
      "--memory picks where keys, values and results live (the memory path; one row per kind, path and"
          + " op): heap = int[]/long[] arrays (the default); native = ordinary native MemorySegments"
          + " (Arena); pinned = page-locked MemorySegments (PinnedMemory.allocate); device = DeviceBuffers"
          + " resident on the GPU (GPU kinds; on by default when one runs). Inserts and erases return an"
          + " outcome per key on every path.",
      "",
      "Columns: mops = M ops/s (median of the reps; min and max beside it). Host paths (heap, native,"
          + " pinned): the whole Java call end to end, every copy included (System.nanoTime). device:"
          + " device time only, from the library's CUDA events (stats().lastKernelMillis).",
      "",
      "bound = G ops/s that no call on the path can pass on this machine, pct_of_bound = mops against it."
          + " For GPU kinds the link is measured once at start (Wixlib.linkRates: page-locked host to"
          + " device h2d, device to host d2h, both directions at once, and the host copy rate of the"
          + " library's staging threads; all in the header). Each op moves in and out bytes per key:"
          + " 32-bit insert 8 in (keys, values) + 1 out (outcome), find 4 in + 4 out, erase 4 in + 1 out,"
          + " 64-bit keys and values double; a mixed batch 1 + 2w in (op, key, value) + w + 1 out. pinned:"
          + " 1 / max(in/h2d, out/d2h, (in+out)/both) (the DMA); heap and native: 1 / max(that,"
          + " (in+out)/host_copy) (the staging copy of every byte, overlapped with the DMA); device: the"
          + " row's own kernel rate (pct 100). The host copy rate is that of the library's default"
          + " staging threads (host_copy_threads), whatever --threads says. cpu kind: no bound ('-', null).",
      "",
      "--shards N measures tables split into N shards; --devices 0,1 spreads the shards of GPU kinds over those"
          + " GPUs and measures how that scales: every kind, path and op runs first on the first listed device"
          + " alone (with --shards N: N shards there; without: one plain table), then on all of them. The rows"
          + " then carry shards, devices and scaling = mops on all devices / mops on the first alone (on the"
          + " multi-device rows). Their device path keeps its buffers on the first device and reports the"
          + " library's device time of each call (the slowest shard's); their bound adds the devices' DMA"
          + " bounds (each device has its own link) while the host copy stays one host's. Sharding pays when"
          + " a table outgrows one GPU's memory or the calls need more than one GPU or PCIe link.",
      "",
      "A kind that cannot run here is reported as unavailable (never estimated); then the exit code is 3.",
      "",
      "--suite runs the experiments of the GLHT and Hive papers instead (static, dynamic, load) and the same"
          + " streams on the maps a Java user would pick otherwise (baseline), with one row per measurement"
          + " (suite, kind, op, n, load factor, mix, key range; mops from heap arrays and, for GPU kinds,"
          + " kernel_mops from device buffers), summary ratios in the header (GPU kind over"
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
      "  wixlib bench --kind glht,cpu --key-bits 64 --load-factor 0.95",
      "  wixlib bench --kind glht,hive --keys 2^26 --memory all",
      "  wixlib bench --kind glht,hive --devices 0,1 --keys 2^27 --memory all",
      "  wixlib bench --kind cpu --shards 4 --keys 2^22"
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
          + " out of page-locked buffers); 0 = all cores (GPU kinds: at most 16) (default: ${DEFAULT-VALUE}).")
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

  @Option(names = "--memory", paramLabel = "PATH", split = ",",
      description = "Memory paths to time: heap, native, pinned, device, or all (default: heap, and device when a"
          + " GPU kind runs). device applies to GPU kinds only; pinned is ordinary native memory without a GPU.")
  List<String> memoryNames = new ArrayList<>();

  @Mixin SuiteOptions suite;

  @Override
  public Integer call() {
    table.check("--key-bits", b -> b.keyBits(keyBits));
    table.check("--threads", b -> b.threads(threads));
    if (keyBits == 64 && !suite.names.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--suite runs 32-bit keys; drop --key-bits 64");
    }
    if (!suite.names.isEmpty() && !memoryNames.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--memory applies to the plain benchmark; drop --suite");
    }
    if (!suite.names.isEmpty() && table.sharded()) {
      throw new ParameterException(spec.commandLine(), "--shards and --devices apply to the plain benchmark; drop"
          + " --suite");
    }
    if (!suite.names.isEmpty()) {
      return new SuiteBench(this).call();
    }
    List<TableKind> kinds = this.kinds.kinds();
    boolean anyGpu = kinds.stream().anyMatch(TableKind::isGpu);
    keys = keysOption != null ? keysOption : anyGpu ? 1L << 24 : 1L << 22;
    reps = repsOption != null ? repsOption : 5;
    validate();
    table.checkSharding(kinds);
    boolean sharded = table.sharded();
    List<MemoryPath> paths = memoryPaths(anyGpu);
    noteCpuFallback();
    int n = (int) keys;
    long range = keyRange == null ? n : keyRange;

    Report r = new Report("results", ShardRuns.columns(sharded));
    header(r, kinds, n, range, paths);

    Map<TableKind, String> unavailable = new LinkedHashMap<>();
    for (TableKind kind : kinds) {
      String why = table.unavailableReason(kind);
      if (why != null) {
        unavailable.put(kind, why);
        output.progress("bench " + Texts.kindName(kind) + ": unavailable: " + why);
      }
    }
    Map<Integer, LinkRates> links = new LinkedHashMap<>();
    if (kinds.stream().anyMatch(k -> k.isGpu() && !unavailable.containsKey(k))) {
      for (int d : table.sharding.devices != null ? table.sharding.devicesArray() : new int[] {table.device}) {
        output.progress("bench: measuring the link of device " + d);
        links.put(d, Wixlib.linkRates(d));
      }
    }
    linkFields(r, links.isEmpty() ? null : links.values().iterator().next());
    if (links.size() > 1) {
      List<String> each = new ArrayList<>();
      links.forEach((d, l) -> each.add("device " + d + ": h2d " + Texts.fixed2(l.hostToDevice()) + " d2h "
          + Texts.fixed2(l.deviceToHost()) + " both " + Texts.fixed2(l.bothDirections()) + " GB/s"));
      r.field("links", each);
    }
    BenchData data = null;
    List<BenchData.Mixed> mixed = new ArrayList<>();
    if (unavailable.size() < kinds.size()) {
      HeapTooSmallException.check(heapBytes(n, keyBits, mixes.size(), range, anyGpu),
          "--keys " + Texts.count(n) + (mixes.isEmpty() ? "" : " with " + mixes.size() + " --mix"), "Lower --keys");
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
        r.row(ShardRuns.row(sharded, name, "-", null, "-", null, null, null, null, null,
            "unavailable: " + unavailable.get(kind)));
        continue;
      }
      List<MemoryPath> kindPaths = paths.stream().filter(p -> kind.isGpu() || !p.needsGpu()).toList();
      if (kindPaths.isEmpty()) {
        r.row(ShardRuns.row(sharded, name, "-", null, "-", null, null, null, null, null,
            "no " + paths.get(0).id() + " path: " + name + " tables live in host memory"));
      }
      List<ShardRuns.Run> runs = ShardRuns.of(kind, params, table.sharding.shards, table.sharding.devicesArray());
      // Every path is measured before the rows are written: the device rows' kernel rates cap the
      // bounds of the host paths.
      Map<MemoryPath, List<List<BenchRunner.Result>>> measured = new LinkedHashMap<>();
      for (MemoryPath path : kindPaths) {
        List<List<BenchRunner.Result>> byRun = new ArrayList<>();
        for (ShardRuns.Run run : runs) {
          BenchRunner runner = new BenchRunner(kind, run.params(), output);
          List<BenchRunner.Result> results = new ArrayList<>(runner.bulk(data, path));
          for (BenchData.Mixed m : mixed) {
            results.add(runner.mixed(m, path));
          }
          byRun.add(results);
        }
        measured.put(path, byRun);
      }
      List<List<BenchRunner.Result>> device = measured.get(MemoryPath.DEVICE);
      for (MemoryPath path : kindPaths) {
        List<List<BenchRunner.Result>> byRun = measured.get(path);
        for (int j = 0; j < byRun.get(0).size(); j++) {
          for (int i = 0; i < runs.size(); i++) {
            ShardRuns.Run run = runs.get(i);
            BenchRunner.Result res = byRun.get(i).get(j);
            Throughput t = res.endToEnd();
            Double kernel = device == null ? null : kernelMops(device.get(i), res.op());
            Double bound = kind.isGpu() ? PathBound.gopsOver(path, PathBound.Traffic.of(res.op(), keyBits),
                linksOf(links, run), kernel == null ? null : kernel / 1000) : null;
            Double scaling = runs.size() > 1 && !run.baseline() ? ShardRuns.scaling(t, byRun.get(0).get(j).endToEnd())
                : null;
            r.row(ShardRuns.row(sharded, name, path.id(), run, res.op(), res.n(), t, bound,
                PathBound.percent(t.median(), bound), scaling, res.note().isEmpty() ? null : res.note()));
          }
        }
      }
    }
    output.write(r);
    return unavailable.isEmpty() ? ExitCodes.OK : ExitCodes.UNAVAILABLE;
  }

  /** The device row's rate (M ops/s) of an op, null when that row was not measured. */
  static Double kernelMops(List<BenchRunner.Result> deviceRows, String op) {
    for (BenchRunner.Result d : deviceRows) {
      if (d.op().equals(op)) {
        return d.endToEnd().median();
      }
    }
    return null;
  }

  /** The measured links of a run's devices (its one device when not sharded over several). */
  static List<LinkRates> linksOf(Map<Integer, LinkRates> links, ShardRuns.Run run) {
    int[] ds = run.params().devices() != null ? run.params().devices() : new int[] {run.params().device()};
    List<LinkRates> out = new ArrayList<>();
    for (int d : ds) {
      if (links.containsKey(d)) {
        out.add(links.get(d));
      }
    }
    return out;
  }

  /** The --memory paths, or the defaults; an unknown name is a usage error. */
  List<MemoryPath> memoryPaths(boolean anyGpu) {
    if (memoryNames.isEmpty()) {
      return MemoryPath.defaults(anyGpu);
    }
    try {
      return MemoryPath.parse(memoryNames);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--memory: " + e.getMessage());
    }
  }

  /**
   * Bytes of Java heap the arrays of a plain run take at their peak: the keys, absent keys and values
   * (BenchData; as long[] too with 64-bit keys), one path's placed copies with room for results and
   * outcomes and the arrays they are read back into (BenchData.Placed), a GPU run's staging warm-up;
   * per mixed batch its ops, keys, values and prefill keys, and one placed batch at a time.
   */
  static long heapBytes(long n, int keyBits, int mixes, long range, boolean gpu) {
    long perKey = (keyBits == 64 ? 78 : 34) + (gpu ? 1 : 0);
    return n * perKey + mixes * (9 * n + 4 * Math.min(range / 2, Integer.MAX_VALUE)) + (mixes > 0 ? 11 * n : 0);
  }

  /**
   * When no kind was asked for and no GPU is usable, the default job measures the host table: say so
   * plainly on stderr, not only in a "kind" column.
   */
  void noteCpuFallback() {
    if (kinds.asked.isEmpty() && !Wixlib.isAvailable(TableKind.GLHT)) {
      output.progress("no GPU found: measured the CPU table (" + table.unavailableReason(TableKind.GLHT) + ")");
    }
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

  /** The link rates the bounds come from (GPU kinds), or what stands in for them. */
  static void linkFields(Report r, LinkRates link) {
    PathBound.linkFields(r, link, PathBound.MODEL);
  }

  void header(Report r, List<TableKind> kinds, int n, long range, List<MemoryPath> paths) {
    r.field("command", "bench");
    table.machineFields(r, kinds);
    r.field("kinds", Texts.kindNames(kinds));
    r.field("keys", n);
    r.field("key_bits", keyBits);
    r.field("max_load_factor", loadFactor);
    r.field("reps", reps);
    r.field("warmup", warmup);
    r.field("seed", table.seed);
    if (table.sharded()) {
      List<String> layouts = new ArrayList<>();
      for (TableKind k : kinds) {
        layouts.add(Texts.kindName(k) + ": " + table.layout(k));
      }
      r.field("layout", layouts);
      ShardOptions sh = table.sharding;
      if (sh.devices != null && sh.devices.size() > 1) {
        r.field("scaling", "mops of the tables on all --devices over mops of the same tables on device "
            + sh.devices.get(0) + " alone (" + (sh.shards != null ? sh.shards + " shards there" : "one plain table")
            + "), per kind, path and op");
      }
    }
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
    List<String> memory = new ArrayList<>();
    for (MemoryPath p : paths) {
      memory.add(p.id() + " = " + p.description);
    }
    r.field("memory", memory);
    List<String> traffic = new ArrayList<>();
    for (String op : List.of("insert", "find", "erase")) {
      traffic.add(op + " " + PathBound.Traffic.of(op, keyBits));
    }
    if (!mixes.isEmpty()) {
      traffic.add("mixed " + PathBound.Traffic.of("mixed", keyBits));
    }
    r.field("bytes_per_op", traffic);
    r.field("unit", "mops = M ops/s (host paths end to end through Java, device path kernel time);"
        + " bound = G ops/s; pct_of_bound = mops / (1000 * bound) in percent");
  }
}
