package org.wixlib.spark.compare;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.spark.JoinType;
import org.wixlib.spark.WixlibJoins;
import org.wixlib.spark.WixlibSqlExtensions;

/**
 * Spark's own broadcast hash join against the wixlib join on the same TPC-H key columns, same session
 * and cores (and, where the session has wixlib's SQL extension and --sql is on, Spark's join planned on
 * wixlib): the six join cores of {@code wixlib join}, each a count of the join's rows (inner pairs, semi
 * or anti rows) timed end to end from cached DataFrames (median of --reps after --warmups runs), for
 * each wixlib kind of --kind against one measurement of Spark's join. The counts must agree (else exit
 * 1). Header lines on stderr, one CSV row per core and kind on stdout.
 *
 * <pre>
 * mvn -q -pl spark exec:exec -Dcompare.args="--sf 1 --kind glht,hive --cores 16"
 * </pre>
 */
public final class JoinComparison {
  /** One join core: which table is broadcast (build), which is probed, and how. */
  record Core(String id, Function<TpchKeys, Dataset<Row>> build, String buildKey,
      Function<TpchKeys, Dataset<Row>> probe, String probeKey, JoinType type) {}

  static final List<Core> CORES = List.of(
      new Core("orders_lineitem", TpchKeys::orders, "o_orderkey", TpchKeys::lineitem, "l_orderkey", JoinType.INNER),
      new Core("customer_orders", TpchKeys::customer, "c_custkey", TpchKeys::orders, "o_custkey", JoinType.INNER),
      new Core("part_lineitem", TpchKeys::part, "p_partkey", TpchKeys::lineitem, "l_partkey", JoinType.INNER),
      new Core("lineitem_orders", TpchKeys::lineitem, "l_orderkey", TpchKeys::orders, "o_orderkey", JoinType.INNER),
      new Core("q4_semi", TpchKeys::lineitem, "l_orderkey", TpchKeys::orders, "o_orderkey", JoinType.LEFT_SEMI),
      new Core("q22_anti", TpchKeys::orders, "o_custkey", TpchKeys::customer, "c_custkey", JoinType.LEFT_ANTI));

  /**
   * One core's result: the counts and median times of Spark's join, of the wixlib join through
   * {@link WixlibJoins}, and of Spark's join planned on wixlib by the SQL extension (sqlMs null when the
   * session has no {@link WixlibSqlExtensions}).
   */
  record Result(String core, String kind, long sparkRows, long wixlibRows, double sparkMs, double wixlibMs,
      long sqlRows, Double sqlMs) {
    boolean agree() {
      return sparkRows == wixlibRows && (sqlMs == null || sqlRows == sparkRows);
    }
  }

  /**
   * Options: scale factor, wixlib kinds (compared in turn against one measurement of Spark's join),
   * measured repetitions, warm-up runs before them, whether to time the SQL extension's plan too, and
   * the cores of a session this runner starts (0: all).
   */
  record Options(double sf, List<String> kinds, int reps, int warmups, boolean sql, int cores) {
    Options {
      kinds = List.copyOf(kinds);
    }

