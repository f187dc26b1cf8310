package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.cli.CountConverter;
import picocli.CommandLine.Option;

/** Mixin of {@code wixlib bench}: the options of the suites (the two papers' experiments). */
final class SuiteOptions {
  @Option(names = "--suite", paramLabel = "NAME", split = ",",
      description = {"Runs suites instead of the plain benchmark: static (GLHT paper: bulk build + retrieve at"
          + " load 0.8 for 2^16 … 2^26 keys, all hits and all misses), dynamic (GLHT paper: mixes [20,20,60]"
          + " and [40,40,20] on key ranges 100 … 100000, 100000 and 2^24 ops), load (Hive paper: insert / find"
          + " / erase at load factors 0.5 … 0.95, and growth from a small table against the same inserts into a"
          + " table made for them: the share of time spent resizing), baseline (the same streams"
          + " on java.util.HashMap, ConcurrentHashMap, fastutil Int2IntOpenHashMap and the cpu kind), or all."
          + " Several: --suite baseline,static."})
  List<String> names = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR",
      description = "With --suite: also write DIR/bench.json, DIR/bench.csv, DIR/bench.txt, one chart per"
          + " suite (DIR/bench-SUITE.svg and .png) and DIR/index.html showing them all.")
  java.nio.file.Path out;

  @Option(names = "--chart", paramLabel = "FILE.svg|png",
      description = "With --suite: write the paper-style plots to FILE.svg or FILE.png (FILE-SUITE.svg when"
          + " several suites run), drawn by XChart; needs the java.desktop module.")
  java.nio.file.Path chart;

  @Option(names = "--max-cpu-keys", paramLabel = "N", defaultValue = "2^22", converter = CountConverter.class,
      description = "With --suite: the most keys or ops the cpu kind and the Java baselines run with (larger"
          + " sizes are skipped or capped, as the header says) (default: ${DEFAULT-VALUE}).")
  long maxCpuKeys;

  @Option(names = "--mixed-ops", paramLabel = "N", split = ",", converter = CountConverter.class,
      description = "With --suite dynamic: the op counts of the mixed batches (default: 100000,2^24, the"
          + " larger one = --keys when given).")
  List<Long> mixedOps = new ArrayList<>();

  @Option(names = "--key-ranges", paramLabel = "N", split = ",", converter = CountConverter.class,
      description = "With --suite dynamic: the key ranges (default: 100,1000,10000,100000).")
  List<Long> keyRanges = new ArrayList<>();

  @Option(names = "--load-factors", paramLabel = "F", split = ",",
      description = "With --suite load: the load factors (default: 0.5,0.6,0.7,0.8,0.9,0.95).")
  List<Double> loadFactors = new ArrayList<>();
}
