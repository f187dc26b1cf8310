package org.wixlib.cli.join;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.wixlib.DeviceBuffer;
import org.wixlib.Join;
import org.wixlib.JoinPairs;
import org.wixlib.JoinStats;
import org.wixlib.LinkRates;
import org.wixlib.Wixlib;
import org.wixlib.TableKind;
import org.wixlib.UnsupportedKindException;
import org.wixlib.cli.CheckFailedException;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.KindsOption;
import org.wixlib.cli.OutputOptions;
import org.wixlib.cli.TableOptions;
import org.wixlib.cli.Texts;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.bench.PathBound;
import org.wixlib.cli.bench.Summary;
import org.wixlib.cli.bench.Throughput;
import org.wixlib.cli.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code wixlib join}: hash-join probes of TPC-H join cores on each kind, against a Java HashMap join. */
@Command(
    name = "join",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Generates the TPC-H tables at --sf with the io.trino.tpch generator (dbgen's rows; only the key"
          + " columns are kept), then runs the hash-join cores of TPC-H queries (--query) on each kind"
          + " (org.wixlib.Join) and with a java.util.HashMap join, and checks that every kind gives the"
          + " HashMap join's match count and pair checksum (a mismatch: exit 1).",
      "",
      "Columns: memory = where the key columns and outputs live (--memory). build_ms = building the join from"
          + " the build column (end to end). probe_ms = the probe"
          + " through Java, the keys in and the pairs (or rows) written into arrays (or off-heap memory) the probes"
          + " reuse, every copy included; probe_mrows_s = probe rows"
          + " per second from it. kernel_ms = the library's own time of the probe without the copies of"
          + " the caller's arrays (GPU kinds: CUDA events, device time; cpu: native wall time);"
          + " table_ms = the table lookups in it (GPU kinds). hash_ms = hashing the probe column alone"
          + " (device-resident on GPU kinds); prehashed_* = the probe given those hashes (inner joins;"
          + " not on hive). speedup = java probe_ms / probe_ms, kernel_speedup = java probe_ms / kernel_ms."
          + " total_ms = build_ms + probe_ms. Times are medians of --reps runs after --warmup runs.",
      "",
      "--baseline duckdb also runs every core in DuckDB (org.duckdb:duckdb_jdbc, an in-memory columnar"
          + " database): the same generated key columns loaded with DuckDB's Appender into in-memory"
          + " tables (customer, orders, part, lineitem; untimed), then per core one SQL query on all cores"
          + " (PRAGMA threads; --threads) counting what wixlib's join delivers: count(*) of the inner join, of"
          + " the EXISTS (semi) or NOT EXISTS (anti) rows. Its total_ms is that query, build and probe in one"
          + " (median of --reps after --warmup); its count must equal the HashMap join's (else exit 1)."
          + " duckdb_speedup = DuckDB's total_ms / the row's total_ms, for every kind and the HashMap join.",
      "",
      "bound_ms (GPU kinds, one device) = the time the bytes of the build and the probe take on this machine's"
          + " link, measured at start (Wixlib.linkRates; in the header): build keys in, then probe keys in while"
          + " the results come out (8 B a pair, 4 B a semi/anti row); heap and native columns also at the host"
          + " copy rate of a join's default copy threads (host_copy_join_gbs). No implementation beats it. pct_of_bound = bound_ms / total_ms;"
          + " duckdb_speedup_bound = DuckDB's total_ms / bound_ms, the most any GPU join could gain over DuckDB"
          + " on this machine; speedup_bound_vs_duckdb_* in the header are their geometric means.",
      "",
      "--shards N splits each join table into N shards, --devices 0,1 spreads them over GPUs (GPU kinds):"
          + " the pairs and their order stay the same; device-resident probe columns live on the first device.",
      "",
      "DuckDB is not in the CLI jar: it is loaded at run time from --duckdb-jar, the class path, or a"
          + " duckdb_jdbc*.jar beside wixlib-cli.jar or in lib/ beside it (the build puts one in"
          + " cli/target/lib/). Without one the command stops with exit code 3 and says where to put it.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib join --sf 1 --kind glht,hive,cpu",
      "  wixlib join --sf 10 --kind glht --query orders_lineitem,part_lineitem --format csv",
      "  wixlib join --sf 0.01 --kind cpu --format json",
      "  wixlib join --sf 10 --kind glht,hive,cpu --baseline duckdb",
      "  wixlib join --sf 10 --kind glht,hive --memory heap,native,pinned --baseline duckdb"
    })
