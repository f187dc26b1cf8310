package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.DeviceBuffer;
import org.wixlib.HashTable;
import org.wixlib.TableKind;
import org.wixlib.cli.CheckFailedException;
import org.wixlib.cli.Progress;
import org.wixlib.cli.Texts;

/**
 * The bulk benchmark of {@link BenchRunner} on 64-bit keys and values (tables built with keyBits(64),
 * long[] overloads end to end, 8-byte DeviceBuffers for the kernel-only pass). Same reps, checks and
 * table sizing as the 32-bit run, so the two widths compare row by row.
 */
final class WideBenchRunner {
  private final TableKind kind;
  private final BenchRunner.Params p;
  private final Progress log;
  private final String name;

  WideBenchRunner(TableKind kind, BenchRunner.Params p, Progress log) {
    this.kind = kind;
    this.p = p;
    this.log = log;
    this.name = Texts.kindName(kind) + " (64-bit)";
  }

  private HashTable newTable(long capacity) {
    return BenchRunner.newTable(kind, p, capacity, 64);
  }

  List<BenchRunner.Result> bulk(WideBenchData d) {
    int n = d.keys.length;
    Throughput[] e2e = BenchRunner.newSamples();
    Throughput[] kernel = BenchRunner.newSamples();
    long[] out = new long[n];
    String note = "";
    for (int rep = -p.warmup(); rep < p.reps(); rep++) {
      Throughput[] sink = rep >= 0 ? e2e : BenchRunner.newSamples();
      try (HashTable t = newTable(p.tableCapacity(n))) {
        if (kind.isGpu()) {
          t.contains(d.absent, new byte[n]);  // the one-time staging setup, untimed (as BenchRunner)
        }
        long t0 = System.nanoTime();
        t.insert(d.keys, d.values);
        sink[0].addNanos(n, System.nanoTime() - t0);
        Checks.size(name, t.size(), n, "insert");
        if (rep == 0) {
          note = "load " + Texts.fixed2(t.loadFactor()) + " of " + t.stats().capacity() + " slots";
        }
        t0 = System.nanoTime();
        t.find(d.keys, out, WideBenchData.NOT_FOUND);
        sink[1].addNanos(n, System.nanoTime() - t0);
        expect(d.keys, out, d.values, "find_present");
        t0 = System.nanoTime();
        t.find(d.absent, out, WideBenchData.NOT_FOUND);
        sink[2].addNanos(n, System.nanoTime() - t0);
        expect(d.absent, out, null, "find_absent");
        t0 = System.nanoTime();
        t.erase(d.keys);
        sink[3].addNanos(n, System.nanoTime() - t0);
        Checks.size(name, t.size(), 0, "erase");
      }
      log.progress(name + " bulk " + (rep < 0 ? "warmup" : "rep " + (rep + 1)) + ": insert "
          + BenchRunner.mops(sink[0].last()) + " M ops/s");
    }
    if (kind.isGpu()) {
      kernel(d, out, kernel);
    }
    List<BenchRunner.Result> rows = new ArrayList<>();
    for (int i = 0; i < BenchRunner.BULK.length; i++) {
      rows.add(new BenchRunner.Result(BenchRunner.BULK[i], n, e2e[i], kind.isGpu() ? kernel[i] : null,
          i == 0 ? note : ""));
    }
    return rows;
  }

  private void kernel(WideBenchData d, long[] out, Throughput[] samples) {
    int n = d.keys.length;
    try (DeviceBuffer keys = DeviceBuffer.ofLongs(p.device(), d.keys);
        DeviceBuffer values = DeviceBuffer.ofLongs(p.device(), d.values);
        DeviceBuffer absent = DeviceBuffer.ofLongs(p.device(), d.absent);
        DeviceBuffer dOut = DeviceBuffer.allocate(p.device(), 8L * n)) {
      for (int rep = -p.warmup(); rep < p.reps(); rep++) {
        Throughput[] sink = rep >= 0 ? samples : BenchRunner.newSamples();
        try (HashTable t = newTable(p.tableCapacity(n))) {
          t.insert(keys, values, n, null);
          sink[0].addMillis(n, t.stats().lastKernelMillis());
          Checks.size(name, t.size(), n, "insert (device-resident)");
          t.find(keys, dOut, n, BenchData.NOT_FOUND);
          sink[1].addMillis(n, t.stats().lastKernelMillis());
          if (rep == 0) {
            dOut.copyTo(out);
            expect(d.keys, out, d.values, "find_present (device-resident)");
          }
          t.find(absent, dOut, n, BenchData.NOT_FOUND);
          sink[2].addMillis(n, t.stats().lastKernelMillis());
          if (rep == 0) {
            dOut.copyTo(out);
            expect(d.absent, out, null, "find_absent (device-resident)");
          }
          t.erase(keys, n, null);
          sink[3].addMillis(n, t.stats().lastKernelMillis());
          Checks.size(name, t.size(), 0, "erase (device-resident)");
        }
        log.progress(name + " kernel " + (rep < 0 ? "warmup" : "rep " + (rep + 1)) + ": find_present "
            + BenchRunner.mops(sink[1].last()) + " M ops/s");
      }
    }
  }

  /** got[i] must be expected[i], or NOT_FOUND for every key when expected is null (absent keys). */
  private void expect(long[] keys, long[] got, long[] expected, String op) {
    for (int i = 0; i < keys.length; i++) {
      long want = expected == null ? WideBenchData.NOT_FOUND : expected[i];
      if (got[i] != want) {
        throw new CheckFailedException(name + " " + op + ": key " + Long.toUnsignedString(keys[i])
            + " gave value " + got[i] + ", expected " + want);
      }
    }
  }
}
