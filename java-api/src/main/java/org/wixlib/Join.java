package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.wixlib.internal.HostCopies;
import org.wixlib.internal.Native;
import org.wixlib.internal.NativeAccess;
import org.wixlib.internal.JoinCalls;
import org.wixlib.internal.Scratch;
import org.wixlib.internal.ffi.wixlib_h;

/**
 * A hash join's build side: a table over a build key column (row i = keys[i]), probed with key columns
 * to give the matching (probe row, build row) pairs, or the probe rows with (semi join) or without
 * (anti join) a match.
 *
 * <pre>{@code
 * try (Join orders = Join.builder().kind(TableKind.GLHT).build(orderKeys)) {   // unique keys
 *   JoinPairs pairs = orders.probe(lineitemOrderKeys);
 * }
 * }</pre>
 *
 * <p><b>Builds.</b> {@link Build#UNIQUE} (the default) takes distinct keys (primary keys) and rejects a
 * repeated one with {@link InvalidArgumentException}; {@link Build#MULTI} takes any keys. Keys are
 * 32-bit ({@code int[]}) or, on the CPU kind, 64-bit ({@code long[]}, with {@link Builder#keyBits(int)
 * keyBits(64)}). Reserved keys (-1, -2) in a build column fail it with {@link InvalidKeyException}; in a
 * probe column they match nothing. Row ids are ints: columns have fewer than 2^32 - 1 rows (rows of
 * 2^31 and more read as negative ints: use {@code Integer.toUnsignedLong}).
 *
 * <p><b>Columns.</b> Besides arrays, every call takes native (off-heap) {@link MemorySegment}s of
 * int32/int64 values, such as Arrow buffers, which are passed to the library as they are (no copy on
 * the host), and, on GPU kinds, {@link DeviceBuffer}s (no copy at all). On GPU kinds the array calls
 * read and write the arrays in place (critical downcalls: garbage collection waits for such a call,
 * about 0.3 ms per million rows moved); page-locked segments ({@link PinnedMemory}) are copied
 * straight to and from the device, other host memory through page-locked buffers the library keeps.
 *
 * <p><b>Outputs never truncate.</b> The array calls size their results; the calls that write into the
 * caller's memory return the number of pairs, and when that is more than the room given they write
 * nothing (call {@link #count} first, or again with more room).
 *
 * <p><b>Pre-hashed probes.</b> {@link #hash} gives the table's hash of each key; the probe overloads
 * taking hashes skip the hashing (every kind but Hive, which throws {@link UnsupportedKindException}).
 *
 * <p>Thread-safe (calls are serialised); {@link #close()} is idempotent and later calls throw
 * {@link IllegalStateException}. A join never closed is freed once unreachable.
 */
public final class Join implements AutoCloseable {
  /** How build keys map to rows; {@link #code()} is the native {@code wx_join_build}. */
  public enum Build {
    /** Each key at most once. */
    UNIQUE(NativeAccess.code(wixlib_h::WX_JOIN_UNIQUE)),
    /** Any keys; the rows of one key are grouped. */
    MULTI(NativeAccess.code(wixlib_h::WX_JOIN_MULTI));

    private final int code;

    Build(int code) {
      this.code = code;
    }

    /** The native {@code wx_join_build} value. */
    public int code() {
      return code;
    }
  }

  private final TableKind kind;
  private final KeyWidth width;
  private final Build build;
  private final Sharding sharding;
  private final Guard guard;
  // How the array overloads reach the library: GPU kinds read and write Java arrays in place (the
  // library stages them), the CPU kind gets off-heap copies in the scratch.
  private final JoinCalls arrays;
  // Off-heap room of the array overloads, kept between calls (used under the lock); dropped on close.
  private Scratch scratch;
  private static final int KEYS = 0, HASHES = 1, OUT_A = 2, OUT_B = 3;