public final class JoinCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin KindsOption kinds;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;

  @Option(names = "--sf", paramLabel = "SF", defaultValue = "1",
      description = "TPC-H scale factor: 0.01, 1, 10, ... (default: ${DEFAULT-VALUE}).")
  double sf;

  @Option(names = {"-q", "--query"}, paramLabel = "Q", split = ",", defaultValue = "all",
      description = "Join cores to run: all (default) or some of orders_lineitem, customer_orders,"
          + " part_lineitem, lineitem_orders, q4_semi, q22_anti.")
  List<String> queryNames = new ArrayList<>();

  @Option(names = "--reps", paramLabel = "R", defaultValue = "3",
      description = "Measured probes per query and kind; medians are reported (default: ${DEFAULT-VALUE}).")
  int reps;

  @Option(names = "--warmup", paramLabel = "W", defaultValue = "1",
      description = "Unmeasured probes before them (default: ${DEFAULT-VALUE}).")
  int warmup;

 @Option(names = "--memory", paramLabel = "M", split = ",", defaultValue = "heap",
      description = "Where the key columns and the outputs live, one row per kind and memory: heap (int[] in, pairs"
          + " into int[]), native (off-heap memory, as Arrow-style columns; ordinary memory, not page-locked),"
          + " pinned (the same columns and outputs page-locked once, PinnedMemory.allocate: what long-lived"
          + " columns get from PinnedMemory.register; GPU kinds then copy them straight to and from the device)."
          + " Default: ${DEFAULT-VALUE}.")
  List<String> memoryNames = new ArrayList<>();

  @Option(names = "--java-reps", paramLabel = "R", defaultValue = "1",
      description = "Runs of the Java HashMap join per query (the first run checks; default: ${DEFAULT-VALUE}).")
  int javaReps;

  @Option(names = "--threads", paramLabel = "T", defaultValue = "0",
      description = "Threads of the cpu kind, of the GPU kinds' host copies, of the generator and of DuckDB"
          + " (--baseline); 0 = all cores (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--baseline", paramLabel = "DB",
      description = "Also run the cores in this database and print its time and the speed-ups over it: duckdb.")
  String baseline;

  @Option(names = "--duckdb-jar", paramLabel = "PATH",
      description = "DuckDB's JDBC jar (org.duckdb:duckdb_jdbc) for --baseline duckdb (default: the class path, or"
          + " a duckdb_jdbc*.jar beside wixlib-cli.jar or in lib/ beside it).")
  java.nio.file.Path duckdbJar;

  /** The first device's link (GPU kinds run), else null: the bounds. */
  private LinkRates link;

  @Override
  public Integer call() {
    if (baseline != null && !baseline.equalsIgnoreCase("duckdb")) {
      throw new ParameterException(spec.commandLine(), "--baseline: unknown database '" + baseline + "' (expected duckdb)");
    }
    if (duckdbJar != null && baseline == null) {
      throw new ParameterException(spec.commandLine(), "--duckdb-jar applies to --baseline duckdb; give that too");
    }
    try {
      return run();
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB: " + e.getMessage(), e);
    }
  }

  private Integer run() throws SQLException {
    if (reps < 1 || warmup < 0 || javaReps < 1) {
      throw new ParameterException(spec.commandLine(), "--reps and --java-reps must be >= 1, --warmup >= 0");
    }
    table.check("--threads", b -> b.threads(threads));
    if (!(sf > 0) || sf > 1000) {
      throw new ParameterException(spec.commandLine(), "--sf must be in (0, 1000], got " + sf);
    }
    List<JoinQuery> queries = new ArrayList<>();
    try {
      for (String q : queryNames) {
        if (q.trim().equalsIgnoreCase("all")) {
          queries.addAll(Arrays.asList(JoinQuery.values()));
        } else {
          queries.add(JoinQuery.parse(q));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    queries = new ArrayList<>(new LinkedHashSet<>(queries));
    List<JoinColumns.Memory> memories = new ArrayList<>();
    try {
      for (String m : memoryNames) {
        memories.add(JoinColumns.Memory.parse(m));
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--memory: " + e.getMessage());
    }
    memories = new ArrayList<>(new LinkedHashSet<>(memories));
    List<TableKind> kinds = this.kinds.kinds();
    table.checkSharding(kinds);

    Report r = new Report("results", "query", "kind", "memory", "build_rows", "probe_rows", "matches", "check", "build_ms",
        "probe_ms", "total_ms", "probe_mrows_s", "kernel_ms", "kernel_mrows_s", "table_ms", "hash_ms",
        "prehashed_kernel_ms", "prehashed_table_ms", "speedup", "kernel_speedup", "duckdb_speedup", "bound_ms",
        "pct_of_bound", "duckdb_speedup_bound");
    header(r, kinds, queries);
    // Before the data is generated, so a missing jar stops the run at once.
    DuckDbDriver.Loaded duckDriver = baseline == null ? null : DuckDbDriver.load(duckdbJar);

    Map<TableKind, String> unavailable = new LinkedHashMap<>();
    for (TableKind kind : kinds) {
      String why = table.unavailableReason(kind);
      if (why != null) {
        unavailable.put(kind, why);
        output.progress("join " + Texts.kindName(kind) + ": unavailable: " + why);
      }
    }
    if (kinds.stream().anyMatch(k -> k.isGpu() && !unavailable.containsKey(k))) {
      output.progress("join: measuring the link of device " + table.firstDevice());
      link = Wixlib.linkRates(table.firstDevice());
    }
    PathBound.linkFields(r, link, JoinBound.MODEL);
    long t0 = System.nanoTime();
    TpchColumns data = TpchColumns.generate(sf, threads, output);
    r.field("generate_s", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
    Map<String, Object> rows = new LinkedHashMap<>();
    rows.put("customer", data.customerCustkey().length);
    rows.put("orders", data.ordersOrderkey().length);
    rows.put("part", data.partPartkey().length);
    rows.put("lineitem", data.lineitemOrderkey().length);
    r.field("rows", rows);

    int mismatches = 0;
    Map<String, List<double[]>> speedups = new LinkedHashMap<>();
    Map<TableKind, List<double[]>> prehash = new LinkedHashMap<>();
    Map<String, List<double[]>> overDuck = new LinkedHashMap<>();
    r.field("memory", memories.stream().map(JoinColumns.Memory::label).toList());
    try (DuckDbJoin duck = duckDriver == null ? null : new DuckDbJoin(duckDriver, threads, output)) {
      if (duck != null) {
        r.field("baseline", "duckdb " + duck.version() + " (org.duckdb:duckdb_jdbc from " + duckDriver.source()
            + "; in-memory tables loaded by its Appender; " + duck.threads() + " threads; each core one SQL count"
            + " query, build and probe in one)");
        r.field("duckdb_load_s", round(duck.load(data, queries)));
      }
      for (JoinQuery q : queries) {
        mismatches += query(r, q, data, kinds, memories, unavailable, duck, speedups, prehash, overDuck);
      }
    }
    summary(r, speedups, prehash, overDuck);
    output.write(r);
    if (mismatches > 0) {
      throw new CheckFailedException(mismatches + " join result(s) differ from the Java HashMap join");
    }
    return unavailable.isEmpty() ? ExitCodes.OK : ExitCodes.UNAVAILABLE;
  }

  /**
   * One core: the HashMap join (the reference), DuckDB when it runs, then each kind, one row each; the
   * speed-ups go into the maps for the summary. Returns the rows whose results differ from the reference.
   */
  private int query(Report r, JoinQuery q, TpchColumns data, List<TableKind> kinds, List<JoinColumns.Memory> memories,
      Map<TableKind, String> unavailable, DuckDbJoin duck, Map<String, List<double[]>> speedups,
      Map<TableKind, List<double[]>> prehash, Map<String, List<double[]>> overDuck) throws SQLException {
    int mismatches = 0;
    int[] build = q.buildKeys(data), probe = q.probeKeys(data);
    output.progress("join " + q.id + ": java HashMap (" + build.length + " build, " + probe.length + " probe rows)");
    JavaHashJoin.Result java = null;
    List<Double> javaBuild = new ArrayList<>(), javaProbe = new ArrayList<>();
    for (int i = 0; i < javaReps; i++) {
      JavaHashJoin.Result res = JavaHashJoin.run(q, build, probe);
      if (java == null) {
        java = res;
      } else if (res.matches() != java.matches() || res.checksum() != java.checksum()) {
        throw new IllegalStateException("the Java join gave different results in two runs");
      }
      javaBuild.add(res.buildMillis());
      javaProbe.add(res.probeMillis());
    }
    double javaMs = Throughput.median(javaProbe);
    double javaTotal = Throughput.median(javaBuild) + javaMs;
    DuckDbJoin.Timed duckRun = null;
    if (duck != null) {
      output.progress("join " + q.id + ": duckdb");
      duckRun = duck.time(q, warmup, reps);
    }
    Double duckMs = duckRun == null ? null : duckRun.millis();
    r.row(q.id, "java-hashmap", "heap", build.length, probe.length, java.matches(), "reference", round(Throughput.median(javaBuild)),
        round(javaMs), round(javaTotal), mrows(probe.length, javaMs), null, null, null, null, null, null, null, null,
        overDuck(overDuck, "java-hashmap", duckMs, javaTotal, null), null, null, null);
    if (duckRun != null) {
      boolean ok = duckRun.count() == java.matches();
      if (!ok) {
        mismatches++;
        output.progress("join " + q.id + " duckdb: MISMATCH: " + duckRun.count() + " rows counted, java HashMap join "
            + java.matches());
      }
      r.row(q.id, "duckdb", null, build.length, probe.length, duckRun.count(), ok ? "ok" : "MISMATCH", null, null,
          round(duckRun.millis()), null, null, null, null, null, null, null, null, null, null, null, null, null);
    }
    for (TableKind kind : kinds) {
      for (JoinColumns.Memory memory : memories) {
        mismatches += kindRow(r, q, kind, memory, build, probe, unavailable, java, javaMs, duckMs, speedups, prehash,
            overDuck);
      }
    }
    return mismatches;
  }

  /** One kind on one memory path: its row, its speed-ups recorded; returns 1 when its result differs. */
  private int kindRow(Report r, JoinQuery q, TableKind kind, JoinColumns.Memory memory, int[] build, int[] probe,
      Map<TableKind, String> unavailable, JavaHashJoin.Result java, double javaMs, Double duckMs,
      Map<String, List<double[]>> speedups, Map<TableKind, List<double[]>> prehash,
      Map<String, List<double[]>> overDuck) {
    String kindName = Texts.kindName(kind);
    String name = memory == JoinColumns.Memory.HEAP ? kindName : kindName + "-" + memory.label();
    if (unavailable.containsKey(kind)) {
      r.row(q.id, kindName, memory.label(), build.length, probe.length, null, "unavailable", null, null, null, null,
          null, null, null, null, null, null, null, null, null, null, null, null, null);
      return 0;
    }
    output.progress("join " + q.id + ": " + name);
    Measured m;
    try (JoinColumns cols = JoinColumns.of(memory, q, build, probe)) {
      m = measure(kind, q, cols, memory == JoinColumns.Memory.HEAP ? probe : null);
    }
    boolean ok = m.matches == java.matches() && m.checksum == java.checksum();
    if (!ok) {
      output.progress("join " + q.id + " " + name + ": MISMATCH: " + m.matches + " matches (checksum " + m.checksum
          + "), java HashMap join " + java.matches() + " (checksum " + java.checksum() + ")");
    }
    speedups.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {javaMs / m.probeMs, javaMs / m.kernelMs});
    if (m.prehashedKernelMs != null) {
      prehash.computeIfAbsent(kind, k -> new ArrayList<>())
          .add(new double[] {m.kernelMs, m.prehashedKernelMs, m.hashMs, m.tableMs == null ? Double.NaN : m.tableMs,
              m.prehashedTableMs == null ? Double.NaN : m.prehashedTableMs});
    }
    double total = m.buildMs + m.probeMs;
    Double bound = kind.isGpu() && !table.sharded()
        ? JoinBound.millis(memory, build.length, probe.length, JoinBound.resultBytes(q, m.matches), link) : null;
    r.row(q.id, kindName, memory.label(), build.length, probe.length, m.matches, ok ? "ok" : "MISMATCH", round(m.buildMs),
        round(m.probeMs), round(total), mrows(probe.length, m.probeMs), round(m.kernelMs),
        mrows(probe.length, m.kernelMs), m.tableMs == null ? null : round(m.tableMs),
        m.hashMs == null ? null : round(m.hashMs), m.prehashedKernelMs == null ? null : round(m.prehashedKernelMs),
        m.prehashedTableMs == null ? null : round(m.prehashedTableMs), round(javaMs / m.probeMs),
        round(javaMs / m.kernelMs), overDuck(overDuck, name, duckMs, total, bound), bound == null ? null : round(bound),
        bound == null ? null : round(100 * bound / total), bound == null || duckMs == null ? null : round(duckMs / bound));
    return ok ? 0 : 1;
  }

  /**
   * DuckDB's time over a row's build + probe time, recorded for the summary with DuckDB's time over the
   * row's bound (NaN without one); null without DuckDB.
   */
  private static Double overDuck(Map<String, List<double[]>> overDuck, String who, Double duckMs, double totalMs,
      Double boundMs) {
    if (duckMs == null || !(totalMs > 0)) {
      return null;
    }
    double x = duckMs / totalMs;
    overDuck.computeIfAbsent(who, k -> new ArrayList<>())
        .add(new double[] {x, boundMs != null && boundMs > 0 ? duckMs / boundMs : Double.NaN});
    return round(x);
  }

  /** Times and results of one query on one kind. */
  private static final class Measured {
    long matches;
    long checksum;
    double buildMs;
    double probeMs;
    double kernelMs;
    Double tableMs;
    Double hashMs;
    Double prehashedKernelMs;
    Double prehashedTableMs;
  }

  /**
   * Builds (--warmup + --reps times, the last join kept) and probes one core from cols; times are medians.
   * heapProbe: the probe column as int[] for the pre-hashed probes (heap path only), else null.
   */
  private Measured measure(TableKind kind, JoinQuery q, JoinColumns cols, int[] heapProbe) {
    Measured m = new Measured();
    List<Double> builds = new ArrayList<>();
    Join j = null;
    try {
      for (int i = 0; i < warmup + reps; i++) {
        if (j != null) {
          j.close();
          j = null;
        }
        long t0 = System.nanoTime();
        j = cols.build(table.place(Join.builder().kind(kind).build(q.build), kind).threads(threads));
        if (i >= warmup) {
          builds.add((System.nanoTime() - t0) / 1e6);
        }
      }
      m.buildMs = Throughput.median(builds);
      List<Double> e2e = new ArrayList<>(), kernel = new ArrayList<>(), tbl = new ArrayList<>();
      for (int i = 0; i < warmup + reps; i++) {
        long s = System.nanoTime();
        long count = cols.probe(j);
        double ms = (System.nanoTime() - s) / 1e6; // the checksum below is not part of the probe's time
        long[] result = cols.tally(count);
        JoinStats st = j.stats();
        if (i == 0) {
          m.matches = result[0];
          m.checksum = result[1];
        } else if (result[0] != m.matches || result[1] != m.checksum) {
          m.checksum ^= 1; // results changed between runs: reported as a mismatch
        }
        if (i >= warmup) {
          e2e.add(ms);
          kernel.add(st.lastKernelMillis());
          tbl.add(st.lastTableMillis());
        }
      }
      m.probeMs = Throughput.median(e2e);
      m.kernelMs = Throughput.median(kernel);
      m.tableMs = kind.isGpu() ? Throughput.median(tbl) : null;
      if (heapProbe != null && q.result == JoinQuery.Result.PAIRS && kind != TableKind.HIVE) {
        prehashed(j, kind, q, heapProbe, m);
      }
    } finally {
      if (j != null) {
        j.close();
      }
    }
    return m;
  }

  /** Decoupled hashing: the probe column hashed once, then probes that take the hashes. */
  private void prehashed(Join j, TableKind kind, JoinQuery q, int[] probe, Measured m) {
    long[] hashes;
    try {
      hashes = j.hash(probe);
    } catch (UnsupportedKindException e) {
      return;
    }
    List<Double> hash = new ArrayList<>(), kernel = new ArrayList<>(), tbl = new ArrayList<>();
    if (kind.isGpu()) {
      try (DeviceBuffer keys = DeviceBuffer.ofInts(table.firstDevice(), probe);
          DeviceBuffer h = DeviceBuffer.allocate(table.firstDevice(), 8L * probe.length)) {
        for (int i = 0; i < warmup + reps; i++) {
          long s = System.nanoTime();
          j.hash(keys, probe.length, h);
          if (i >= warmup) {
            hash.add((System.nanoTime() - s) / 1e6);
          }
        }
      }
    } else {
      try (Arena a = Arena.ofConfined()) {
        MemorySegment keys = a.allocate(ValueLayout.JAVA_INT, Math.max(1, probe.length));
        MemorySegment.copy(probe, 0, keys, ValueLayout.JAVA_INT, 0, probe.length);
        MemorySegment h = a.allocate(ValueLayout.JAVA_LONG, Math.max(1, probe.length));
        for (int i = 0; i < warmup + reps; i++) {
          long s = System.nanoTime();
          j.hash(keys, probe.length, h);
          if (i >= warmup) {
            hash.add((System.nanoTime() - s) / 1e6);
          }
        }
      }
    }
    for (int i = 0; i < warmup + reps; i++) {
      long[] result = tally(probe(j, q, probe, hashes));
      JoinStats st = j.stats();
      if (result[0] != m.matches || result[1] != m.checksum) {
        m.checksum ^= 1; // pre-hashed results differ: reported as a mismatch
      }
      if (i >= warmup) {
        kernel.add(st.lastKernelMillis());
        tbl.add(st.lastTableMillis());
      }
    }
    m.hashMs = Throughput.median(hash);
    m.prehashedKernelMs = Throughput.median(kernel);
    m.prehashedTableMs = kind.isGpu() ? Throughput.median(tbl) : null;
  }

  /** The query's probe: the matching pairs (JoinPairs) or, for semi and anti joins, the rows (int[]). */
  private static Object probe(Join j, JoinQuery q, int[] probe, long[] hashes) {
    return switch (q.result) {
      case PAIRS -> hashes == null ? j.probe(probe) : j.probe(probe, hashes);
      case SEMI -> j.semi(probe);
      default -> j.anti(probe);
    };
  }

  /** {matches, checksum} of a probe's result. */
  private static long[] tally(Object rows) {
    if (rows instanceof JoinPairs p) {
      return new long[] {p.size(), JoinQuery.checksum(p.probeRows(), p.buildRows(), p.size())};
    }
    int[] r = (int[]) rows;
    return new long[] {r.length, JoinQuery.checksum(r, null, r.length)};
  }

  /** Geometric-mean speed-ups per kind, and whether pre-hashing paid, from the measured rows. */
  private static void summary(Report r, Map<String, List<double[]>> speedups, Map<TableKind, List<double[]>> prehash,
      Map<String, List<double[]>> overDuck) {
    for (var e : speedups.entrySet()) {
      String k = e.getKey().replace('-', '_');
      r.field("speedup_vs_java_" + k, round(Summary.geomean(e.getValue(), 0)));
      r.field("kernel_speedup_vs_java_" + k, round(Summary.geomean(e.getValue(), 1)));
    }
    for (var e : overDuck.entrySet()) {
      r.field("speedup_vs_duckdb_" + e.getKey().replace('-', '_'), round(Summary.geomean(e.getValue(), 0)));
    }
    // The most the link allows: geometric means of duckdb_speedup_bound, where every core has a bound.
    for (var e : overDuck.entrySet()) {
      if (e.getValue().stream().noneMatch(x -> Double.isNaN(x[1]))) {
        r.field("speedup_bound_vs_duckdb_" + e.getKey().replace('-', '_'), round(Summary.geomean(e.getValue(), 1)));
      }
    }
    for (var e : prehash.entrySet()) {
      String k = Texts.kindName(e.getKey());
      double plain = 0, pre = 0, hash = 0;
      for (double[] x : e.getValue()) {
        plain += x[0];
        pre += x[1];
        hash += x[2];
      }
      double saved = plain - pre;
      String verdict;
      if (saved <= 0) {
        verdict = String.format("does not pay: pre-hashed probes took %.2f ms against %.2f ms without hashes (sum over"
            + " the inner joins); reading 8-byte hashes costs more than computing them", pre, plain);
      } else {
        verdict = String.format("pays when one hashed column serves %d or more probes: pre-hashed probes save %.2f ms"
            + " of %.2f ms, hashing the columns once costs %.2f ms (sums over the inner joins)",
            (long) Math.max(1, Math.ceil(hash / saved)), saved, plain, hash);
      }
      r.field("prehash_" + k, verdict);
    }
  }

  private void header(Report r, List<TableKind> kinds, List<JoinQuery> queries) {
    r.field("command", "join");
    table.machineFields(r, kinds);
    r.field("tpch_generator", "io.trino.tpch " + tpchVersion());
    r.field("scale_factor", sf);
    r.field("kinds", Texts.kindNames(kinds));
    if (table.sharded()) {
      List<String> layouts = new ArrayList<>();
      for (TableKind k : kinds) {
        layouts.add(Texts.kindName(k) + ": " + table.layout(k));
      }
      r.field("layout", layouts);
    }
    List<String> qs = new ArrayList<>();
    for (JoinQuery q : queries) {
      qs.add(q.id + ": " + q.description + " [" + q.build.name().toLowerCase() + " build]");
    }
    r.field("queries", qs);
    r.field("reps", reps);
    r.field("warmup", warmup);
    r.field("java_reps", javaReps);
    r.field("threads", threads == 0 ? "all (" + Runtime.getRuntime().availableProcessors() + ")" : Integer.toString(threads));
    r.field("unit", "ms; mrows_s = million probe rows per second; total_ms = build_ms + probe_ms (duckdb: its count"
        + " query, build and probe in one); duckdb_speedup = duckdb total_ms / total_ms; speedup_vs_* = geometric means"
        + " over the cores");
  }

  /** The generator's version, from the Maven metadata its jar carries (kept in the shaded jar). */
  private static String tpchVersion() {
    try (var in = io.trino.tpch.TpchTable.class.getResourceAsStream("/META-INF/maven/io.trino.tpch/tpch/pom.properties")) {
      if (in != null) {
        java.util.Properties p = new java.util.Properties();
        p.load(in);
        return p.getProperty("version", "unknown");
      }
    } catch (java.io.IOException e) {
      // reported as unknown
    }
    return "unknown";
  }

  private static double round(double x) {
    if (!Double.isFinite(x)) {
      return x;
    }
    double mag = Math.abs(x) >= 100 ? 10 : Math.abs(x) >= 1 ? 100 : 10000;
    return Math.round(x * mag) / mag;
  }

  private static Double mrows(long rows, double ms) {
    return ms > 0 ? round(rows / ms / 1e3) : null;
  }
}
