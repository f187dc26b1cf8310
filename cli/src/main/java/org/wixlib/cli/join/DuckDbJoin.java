package org.wixlib.cli.join;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.wixlib.cli.Progress;
import org.wixlib.cli.bench.Throughput;

/**
 * The join cores in DuckDB, an in-memory columnar database: the same generated TPC-H key columns
 * loaded with DuckDB's Appender into in-memory tables, and each core one SQL query that counts what the
 * wixlib join delivers (the pairs of an inner join, the rows of a semi or anti join). DuckDB builds and
 * probes inside that one query, on all the threads it is given.
 *
 * <p>DuckDB's classes come from a class loader of their own ({@link DuckDbDriver}), so the Appender,
 * which is not JDBC, is called through method handles.
 */
final class DuckDbJoin implements AutoCloseable {
  /** The TPC-H tables the cores read, with the key columns that wixlib join keeps. */
  private enum Table {
    CUSTOMER(List.of("c_custkey"), List.of(TpchColumns::customerCustkey)),
    ORDERS(List.of("o_orderkey", "o_custkey"), List.of(TpchColumns::ordersOrderkey, TpchColumns::ordersCustkey)),
    PART(List.of("p_partkey"), List.of(TpchColumns::partPartkey)),
    LINEITEM(List.of("l_orderkey", "l_partkey"), List.of(TpchColumns::lineitemOrderkey, TpchColumns::lineitemPartkey));

    final List<String> columns;
    final List<Function<TpchColumns, int[]>> data;

    Table(List<String> columns, List<Function<TpchColumns, int[]>> data) {
      this.columns = columns;
      this.data = data;
    }

    String sqlName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The SQL of a join core: a count of what wixlib's join delivers for it. */
  static String sql(JoinQuery q) {
    return switch (q) {
      case ORDERS_LINEITEM -> "SELECT count(*) FROM orders JOIN lineitem ON l_orderkey = o_orderkey";
      case CUSTOMER_ORDERS -> "SELECT count(*) FROM customer JOIN orders ON o_custkey = c_custkey";
      case PART_LINEITEM -> "SELECT count(*) FROM part JOIN lineitem ON l_partkey = p_partkey";
      case LINEITEM_ORDERS -> "SELECT count(*) FROM lineitem JOIN orders ON o_orderkey = l_orderkey";
      case Q4_SEMI -> "SELECT count(*) FROM orders WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey)";
      case Q22_ANTI -> "SELECT count(*) FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)";
    };
  }

  private static Set<Table> tables(JoinQuery q) {
    return switch (q) {
      case ORDERS_LINEITEM, LINEITEM_ORDERS, Q4_SEMI -> EnumSet.of(Table.ORDERS, Table.LINEITEM);
      case CUSTOMER_ORDERS, Q22_ANTI -> EnumSet.of(Table.CUSTOMER, Table.ORDERS);
      case PART_LINEITEM -> EnumSet.of(Table.PART, Table.LINEITEM);
    };
  }

  /** A core's count and its median time over the measured runs. */
  record Timed(long count, double millis) {}

  private final Connection conn;
  private final int threads;
  private final Progress progress;

  /** An in-memory database that runs queries on {@code threads} threads (0 = all cores). */
  DuckDbJoin(DuckDbDriver.Loaded driver, int threads, Progress progress) throws SQLException {
    this.conn = driver.driver().connect("jdbc:duckdb:", new Properties());
    if (conn == null) {
      throw new SQLException("DuckDB's driver refused the URL jdbc:duckdb:");
    }
    this.threads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    this.progress = progress;
    try (Statement s = conn.createStatement()) {
      s.execute("PRAGMA threads=" + this.threads);
    }
  }

  int threads() {
    return threads;
  }

  /** DuckDB's own version (e.g. v1.4.4). */
  String version() throws SQLException {
    try (Statement s = conn.createStatement(); ResultSet r = s.executeQuery("SELECT version()")) {
      r.next();
      return r.getString(1);
    }
  }

