package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.DeviceBuffer;
import org.wixlib.GrowPolicy;
import org.wixlib.HashTable;
import org.wixlib.Outcome;
import org.wixlib.TableKind;
import org.wixlib.cli.Progress;
import org.wixlib.cli.Texts;

/**
 * Runs the benchmark of one table kind: bulk insert / find present / find absent / erase and the mixed
 * batches, each rep on a fresh table sized so it does not grow, on one memory path at a time (the path
 * is a strategy: a {@link Placement} holds the arrays, {@link BulkCalls} picks the overload). Host paths
 * (heap, native, pinned) time the whole Java call with every copy (System.nanoTime); not the table's
 * creation, nor the one-time setup of a GPU table's host staging buffers (made by its first call with
 * host memory), which an untimed call does first (see warmStaging). The device path takes the library's
 * device time of each call (CUDA events, stats().lastKernelMillis). Inserts and erases return an
 * outcome per key on every path, and every result is checked (untimed).
 */
final class BenchRunner {
  /** One result row. */
  record Result(String op, long n, Throughput endToEnd, Throughput kernel, String note) {}

  /**
   * What to run. capacity: the capacity tables are created with (keys they hold at loadFactor); 0 means
   * keys, so the bulk keys fill the table to loadFactor. shards (null: one) and devices (GPU kinds; null:
   * every shard on device, else device is devices[0], where the device path's buffers live).
   */
  record Params(int keys, double loadFactor, int reps, int warmup, int threads, int device, long capacity,
      Integer shards, int[] devices) {
    Params(int keys, double loadFactor, int reps, int warmup, int threads, int device) {
      this(keys, loadFactor, reps, warmup, threads, device, 0);
    }

    Params(int keys, double loadFactor, int reps, int warmup, int threads, int device, long capacity) {
      this(keys, loadFactor, reps, warmup, threads, device, capacity, null, null);
    }

    /** These params with tables of {@code shards} shards on {@code devices} (null: on device). */
    Params placed(Integer shards, int[] devices) {
      return new Params(keys, loadFactor, reps, warmup, threads, devices == null ? device : devices[0], capacity,
          shards, devices);
    }

    long tableCapacity(long n) {
      return capacity > 0 ? capacity : n;
    }
  }

  static final String[] BULK = {"insert", "find_present", "find_absent", "erase"};

  private final TableKind kind;
  private final Params p;
  private final Progress log;
  private final String name;

  BenchRunner(TableKind kind, Params p, Progress log) {
    this.kind = kind;
    this.p = p;
    this.log = log;
    this.name = Texts.kindName(kind);
  }

  private HashTable newTable(long capacity) {
    return newTable(capacity, 32);
  }

  /** A benchmark table: capacity keys at the params' load factor, growing, on the params' device or threads. */
  private HashTable newTable(long capacity, int keyBits) {
    HashTable.Builder b = HashTable.builder().kind(kind).keyBits(keyBits).capacity(capacity)
        .maxLoadFactor(p.loadFactor()).growPolicy(GrowPolicy.AUTO);
    b.threads(p.threads());
    if (kind.isGpu()) {
      if (p.devices() != null) {
        b.devices(p.devices());
      } else {
        b.device(p.device());
      }
    }
    if (p.shards() != null) {
      b.shards(p.shards());
    }
    return b.build();
  }

  // ---- bulk ops ------------------------------------------------------------------------------

  /**
   * Insert, find present, find absent and erase of the data's keys in its key width, on one memory
   * path: one row per op, with the path's rates (end to end, or the kernel's on the device path).
   */
  List<Result> bulk(BenchData d, MemoryPath path) {
    int n = d.n();
    String who = (d.wide() ? name + " (64-bit)" : name) + " " + path.id();
    Throughput[] rates = newSamples();
    String note = "";
    try (Placement mem = path.open(p.device())) {
      BenchData.Placed a = d.new Placed(mem);
      for (int rep = -p.warmup(); rep < p.reps(); rep++) {
        Throughput[] sink = rep >= 0 ? rates : newSamples();
        String described = bulkRep(d, a, path, who, sink, rep == 0);
        if (rep == 0) {
          note = described;
        }
        log.progress(progressLine(who, rep, sink));
      }
    }
    List<Result> rows = new ArrayList<>();
    for (int i = 0; i < BULK.length; i++) {
      rows.add(new Result(BULK[i], n, rates[i], null, i == 0 ? note : ""));
    }
    return rows;
  }