    static Options parse(String[] args) {
      double sf = 1;
      List<String> kinds = List.of("auto");
      int reps = 3, warmups = 1, cores = 0;
      boolean sql = true;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option " + a + " needs a value");
        }
        String v = args[++i];
        switch (a) {
          case "--sf" -> sf = Double.parseDouble(v);
          case "--kind" -> kinds = Arrays.stream(v.split(",")).map(String::trim).filter(k -> !k.isEmpty()).toList();
          case "--reps" -> reps = Integer.parseInt(v);
          case "--warmups" -> warmups = Integer.parseInt(v);
          case "--sql" -> sql = switch (v) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--sql takes on or off, not " + v);
          };
          case "--cores" -> cores = Integer.parseInt(v);
          default -> throw new IllegalArgumentException("unknown option " + a
              + " (expected --sf, --kind, --reps, --warmups, --sql, --cores)");
        }
      }
      if (!(sf > 0) || sf > 100 || reps < 1 || warmups < 0 || cores < 0 || kinds.isEmpty()) {
        throw new IllegalArgumentException("need 0 < --sf <= 100, --reps >= 1, --warmups >= 0, --cores >= 0"
            + " and at least one --kind");
      }
      return new Options(sf, kinds, reps, warmups, sql, cores);
    }
  }

  private JoinComparison() {}

  public static void main(String[] args) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("join comparison: " + e.getMessage());
      System.exit(2);
      return;
    }
    SparkSession spark = SparkSession.builder()
        .master("local[" + (o.cores() == 0 ? "*" : Integer.toString(o.cores())) + "]")
        .appName("wixlib-spark join comparison")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.extensions", WixlibSqlExtensions.class.getName())
        .getOrCreate();
    List<Result> results;
    try {
      results = run(spark, o, System.out, System.err);
    } finally {
      spark.stop();
    }
    System.exit(results.stream().allMatch(Result::agree) ? 0 : 1);
  }

  /** Runs every core on `spark` with o's scale factor and kinds; CSV rows on out, header and progress on err. */
  public static List<Result> run(SparkSession spark, Options o, PrintStream out, PrintStream err) {
    String before = spark.conf().getOption(WixlibJoins.KIND).getOrElse(() -> null);
    try {
      int parallelism = spark.sparkContext().defaultParallelism();
      err.println("spark: " + spark.version() + " (master " + spark.sparkContext().master() + ", " + parallelism
          + " cores)");
      err.println("java: " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name"));
      err.println("wixlib: " + Wixlib.nativeVersion() + " (java api " + Wixlib.javaApiVersion() + "); kinds "
          + String.join(",", o.kinds()) + " (glht " + availability(TableKind.GLHT) + ", hive "
          + availability(TableKind.HIVE) + ")");
      Wixlib.devices().forEach(d -> err.println("device " + d.ordinal() + ": " + d.name()));
      err.println("tpch: io.trino.tpch, scale factor " + o.sf() + "; reps " + o.reps() + " after " + o.warmups()
          + " warm-up(s), medians");
      long t0 = System.nanoTime();
      TpchKeys t = TpchKeys.generate(spark, o.sf(), Math.max(1, Math.min(4 * parallelism, (int) Math.ceil(o.sf() * 6))));
      err.printf(Locale.ROOT, "generated and cached in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      boolean sql = o.sql() && sqlExtension(spark);
      err.println("sql extension: " + (sql ? "on (" + WixlibSqlExtensions.class.getName() + ")"
          : !o.sql() ? "not timed (--sql off)"
          : "off (spark.sql.extensions does not name " + WixlibSqlExtensions.class.getName() + ")"));
      out.println("core,kind,spark_rows,wixlib_rows,check,spark_ms,wixlib_ms,speedup,sql_rows,sql_ms,sql_speedup");
      List<Result> results = new ArrayList<>();
      for (Core c : CORES) {
        Dataset<Row> build = c.build().apply(t), probe = c.probe().apply(t);
        err.println("join " + c.id() + ": spark");
        long[] sparkRows = new long[1];
        double sparkMs = median(o, () -> sparkRows[0] = sparkJoin(build, probe, c).count());
        for (String kind : o.kinds()) {
          spark.conf().set(WixlibJoins.KIND, kind);
          err.println("join " + c.id() + ": wixlib " + kind);
          long[] wixRows = new long[1];
          double wixMs = median(o,
              () -> wixRows[0] = WixlibJoins.join(build, probe, c.buildKey(), c.probeKey(), c.type()).count());
          long[] sqlRows = {-1};
          Double sqlMs = null;
          if (sql) {
            err.println("join " + c.id() + ": spark's join planned on wixlib " + kind + " ("
                + WixlibSqlExtensions.Enabled() + ")");
            spark.conf().set(WixlibSqlExtensions.Enabled(), "true");
            try {
              sqlMs = median(o, () -> sqlRows[0] = sparkJoin(build, probe, c).count());
            } finally {
              spark.conf().unset(WixlibSqlExtensions.Enabled());
            }
          }
          Result r = new Result(c.id(), kind, sparkRows[0], wixRows[0], sparkMs, wixMs, sqlRows[0], sqlMs);
          results.add(r);
          out.printf(Locale.ROOT, "%s,%s,%d,%d,%s,%.1f,%.1f,%.2f,%s%n", c.id(), kind, r.sparkRows(), r.wixlibRows(),
              r.agree() ? "ok" : "MISMATCH", sparkMs, wixMs, sparkMs / wixMs,
              sqlMs == null ? "-,-,-" : String.format(Locale.ROOT, "%d,%.1f,%.2f", sqlRows[0], sqlMs, sparkMs / sqlMs));
        }
      }
      return results;
    } finally {
      if (before == null) {
        spark.conf().unset(WixlibJoins.KIND);
      } else {
        spark.conf().set(WixlibJoins.KIND, before);
      }
    }
  }

  /** Whether the session's spark.sql.extensions name wixlib's. */
  static boolean sqlExtension(SparkSession spark) {
    return spark.conf().getOption("spark.sql.extensions").exists(v -> v.contains(WixlibSqlExtensions.class.getName()));
  }

  /** Spark's broadcast hash join of the core (the build side broadcast, as wixlib's is). */
  static Dataset<Row> sparkJoin(Dataset<Row> build, Dataset<Row> probe, Core c) {
    return probe.join(functions.broadcast(build), probe.col(c.probeKey()).equalTo(build.col(c.buildKey())),
        c.type().sparkName());
  }

  private static String availability(TableKind k) {
    return Wixlib.unavailableReason(k).map(why -> "unavailable: " + why).orElse("available");
  }

  /** Median wall time in ms of o.reps() runs of `run` after o.warmups() runs. */
  private static double median(Options o, Supplier<Long> run) {
    for (int i = 0; i < o.warmups(); i++) {
      run.get();
    }
    int reps = o.reps();
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      long s = System.nanoTime();
      run.get();
      ms[i] = (System.nanoTime() - s) / 1e6;
    }
    Arrays.sort(ms);
    return reps % 2 == 1 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
  }
}