  private Join(TableKind kind, int keyBits, Build build, Sharding sharding, long handle) {
    this.kind = kind;
    this.sharding = sharding;
    this.width = KeyWidth.of(keyBits);
    this.build = build;
    this.guard = new Guard(handle, "join", kind, Native::joinDestroy);
    this.arrays = kind.isGpu() ? JoinCalls.IN_PLACE : JoinCalls.NATIVE;
    this.scratch = new Scratch(4);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options of a join; {@code build(...)} takes the build key column. */
  public static final class Builder {
    private TableKind kind = TableKind.CPU;
    private Build build = Build.UNIQUE;
    private Integer device;
    private Double maxLoadFactor;
    private Integer threads;
    private int keyBits = 32;
    private Integer shards;
    private int[] devices;

    private Builder() {}

    public Builder kind(TableKind kind) {
      this.kind = Objects.requireNonNull(kind, "kind");
      return this;
    }

    public Builder build(Build build) {
      this.build = Objects.requireNonNull(build, "build");
      return this;
    }

    /** CUDA device ordinal (GPU kinds). */
    public Builder device(int device) {
      this.device = ConfigChecks.device(device);
      return this;
    }

    /**
     * Splits the join's table into {@code shards} parts (1 to 256; default 1, or one per listed device),
     * as {@link HashTable.Builder#shards(int)}: probes run on the shards at once and give the same
     * pairs in the same order.
     */
    public Builder shards(int shards) {
      this.shards = ConfigChecks.shards(shards);
      return this;
    }

    /**
     * GPU kinds: the CUDA devices the shards live on, shard i on {@code devices[i % devices.length]}, as
     * {@link HashTable.Builder#devices(int...)}; device columns may then live on any of them.
     */
    public Builder devices(int... ordinals) {
      this.devices = ConfigChecks.devices(ordinals);
      return this;
    }

    /** Load factor of the join's table ({@code 0.05 <= f <= 1}). */
    public Builder maxLoadFactor(double f) {
      this.maxLoadFactor = ConfigChecks.maxLoadFactor(f);
      return this;
    }

    /**
     * CPU kind: worker threads of the table; GPU kinds: threads copying host columns to and from the
     * device. 0 = all cores (GPU kinds: at most 16).
     */
    public Builder threads(int threads) {
      this.threads = ConfigChecks.threads(threads);
      return this;
    }

    /** Width of keys: 32 (int) or 64 (long; CPU kind only). Set by the array overloads. */
    public Builder keyBits(int bits) {
      this.keyBits = ConfigChecks.keyBits(bits);
      return this;
    }

    public Join build(int[] keys) {
      Objects.requireNonNull(keys, "keys");
      keyBits = 32;
      return buildFromHeap(MemorySegment.ofArray(keys), keys.length);
    }

    public Join build(long[] keys) {
      Objects.requireNonNull(keys, "keys");
      keyBits = 64;
      return buildFromHeap(MemorySegment.ofArray(keys), keys.length);
    }

    /** GPU kinds read the array in place; the CPU kind gets a copy in native memory, freed right after. */
    private Join buildFromHeap(MemorySegment heapKeys, long n) {
      if (kind.isGpu()) {
        return create(JoinCalls.IN_PLACE, heapKeys, n, Native.MEM_HOST);
      }
      try (Arena a = Arena.ofShared()) {  // shared: the copy runs on several threads
        MemorySegment k = a.allocate(Math.max(heapKeys.byteSize(), 1), 16);
        HostCopies.copy(heapKeys, 0, k, 0, heapKeys.byteSize());
        return create(JoinCalls.NATIVE, k, n, Native.MEM_HOST);
      }
    }

    /** keys: n values of keyBits bits in native memory (read in place). */
    public Join build(MemorySegment keys, long n) {
      ConfigChecks.count(n);
      return create(JoinCalls.NATIVE, Args.host(keys, "keys", n * (keyBits / 8)), n, Native.MEM_HOST);
    }

    /** keys: n int32 keys on the device (GPU kinds). */
    public Join build(DeviceBuffer keys, long n) {
      ConfigChecks.count(n);
      try (DeviceArgs d = new DeviceArgs(kind, Sharding.of(kind, device, shards, devices), "join")) {
        return create(JoinCalls.NATIVE, d.require(keys, "keys", n * (keyBits / 8)), n, Native.MEM_DEVICE);
      }
    }

    private Join create(JoinCalls calls, MemorySegment keys, long n, int mem) {
      Sharding layout = Sharding.of(kind, device, shards, devices);
      long h;
      try {
        h = Native.joinCreate(calls, new Native.Config(kind.code(), null, maxLoadFactor, null, layout.device, null, threads,
            keyBits, Native.Tuning.DEFAULTS, layout.placement()), build.code(), keys, n, mem);
      } catch (DeviceOutOfMemoryException e) {
        throw kind.isGpu() ? e : org.wixlib.internal.Status.onHost(e);
      }
      return new Join(kind, keyBits, build, layout, h);
    }
  }

  public TableKind kind() {
    return kind;
  }

  public int keyBits() {
    return width.bits;
  }

  public Build buildKind() {
    return build;
  }

  /** The number of shards of the join's table. */
  public int shards() {
    return sharding.shards;
  }

  /** The CUDA devices of a GPU join (as {@link HashTable#devices()}); empty on the CPU kind. */
  public java.util.List<Integer> devices() {
    return sharding.used;
  }

  public boolean isClosed() {
    return guard.isClosed();
  }

  private final AsyncJoin async = new AsyncJoin(this);
  /** The probe calls returning futures, run in order on a thread of this join ({@link AsyncJoin}). */
  public AsyncJoin async() { return async; }

  /** Frees the join; waits for a running call; idempotent. */
  @Override
  public void close() {
    guard.close(() -> scratch = null);  // its auto arena frees the regions
  }

  @Override
  public String toString() {
    return "Join[" + kind + ", " + build + (isClosed() ? ", closed" : "") + "]";
  }

  public JoinStats stats() {
    return locked(() -> {
      Native.JoinStats s = Native.joinStats(guard.handle());
      return new JoinStats(s.buildRows(), s.distinctKeys(), s.bytes(), s.lastMatches(), s.lastTableMillis(),
          s.lastKernelMillis());
    });
  }

  // ---- hashing -------------------------------------------------------------------------------

  /** The join table's 64-bit hash of each key. */
  public long[] hash(int[] keys) {
    return hashArray(keys);
  }

  /** 64-bit keys: the join table's hash of each key. */
  public long[] hash(long[] keys) {
    return hashArray(keys);
  }

  /** hashes: n longs written. */
  public void hash(MemorySegment keys, long n, MemorySegment hashes) {
    ConfigChecks.count(n);
    MemorySegment k = Args.host(keys, "keys", n * width.bytes);
    MemorySegment h = Args.host(hashes, "hashes", n * 8, false, true);
    locked(() -> {
      if (n > 0) {
        Native.joinHash(guard.handle(), k, h, n, Native.MEM_HOST);
      }
      return null;
    });
  }

  /** Device columns: hashes (n longs) written on the device. */
  public void hash(DeviceBuffer keys, long n, DeviceBuffer hashes) {
    ConfigChecks.count(n);
    onDevice(d -> {
      MemorySegment k = d.require(keys, "keys", n * width.bytes);
      MemorySegment h = d.require(hashes, "hashes", n * 8);
      if (n > 0) {
        Native.joinHash(guard.handle(), k, h, n, Native.MEM_DEVICE);
      }
      return 0L;
    });
  }

  private long[] hashArray(Object keys) {
    int n = length(keys);
    return locked(() -> {
      long[] out = new long[n];
      if (n == 0) {
        return out;
      }
      MemorySegment h = scratch.region(HASHES, 8L * n);
      Native.joinHash(guard.handle(), scratch.in(KEYS, KeyWidth.heap(keys)), h, n, Native.MEM_HOST);
      MemorySegment.copy(h, JAVA_LONG, 0, out, 0, n);
      return out;
    });
  }

  // ---- counts --------------------------------------------------------------------------------

  /** Number of (probe row, build row) pairs of a probe with these keys. */
  public long count(int[] keys) {
    return countArray(keys);
  }

  public long count(long[] keys) {
    return countArray(keys);
  }

  /** keys: n keys in native memory (read in place). */
  public long count(MemorySegment keys, long n) {
    ConfigChecks.count(n);
    MemorySegment k = Args.host(keys, "keys", n * width.bytes);
    return locked(() -> Native.joinCount(JoinCalls.NATIVE, guard.handle(), k, MemorySegment.NULL, n, Native.MEM_HOST));
  }

  /** keys: n int32 keys on the device. */
  public long count(DeviceBuffer keys, long n) {
    ConfigChecks.count(n);
    return onDevice(d -> Native.joinCount(JoinCalls.NATIVE, guard.handle(), d.require(keys, "keys", n * width.bytes),
        MemorySegment.NULL, n, Native.MEM_DEVICE));
  }

  private long countArray(Object keys) {
    int n = length(keys);
    return locked(() -> Native.joinCount(arrays, guard.handle(), column(KEYS, keys), MemorySegment.NULL, n,
        Native.MEM_HOST));
  }

  // ---- inner join ----------------------------------------------------------------------------

  /** The matching pairs of a probe with these keys. */
  public JoinPairs probe(int[] keys) {
    return probeArray(keys, null);
  }

  public JoinPairs probe(long[] keys) {
    return probeArray(keys, null);
  }

  /** As {@link #probe(int[])} with the keys' hashes from {@link #hash(int[])}. */
  public JoinPairs probe(int[] keys, long[] hashes) {
    return probeArray(keys, Objects.requireNonNull(hashes, "hashes"));
  }

  public JoinPairs probe(long[] keys, long[] hashes) {
    return probeArray(keys, Objects.requireNonNull(hashes, "hashes"));
  }

  /** keys: n keys in native memory (read in place, no copy). */
  public JoinPairs probe(MemorySegment keys, long n) {
    return probe(keys, MemorySegment.NULL, n);
  }

  /** As {@link #probe(MemorySegment, long)}; hashes: n longs from {@link #hash}, or NULL. */
  public JoinPairs probe(MemorySegment keys, MemorySegment hashes, long n) {
    ConfigChecks.count(n);
    MemorySegment k = Args.host(keys, "keys", n * width.bytes);
    MemorySegment h = ConfigChecks.isAbsent(hashes) ? MemorySegment.NULL : Args.host(hashes, "hashes", n * 8);
    return locked(() -> probeInto(JoinCalls.NATIVE, k, h, n));
  }

  /**
   * Writes the pairs into probeRows/buildRows (native memory, room for capacity ints each) when they
   * fit; returns the number of pairs (more than capacity: nothing was written).
   */
  public long probe(MemorySegment keys, MemorySegment hashes, long n, MemorySegment probeRows,
      MemorySegment buildRows, long capacity) {
    ConfigChecks.count(n);
    ConfigChecks.count(capacity);
    MemorySegment k = Args.host(keys, "keys", n * width.bytes);
    MemorySegment h = ConfigChecks.isAbsent(hashes) ? MemorySegment.NULL : Args.host(hashes, "hashes", n * 8);
    MemorySegment p = Args.host(probeRows, "probeRows", capacity * 4, false, true);
    MemorySegment b = Args.host(buildRows, "buildRows", capacity * 4, false, true);
    return locked(() -> Native.joinProbe(JoinCalls.NATIVE, guard.handle(), k, h, n, p, b, capacity, Native.MEM_HOST));
  }

  /**
   * Device columns: writes the pairs into probeRows/buildRows (room for their byteSize / 4 pairs) when
   * they fit; returns the number of pairs (more than the room: nothing was written).
   */
  public long probe(DeviceBuffer keys, long n, DeviceBuffer probeRows, DeviceBuffer buildRows) {
    return probe(keys, null, n, probeRows, buildRows);
  }

  /** As {@link #probe(DeviceBuffer, long, DeviceBuffer, DeviceBuffer)}; hashes: n longs from hash, or null. */
  public long probe(DeviceBuffer keys, DeviceBuffer hashes, long n, DeviceBuffer probeRows, DeviceBuffer buildRows) {
    ConfigChecks.count(n);
    Objects.requireNonNull(probeRows, "probeRows");
    Objects.requireNonNull(buildRows, "buildRows");
    long capacity = Math.min(probeRows.byteSize(), buildRows.byteSize()) / 4;
    return onDevice(d -> Native.joinProbe(JoinCalls.NATIVE, guard.handle(), d.require(keys, "keys", n * width.bytes),
        d.add(hashes, "hashes", n * 8), n, d.add(probeRows, "probeRows", 0), d.add(buildRows, "buildRows", 0),
        capacity, Native.MEM_DEVICE));
  }

  /**
   * Writes the pairs into the caller's arrays when they fit (reuse them across calls: no allocation, no
   * zeroing); returns the number of pairs (more than {@code min(probeRows.length, buildRows.length)}:
   * nothing was written).
   */
  public long probe(int[] keys, int[] probeRows, int[] buildRows) {
    return probeArrayInto(keys, probeRows, buildRows);
  }

  /** As {@link #probe(int[], int[], int[])} for a 64-bit join. */
  public long probe(long[] keys, int[] probeRows, int[] buildRows) {
    return probeArrayInto(keys, probeRows, buildRows);
  }

  private long probeArrayInto(Object keys, int[] probeRows, int[] buildRows) {
    int n = length(keys);
    Objects.requireNonNull(probeRows, "probeRows");
    Objects.requireNonNull(buildRows, "buildRows");
    long room = Math.min(probeRows.length, buildRows.length);
    return locked(() -> {
      if (arrays == JoinCalls.IN_PLACE) {  // straight into the caller's arrays
        return Native.joinProbe(arrays, guard.handle(), KeyWidth.heap(keys), MemorySegment.NULL, n, MemorySegment.ofArray(probeRows),
            MemorySegment.ofArray(buildRows), room, Native.MEM_HOST);
      }
      MemorySegment p = scratch.region(OUT_A, 4 * Math.max(room, 1));
      MemorySegment b = scratch.region(OUT_B, 4 * Math.max(room, 1));
      long count = Native.joinProbe(arrays, guard.handle(), column(KEYS, keys), MemorySegment.NULL, n, p, b, room,
          Native.MEM_HOST);
      if (count <= room) {
        HostCopies.copy(p, 0, MemorySegment.ofArray(probeRows), 0, 4 * count);
        HostCopies.copy(b, 0, MemorySegment.ofArray(buildRows), 0, 4 * count);
      }
      return count;
    });
  }

  private JoinPairs probeArray(Object keys, long[] hashes) {
    int n = length(keys);
    checkHashes(hashes, n);
    return locked(() -> {
      return probeInto(arrays, column(KEYS, keys), hashes == null ? MemorySegment.NULL : column(HASHES, hashes), n);
    });
  }

  /**
   * One probe into library-sized outputs: a UNIQUE build never gives more pairs than probe rows, so
   * capacity n does in one call; a MULTI build gets the exact count back and runs again with room.
   */
  private JoinPairs probeInto(JoinCalls calls, MemorySegment keys, MemorySegment hashes, long n) {
    // The room the scratch already has is used too: a MULTI build's second probe usually fits at once.
    long capacity = Math.max(n, scratch.capacity(OUT_A) / 4);
    for (int attempt = 0; ; attempt++) {
      MemorySegment p = scratch.region(OUT_A, 4 * capacity);
      MemorySegment b = scratch.region(OUT_B, 4 * capacity);
      long count = Native.joinProbe(calls, guard.handle(), keys, hashes, n, p, b, capacity, Native.MEM_HOST);
      if (count <= capacity) {
        if (count > Integer.MAX_VALUE - 8) {
          throw new InvalidArgumentException("the join gives " + count
              + " pairs, more than a Java array holds: use the MemorySegment overload with capacity");
        }
        return new JoinPairs(toInts(p, count), toInts(b, count));
      }
      if (attempt > 0) {
        throw new IllegalStateException("join probe needed " + count + " pairs after sizing for " + capacity);
      }
      capacity = count;
    }
  }

  // ---- semi and anti joins -------------------------------------------------------------------

  /** Probe rows with at least one match, ascending. */
  public int[] semi(int[] keys) {
    return semiArray(keys, false);
  }

  public int[] semi(long[] keys) {
    return semiArray(keys, false);
  }

  /** Probe rows without a match, ascending. */
  public int[] anti(int[] keys) {
    return semiArray(keys, true);
  }

  public int[] anti(long[] keys) {
    return semiArray(keys, true);
  }

  /** Semi (anti = false) or anti join of n keys in native memory; rows: room for n ints. Returns rows written. */
  public long semi(MemorySegment keys, long n, boolean anti, MemorySegment rows) {
    ConfigChecks.count(n);
    MemorySegment k = Args.host(keys, "keys", n * width.bytes);
    MemorySegment r = Args.host(rows, "rows", n * 4, false, true);
    return locked(() -> Native.joinSemi(JoinCalls.NATIVE, guard.handle(), k, MemorySegment.NULL, n, anti, r, Native.MEM_HOST));
  }

  /** Device columns: rows needs room for n ints. Returns rows written. */
  public long semi(DeviceBuffer keys, long n, boolean anti, DeviceBuffer rows) {
    ConfigChecks.count(n);
    return onDevice(d -> Native.joinSemi(JoinCalls.NATIVE, guard.handle(), d.require(keys, "keys", n * width.bytes),
        MemorySegment.NULL, n, anti, d.require(rows, "rows", n * 4), Native.MEM_DEVICE));
  }

  /**
   * Semi (anti = false) or anti join into the caller's array, which needs room for keys.length rows
   * (reuse it across calls); returns the rows written.
   */
  public long semi(int[] keys, boolean anti, int[] rows) {
    return semiArrayInto(keys, anti, rows);
  }

  /** As {@link #semi(int[], boolean, int[])} for a 64-bit join. */
  public long semi(long[] keys, boolean anti, int[] rows) {
    return semiArrayInto(keys, anti, rows);
  }

  private long semiArrayInto(Object keys, boolean anti, int[] rows) {
    int n = length(keys);
    Objects.requireNonNull(rows, "rows");
    if (rows.length < n) {
      throw new InvalidArgumentException("rows holds " + rows.length + " ints; needs keys.length = " + n);
    }
    return locked(() -> {
      if (arrays == JoinCalls.IN_PLACE) {  // straight into the caller's array
        return Native.joinSemi(arrays, guard.handle(), KeyWidth.heap(keys), MemorySegment.NULL, n, anti, MemorySegment.ofArray(rows),
            Native.MEM_HOST);
      }
      long count = semiIntoScratch(keys, n, anti);
      HostCopies.copy(scratch.region(OUT_A, 4 * count), 0, MemorySegment.ofArray(rows), 0, 4 * count);
      return count;
    });
  }

  private int[] semiArray(Object keys, boolean anti) {
    int n = length(keys);
    return locked(() -> {
      long count = semiIntoScratch(keys, n, anti);
      return toInts(scratch.region(OUT_A, 4 * count), count);
    });
  }

  /** The semi (or anti) join's rows in scratch region OUT_A; returns their count (called under the lock). */
  private long semiIntoScratch(Object keys, int n, boolean anti) {
    MemorySegment r = scratch.region(OUT_A, 4L * Math.max(n, 1));
    return Native.joinSemi(arrays, guard.handle(), column(KEYS, keys), MemorySegment.NULL, n, anti, r, Native.MEM_HOST);
  }

  /** The first count ints of a scratch region as a new array (copied in parallel when large). */
  private static int[] toInts(MemorySegment region, long count) {
    int[] out = new int[Math.toIntExact(count)];
    HostCopies.copy(region, 0, MemorySegment.ofArray(out), 0, 4 * count);
    return out;
  }

  // ---- helpers -------------------------------------------------------------------------------

  private <T> T locked(Supplier<T> call) {
    return guard.locked(call);
  }

  /** A call on device buffers, checked and held open by d, under the join's lock. */
  private long onDevice(Function<DeviceArgs, Long> call) {
    try (DeviceArgs d = new DeviceArgs(kind, sharding, "join")) {
      return locked(() -> call.apply(d));
    }
  }

  /** An int[] or long[] column as {@link #arrays} takes it: in place, or copied into scratch region slot. */
  private MemorySegment column(int slot, Object array) {
    return arrays == JoinCalls.IN_PLACE ? KeyWidth.heap(array) : scratch.in(slot, KeyWidth.heap(array));
  }

  private int length(Object keys) {
    return width.length(keys, "keys", "join");
  }

  private static void checkHashes(long[] hashes, int n) {
    if (hashes != null) {
      Args.sameLength("hashes", hashes.length, n);
    }
  }
}
