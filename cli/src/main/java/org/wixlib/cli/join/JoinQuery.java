package org.wixlib.cli.join;

import java.util.function.Function;
import org.wixlib.Join;

/**
 * The join cores of TPC-H queries that `wixlib join` runs: which key column builds, which probes, and
 * whether the result is the (probe row, build row) pairs, or the probe rows with (semi) or without
 * (anti) a match. Filters and aggregates of the queries are left out: only the hash-join probe.
 */
enum JoinQuery {
  ORDERS_LINEITEM("orders_lineitem", "orders JOIN lineitem ON orderkey (Q3, Q5, Q10, Q12, Q18, Q21)",
      Join.Build.UNIQUE, Result.PAIRS, TpchColumns::ordersOrderkey, TpchColumns::lineitemOrderkey),
  CUSTOMER_ORDERS("customer_orders", "customer JOIN orders ON custkey (Q3, Q5, Q10, Q13, Q18)",
      Join.Build.UNIQUE, Result.PAIRS, TpchColumns::customerCustkey, TpchColumns::ordersCustkey),
  PART_LINEITEM("part_lineitem", "part JOIN lineitem ON partkey (Q9, Q14, Q17, Q19)",
      Join.Build.UNIQUE, Result.PAIRS, TpchColumns::partPartkey, TpchColumns::lineitemPartkey),
  LINEITEM_ORDERS("lineitem_orders", "lineitem (non-unique build) JOIN orders ON orderkey",
      Join.Build.MULTI, Result.PAIRS, TpchColumns::lineitemOrderkey, TpchColumns::ordersOrderkey),
  Q4_SEMI("q4_semi", "Q4 core: orders WHERE EXISTS lineitem (semi join on orderkey)",
      Join.Build.MULTI, Result.SEMI, TpchColumns::lineitemOrderkey, TpchColumns::ordersOrderkey),
  Q22_ANTI("q22_anti", "Q22 core: customer WHERE NOT EXISTS orders (anti join on custkey)",
      Join.Build.MULTI, Result.ANTI, TpchColumns::ordersCustkey, TpchColumns::customerCustkey);

  enum Result { PAIRS, SEMI, ANTI }

  final String id;
  final String description;
  final Join.Build build;
  final Result result;
  private final Function<TpchColumns, int[]> buildColumn;
  private final Function<TpchColumns, int[]> probeColumn;

  JoinQuery(String id, String description, Join.Build build, Result result, Function<TpchColumns, int[]> buildColumn,
      Function<TpchColumns, int[]> probeColumn) {
    this.id = id;
    this.description = description;
    this.build = build;
    this.result = result;
    this.buildColumn = buildColumn;
    this.probeColumn = probeColumn;
  }

  int[] buildKeys(TpchColumns c) {
    return buildColumn.apply(c);
  }

  int[] probeKeys(TpchColumns c) {
    return probeColumn.apply(c);
  }

  static JoinQuery parse(String s) {
    for (JoinQuery q : values()) {
      if (q.id.equalsIgnoreCase(s.trim())) {
        return q;
      }
    }
    throw new IllegalArgumentException("unknown query '" + s + "' (expected all or one of " + ids() + ")");
  }

  static String ids() {
    StringBuilder b = new StringBuilder();
    for (JoinQuery q : values()) {
      b.append(b.length() == 0 ? "" : ", ").append(q.id);
    }
    return b.toString();
  }

  /** Order-independent checksum of pairs (and of rows: buildRows null). Both sides use this. */
  static long checksum(int[] probeRows, int[] buildRows, int count) {
    long s = 0;
    for (int i = 0; i < count; i++) {
      s += (probeRows[i] & 0xFFFFFFFFL) * 0x9E3779B97F4A7C15L + (buildRows == null ? 1 : (buildRows[i] & 0xFFFFFFFFL) + 1);
    }
    return s;
  }
}