  /** The heap path end to end with, on GPU kinds, the device path's kernel rates beside it (the suites' rows). */
  List<Result> bulk(BenchData d) {
    return besideKernel(bulk(d, MemoryPath.HEAP), kind.isGpu() ? bulk(d, MemoryPath.DEVICE) : null);
  }

  private static List<Result> besideKernel(List<Result> host, List<Result> device) {
    List<Result> rows = new ArrayList<>();
    for (int i = 0; i < host.size(); i++) {
      Result h = host.get(i);
      rows.add(new Result(h.op(), h.n(), h.endToEnd(), device == null ? null : device.get(i).endToEnd(), h.note()));
    }
    return rows;
  }

  private String bulkRep(BenchData d, BenchData.Placed a, MemoryPath path, String who, Throughput[] sink,
      boolean describe) {
    int n = d.n();
    try (HashTable t = newTable(p.tableCapacity(n), d.keyBits)) {
      warmStaging(t, path, a.absent, a.outcomes, n);
      timed(sink[0], t, path, n, () -> BulkCalls.insert(t, a.keys, a.values, n, a.outcomes));
      Checks.size(who, t.size(), n, "insert");
      a.checkOutcomes(who, Outcome.INSERTED, "insert");
      String note = describe ? describe(t) : "";
      log.detail(who + " after insert: " + t.stats());

      timed(sink[1], t, path, n, () -> BulkCalls.find(t, a.keys, a.out, n));
      a.checkFind(who, true, "find_present");

      timed(sink[2], t, path, n, () -> BulkCalls.find(t, a.absent, a.out, n));
      a.checkFind(who, false, "find_absent");

      timed(sink[3], t, path, n, () -> BulkCalls.erase(t, a.keys, n, a.outcomes));
      Checks.size(who, t.size(), 0, "erase");
      a.checkOutcomes(who, Outcome.ERASED, "erase");
      return note;
    }
  }

  /**
   * Records one call's rate: the wall time of the whole Java call, or on the device path the library's
   * device time of it (CUDA events, stats().lastKernelMillis).
   */
  private static void timed(Throughput sink, HashTable t, MemoryPath path, long n, Runnable call) {
    long t0 = System.nanoTime();
    call.run();
    long nanos = System.nanoTime() - t0;
    if (path.kernelTimed()) {
      sink.addMillis(n, t.stats().lastKernelMillis());
    } else {
      sink.addNanos(n, nanos);
    }
  }

  /**
   * A GPU table makes its host staging buffers (pinned host memory, device buffers, copy threads) on
   * its first call with host memory, sized for that call; they are reused by every later call and
   * freed with the table. Like the table's creation, that one-time setup is kept out of the timed
   * calls: a contains of {@code keys} (as many as the timed calls take; it changes nothing) makes them.
   */
  private void warmStaging(HashTable t, MemoryPath path, Object keys, Object found, int n) {
    if (kind.isGpu() && !path.kernelTimed()) {
      BulkCalls.contains(t, keys, found, n);
    }
  }

  private void warmStaging(HashTable t, int[] keys) {
    warmStaging(t, MemoryPath.HEAP, keys, new byte[keys.length], keys.length);
  }

  /** Slots of a table created with these params for n keys (kinds round slot counts their own way). */
  long slots(long n) {
    try (HashTable t = newTable(p.tableCapacity(n))) {
      return t.stats().capacity();
    }
  }

  // ---- growth from a small table -----------------------------------------------------------------

