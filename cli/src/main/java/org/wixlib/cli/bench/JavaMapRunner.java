package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.cli.Progress;

/**
 * The benchmark streams of {@link BenchRunner} on a {@link JavaMap} baseline: the same keys, values and
 * mixed batches, a fresh presized map per rep, end-to-end time only (there is no kernel).
 */
final class JavaMapRunner {
  private final String name;
  private final BenchRunner.Params p;
  private final Progress log;

  JavaMapRunner(String name, BenchRunner.Params p, Progress log) {
    this.name = name;
    this.p = p;
    this.log = log;
  }

  List<BenchRunner.Result> bulk(BenchData d) {
    int n = d.keys.length;
    Throughput[] e2e = BenchRunner.newSamples();
    int[] out = new int[n];
    for (int rep = -p.warmup(); rep < p.reps(); rep++) {
      Throughput[] sink = rep >= 0 ? e2e : BenchRunner.newSamples();
      try (JavaMap m = JavaMap.create(name, n, p.threads())) {
        long t0 = System.nanoTime();
        m.insert(d.keys, d.values);
        sink[0].addNanos(n, System.nanoTime() - t0);
        Checks.size(name, m.size(), n, "insert");

        t0 = System.nanoTime();
        m.find(d.keys, out, BenchData.NOT_FOUND);
        sink[1].addNanos(n, System.nanoTime() - t0);
        Checks.values(name, d.keys, out, d.values, "find_present");

        t0 = System.nanoTime();
        m.find(d.absent, out, BenchData.NOT_FOUND);
        sink[2].addNanos(n, System.nanoTime() - t0);
        Checks.absent(name, d.absent, out, "find_absent");

        t0 = System.nanoTime();
        m.erase(d.keys);
        sink[3].addNanos(n, System.nanoTime() - t0);
        Checks.size(name, m.size(), 0, "erase");
      }
      StringBuilder sb = new StringBuilder(name + " bulk " + repName(rep) + ":");
      for (int i = 0; i < BenchRunner.BULK.length; i++) {
        sb.append(' ').append(BenchRunner.BULK[i]).append(' ').append(BenchRunner.mops(sink[i].last()));
      }
      log.detail(sb.append(" M ops/s").toString());
    }
    List<BenchRunner.Result> rows = new ArrayList<>();
    for (int i = 0; i < BenchRunner.BULK.length; i++) {
      rows.add(new BenchRunner.Result(BenchRunner.BULK[i], n, e2e[i], null, ""));
    }
    return rows;
  }

  BenchRunner.Result mixed(BenchData.Mixed m) {
    int n = m.ops.length;
    Throughput e2e = new Throughput();
    byte[] outcomes = new byte[n];
    String op = "mixed_" + m.mix;
    for (int rep = -p.warmup(); rep < p.reps(); rep++) {
      Throughput sink = rep >= 0 ? e2e : new Throughput();
      try (JavaMap map = JavaMap.create(name, m.maxKeys, p.threads())) {
        map.insert(m.prefill, m.prefill);
        int[] values = m.values.clone();
        long t0 = System.nanoTime();
        map.batch(m.ops, m.keys, values, outcomes);
        sink.addNanos(n, System.nanoTime() - t0);
        Checks.outcomes(name, m.ops, m.keys, outcomes, op);
      }
      log.detail(name + " " + op + " " + repName(rep) + ": " + BenchRunner.mops(sink.last()) + " M ops/s");
    }
    return new BenchRunner.Result(op, n, e2e, null, "key range " + m.keyRange + ", half present at start");
  }

  private String repName(int rep) {
    return rep < 0 ? "warmup " + (rep + p.warmup() + 1) + "/" + p.warmup() : "rep " + (rep + 1) + "/" + p.reps();
  }
}
