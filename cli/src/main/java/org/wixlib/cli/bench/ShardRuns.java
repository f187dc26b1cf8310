package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.TableKind;
import org.wixlib.cli.Texts;

/**
 * The table layouts a plain bench run measures for one kind (--shards, --devices): the tables asked
 * for and, when --devices lists several GPUs, first the same tables on the first device alone (the
 * same --shards there, or one plain table without it): the baseline of the scaling column.
 */
final class ShardRuns {
  private ShardRuns() {}

  /**
   * One layout.
   *
   * @param params the runner's params, tables placed as the layout says
   * @param shards the shard count, for the shards column
   * @param devices the devices column: "0", "0,1", or "host" for the cpu kind
   * @param baseline the one-device run that a multi-device run is compared with (scaling)
   */
  record Run(BenchRunner.Params params, int shards, String devices, boolean baseline) {}

  /** Columns of every row when --shards or --devices was given, else the plain ones. */
  static String[] columns(boolean sharded) {
    List<String> c = new ArrayList<>(List.of("kind", "path"));
    if (sharded) {
      c.addAll(List.of("shards", "devices"));
    }
    c.addAll(List.of("op", "n", "mops", "mops_min", "mops_max", "bound", "pct_of_bound"));
    if (sharded) {
      c.add("scaling");
    }
    c.add("note");
    return c.toArray(new String[0]);
  }

  /** The runs of a kind: one, or the one-device baseline then the multi-device tables. */
  static List<Run> of(TableKind kind, BenchRunner.Params base, Integer shards, int[] devices) {
    int[] ds = kind.isGpu() ? devices : null;
    int n = shards != null ? shards : ds != null ? ds.length : 1;
    if (ds == null) {
      return List.of(new Run(base.placed(shards, null), n, kind.isGpu() ? Integer.toString(base.device()) : "host",
          false));
    }
    Run all = new Run(base.placed(shards, ds), n, Texts.ints(ds), false);
    if (ds.length == 1) {
      return List.of(all);
    }
    Run one = new Run(base.placed(shards, new int[] {ds[0]}), shards != null ? shards : 1,
        Integer.toString(ds[0]), true);
    return List.of(one, all);
  }

  /** rate(all devices) / rate(one device) of two medians; null without either. */
  static Double scaling(Throughput all, Throughput one) {
    if (all == null || one == null || all.median() == null || one.median() == null || !(one.median() > 0)) {
      return null;
    }
    return all.median() / one.median();
  }

  /** A row's values in the order of {@link #columns(boolean)}. */
  static Object[] row(boolean sharded, String kind, String path, Run run, String op, Long n, Throughput t,
      Double bound, Double pct, Double scaling, String note) {
    List<Object> v = new ArrayList<>(List.of(kind, path));
    if (sharded) {
      v.add(run == null ? null : run.shards());
      v.add(run == null ? null : run.devices());
    }
    v.add(op);
    v.add(n);
    v.add(t == null ? null : t.median());
    v.add(t == null ? null : t.min());
    v.add(t == null ? null : t.max());
    v.add(bound);
    v.add(pct);
    if (sharded) {
      v.add(scaling);
    }
    v.add(note);
    return v.toArray();
  }
}
