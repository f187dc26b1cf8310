package org.wixlib.cli.bench;

import java.util.Locale;

/** The benchmark suites of {@code wixlib bench --suite}. */
enum Suite {
  /** GLHT paper, static: bulk build then retrieve (all hits, all misses) at load 0.8, 2^16 … 2^26 ops. */
  STATIC,
  /** GLHT paper, dynamic: mixed batches [20,20,60] and [40,40,20] over key ranges 100 … 100000. */
  DYNAMIC,
  /** Hive paper: insert / find / erase at load factors 0.5 … 0.95, and growth from a small table (vs presized). */
  LOAD,
  /** The same streams on java.util.HashMap, ConcurrentHashMap, fastutil and the cpu kind. */
  BASELINE;

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** "static", "dynamic", "load", "baseline" (any case); throws IllegalArgumentException otherwise. */
  static Suite parse(String value) {
    String v = value.trim().toUpperCase(Locale.ROOT);
    for (Suite s : values()) {
      if (s.name().equals(v)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown suite '" + value + "' (expected static, dynamic, load,"
        + " baseline or all)");
  }
}