  /** Creates and fills the tables the queries read; returns the seconds it took. */
  double load(TpchColumns data, List<JoinQuery> queries) throws SQLException {
    long t0 = System.nanoTime();
    Set<Table> needed = EnumSet.noneOf(Table.class);
    for (JoinQuery q : queries) {
      needed.addAll(tables(q));
    }
    for (Table t : needed) {
      List<int[]> cols = new ArrayList<>();
      List<String> defs = new ArrayList<>();
      for (int i = 0; i < t.columns.size(); i++) {
        cols.add(t.data.get(i).apply(data));
        defs.add(t.columns.get(i) + " INTEGER");
      }
      progress.progress("duckdb: loading " + t.sqlName() + " (" + cols.get(0).length + " rows) with the Appender");
      try (Statement s = conn.createStatement()) {
        s.execute("CREATE TABLE " + t.sqlName() + " (" + String.join(", ", defs) + ")");
      }
      try (Appender a = new Appender(conn, t.sqlName())) {
        a.appendRows(cols);
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Runs the core's query warmup + reps times; the count of the first run and the median of the measured. */
  Timed time(JoinQuery q, int warmup, int reps) throws SQLException {
    String sql = sql(q);
    List<Double> ms = new ArrayList<>();
    long count = -1;
    try (Statement s = conn.createStatement()) {
      for (int i = 0; i < warmup + reps; i++) {
        long t0 = System.nanoTime();
        long c;
        try (ResultSet r = s.executeQuery(sql)) {
          r.next();
          c = r.getLong(1);
        }
        double took = (System.nanoTime() - t0) / 1e6;
        if (count < 0) {
          count = c;
        } else if (c != count) {
          throw new SQLException("DuckDB counted " + c + " then " + count + " for " + q.id);
        }
        if (i >= warmup) {
          ms.add(took);
        }
      }
    }
    return new Timed(count, Throughput.median(ms));
  }

  @Override
  public void close() throws SQLException {
    conn.close();
  }

  /** DuckDB's row Appender (org.duckdb.DuckDBAppender), reached through method handles. */
  private static final class Appender implements AutoCloseable {
    private final Object target;
    private final MethodHandle beginRow;
    private final MethodHandle appendInt;
    private final MethodHandle endRow;
    private final MethodHandle close;

    Appender(Connection conn, String table) throws SQLException {
      try {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        Object app = conn.getClass().getMethod("createAppender", String.class, String.class)
            .invoke(conn, "main", table);
        Class<?> c = app.getClass();
        target = app;
        beginRow = generic(l.findVirtual(c, "beginRow", MethodType.methodType(c)));
        appendInt = generic(l.findVirtual(c, "append", MethodType.methodType(c, int.class)));
        endRow = generic(l.findVirtual(c, "endRow", MethodType.methodType(c)));
        close = l.findVirtual(c, "close", MethodType.methodType(void.class)).asType(
            MethodType.methodType(void.class, Object.class));
      } catch (ReflectiveOperationException e) {
        throw new SQLException("this DuckDB driver has no usable Appender (createAppender, beginRow, append(int),"
            + " endRow): " + e, e);
      }
    }

    /** A handle of the form (Object target, ...) -> Object, callable with invokeExact. */
    private static MethodHandle generic(MethodHandle h) {
      return h.asType(h.type().changeReturnType(Object.class).changeParameterType(0, Object.class));
    }

    /** One row per index of the columns (all of one length), the columns' values in order. */
    void appendRows(List<int[]> cols) throws SQLException {
      int rows = cols.get(0).length;
      int width = cols.size();
      try {
        for (int r = 0; r < rows; r++) {
          Object unused = (Object) beginRow.invokeExact(target);
          for (int c = 0; c < width; c++) {
            unused = (Object) appendInt.invokeExact(target, cols.get(c)[r]);
          }
          unused = (Object) endRow.invokeExact(target);
        }
      } catch (SQLException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new SQLException("DuckDB's Appender failed: " + e, e);
      }
    }

    @Override
    public void close() throws SQLException {
      try {
        close.invokeExact(target);
      } catch (SQLException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new SQLException("DuckDB's Appender failed to close: " + e, e);
      }
    }
  }
}