  /**
   * Inserts the keys in {@code chunks} calls into a table created for {@code initialCapacity} keys, so
   * it grows (grow_insert, resizes timed), then the same calls into a table created for all of them
   * (insert_presized): what growing costs is the difference, given in grow_insert's note as a share of
   * its time. End-to-end: the sum of the calls; kernel-only (GPU): the sum of the calls' device times
   * with device-resident chunks (resizes inside a call count as that call's time).
   */
  List<Result> growth(BenchData d, int chunks, long initialCapacity) {
    int n = d.keys.length;
    int[][] keyChunks = split(d.keys, chunks);
    int[][] valueChunks = split(d.values, chunks);
    long presized = p.tableCapacity(n);
    Timed grow = chunkedInserts(initialCapacity, keyChunks, valueChunks, n, "grow_insert");
    Timed pre = chunkedInserts(presized, keyChunks, valueChunks, n, "insert_presized");
    Throughput growKernel = null;
    Throughput preKernel = null;
    if (kind.isGpu()) {
      List<DeviceBuffer> buffers = new ArrayList<>();
      try {
        for (int c = 0; c < keyChunks.length; c++) {
          buffers.add(DeviceBuffer.ofInts(p.device(), keyChunks[c]));
          buffers.add(DeviceBuffer.ofInts(p.device(), valueChunks[c]));
        }
        growKernel = chunkedInsertsOnDevice(initialCapacity, buffers, keyChunks, n, "grow_insert");
        preKernel = chunkedInsertsOnDevice(presized, buffers, keyChunks, n, "insert_presized");
      } finally {
        for (DeviceBuffer b : buffers) {
          b.close();
        }
      }
    }
    String share = "; resizing took " + resizeShare(grow.rates(), pre.rates()) + " of the time"
        + (kind.isGpu() ? " (kernel-only: " + resizeShare(growKernel, preKernel) + ")" : "");
    return List.of(new Result("grow_insert", n, grow.rates(), growKernel, grow.note() + share),
        new Result("insert_presized", n, pre.rates(), preKernel,
            "the same " + keyChunks.length + " calls into a table made for all " + n + " keys"));
  }

  /**
   * Share of the growing run's time that the presized run did not need: 1 - t(presized) / t(grow)
   * = 1 - rate(grow) / rate(presized), from the medians; "-" without samples. Noise can make it
   * negative on small inputs: shown as measured.
   */
  static String resizeShare(Throughput grow, Throughput presized) {
    if (grow == null || presized == null || grow.median() == null || presized.median() == null) {
      return "-";
    }
    return String.format(java.util.Locale.ROOT, "%.0f %%", 100 * (1 - grow.median() / presized.median()));
  }

  /** End-to-end rates of chunkedInserts, and how its first measured table grew. */
  private record Timed(Throughput rates, String note) {}

  /** The chunks inserted call by call into a fresh table of the given capacity, per rep; timed end to end. */
  private Timed chunkedInserts(long capacity, int[][] keyChunks, int[][] valueChunks, int n, String op) {
    Throughput out = new Throughput();
    String note = "";
    for (int rep = -p.warmup(); rep < p.reps(); rep++) {
      Throughput sink = rep >= 0 ? out : new Throughput();
      try (HashTable t = newTable(capacity)) {
        warmStaging(t, keyChunks[0]);
        long nanos = 0;
        for (int c = 0; c < keyChunks.length; c++) {
          long t0 = System.nanoTime();
          t.insert(keyChunks[c], valueChunks[c]);
          nanos += System.nanoTime() - t0;
        }
        sink.addNanos(n, nanos);
        expectSize(t, n, op);
        if (rep == 0) {
          note = "from capacity " + capacity + " in " + keyChunks.length + " calls: grew "
              + t.stats().resizes() + "x to " + t.stats().capacity() + " slots";
        }
      }
      log.progress(name + " " + op + " " + repName(rep) + ": " + mops(sink.last()) + " M ops/s");
    }
    return new Timed(out, note);
  }

  /** As chunkedInserts with device-resident chunks (keys, values alternating in buffers): kernel time. */
  private Throughput chunkedInsertsOnDevice(long capacity, List<DeviceBuffer> buffers, int[][] keyChunks, int n,
      String op) {
    Throughput out = new Throughput();
    for (int rep = -p.warmup(); rep < p.reps(); rep++) {
      Throughput sink = rep >= 0 ? out : new Throughput();
      try (HashTable t = newTable(capacity)) {
        double ms = 0;
        for (int c = 0; c < keyChunks.length; c++) {
          t.insert(buffers.get(2 * c), buffers.get(2 * c + 1), keyChunks[c].length, null);
          ms += t.stats().lastKernelMillis();
        }
        sink.addMillis(n, ms);
        expectSize(t, n, op + " (device-resident)");
      }
      log.progress(name + " " + op + " kernel " + repName(rep) + ": " + mops(sink.last()) + " M ops/s");
    }
    return out;
  }

  /** a cut into `parts` consecutive pieces of near-equal length (fewer when a is shorter). */
  static int[][] split(int[] a, int parts) {
    int k = Math.max(1, Math.min(parts, a.length));
    int[][] out = new int[k][];
    for (int i = 0; i < k; i++) {
      int from = (int) ((long) a.length * i / k);
      int to = (int) ((long) a.length * (i + 1) / k);
      out[i] = java.util.Arrays.copyOfRange(a, from, to);
    }
    return out;
  }

  private static String describe(HashTable t) {
    var s = t.stats();
    String note = "load " + Texts.fixed2(t.loadFactor()) + " of " + s.capacity() + " slots";
    return s.resizes() > 0 ? note + ", grew " + s.resizes() + "x" : note;
  }

  // ---- mixed batches -------------------------------------------------------------------------

  /** A mixed batch on one memory path, each rep on a fresh table holding the batch's prefill. */
  Result mixed(BenchData.Mixed m, MemoryPath path) {
    int n = m.ops.length;
    Throughput rates = new Throughput();
    String op = "mixed_" + m.mix;
    String who = name + " " + path.id();
    try (Placement mem = path.open(p.device())) {
      BenchData.Mixed.Placed a = m.new Placed(mem);
      for (int rep = -p.warmup(); rep < p.reps(); rep++) {
        Throughput sink = rep >= 0 ? rates : new Throughput();
        try (HashTable t = newTable(m.maxKeys)) {
          t.insert(m.prefill, null);
          warmStaging(t, path, a.keys, a.outcomes, n);
          a.reset();
          timed(sink, t, path, n, () -> BulkCalls.batch(t, a.ops, a.keys, a.values, n, a.outcomes));
          a.check(who, op);
        }
        log.progress(who + " " + op + " " + repName(rep) + ": " + mops(sink.last()) + " M ops/s");
      }
    }
    return new Result(op, n, rates, null, "key range " + m.keyRange + ", half present at start");
  }

  /** The heap path end to end with, on GPU kinds, the device path's kernel rate beside it (the suites' rows). */
  Result mixed(BenchData.Mixed m) {
    Result heap = mixed(m, MemoryPath.HEAP);
    Result device = kind.isGpu() ? mixed(m, MemoryPath.DEVICE) : null;
    return new Result(heap.op(), heap.n(), heap.endToEnd(), device == null ? null : device.endToEnd(), heap.note());
  }

  // ---- checks (never timed) ------------------------------------------------------------------

  private void expectSize(HashTable t, long expected, String op) {
    Checks.size(name, t.size(), expected, op);
  }

  // ---- progress ------------------------------------------------------------------------------

  static Throughput[] newSamples() {
    Throughput[] t = new Throughput[BULK.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = new Throughput();
    }
    return t;
  }

  String repName(int rep) {
    return rep < 0 ? "warmup " + (rep + p.warmup() + 1) + "/" + p.warmup() : "rep " + (rep + 1) + "/" + p.reps();
  }

  private String progressLine(String who, int rep, Throughput[] s) {
    StringBuilder sb = new StringBuilder(who + " bulk " + repName(rep) + ":");
    for (int i = 0; i < BULK.length; i++) {
      sb.append(' ').append(BULK[i]).append(' ').append(mops(s[i].last()));
    }
    return sb.append(" M ops/s").toString();
  }

  static String mops(Double v) {
    return v == null ? "-" : Texts.fixed2(v);
  }
}
