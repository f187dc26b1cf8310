package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.wixlib.internal.BulkOp;
import org.wixlib.internal.HeapCalls;
import org.wixlib.internal.StagedCalls;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * A hash table of 32-bit int keys to 32-bit int values, of one {@link TableKind}; or, built with
 * {@link Builder#keyBits(int) keyBits(64)} (every kind), of 64-bit long keys to long values.
 *
 * <p><b>Widths.</b> A 32-bit table takes the {@code int[]} overloads, a 64-bit table the {@code long[]}
 * overloads and {@link #retrieveAllLong()}; the other width's arrays throw
 * {@link InvalidArgumentException}. Segment and buffer overloads read 4 or 8 bytes per key and value.
 *
 * <p><b>Keys.</b> Keys are 32-bit patterns; -1 (0xFFFFFFFF) and -2 (0xFFFFFFFE) are reserved on every
 * kind (on 64-bit tables -1L and -2L). A reserved key is never present: lookups ({@code find},
 * {@code contains}, {@link #get(int)}, {@link #containsKey(int)}, every overload) answer "not found"
 * for it (find writes notFound) and throw nothing. Calls that change the table refuse each element
 * carrying one ({@link Outcome#INVALID_KEY}) and apply the others (every overload: arrays, segments,
 * buffers; the library checks each key where it reads it, so no call pays for a separate scan).
 *
 * <p><b>Per-element results.</b> Outcomes {@link Outcome#FULL} and {@link Outcome#INVALID_KEY} are
 * results when the caller passes an outcomes array/segment/buffer; without one the call throws
 * {@link TableFullException} / {@link InvalidKeyException} after it ran (the other elements were
 * applied). Other failures always throw a {@link WixlibException} subclass.
 *
 * <p><b>Arguments.</b> A null required argument throws {@link NullPointerException}; optional ones
 * (the values of insert, outcomes) may be null (or {@link MemorySegment#NULL}) meaning absent
 * (insert without values stores 0). Arrays of one call must have equal lengths and segments/buffers at least
 * {@code 4*n} bytes (keys, values) or {@code n} bytes (ops, outcomes, found), else
 * {@link InvalidArgumentException}; so does {@code n < 0}. Host {@code MemorySegment}s must be native
 * (off-heap) memory: heap segments are rejected with {@link InvalidArgumentException} (use the array
 * overloads); a segment whose arena is closed throws {@link IllegalStateException}, one confined to
 * another thread {@link WrongThreadException}, as the segment itself would. {@code DeviceBuffer}s must live on
 * the table's device (GPU kinds); a table sharded over several devices takes buffers on any of them
 * ({@link #devices()}), all buffers of one call on the same device.
 *
 * <p><b>Repeated keys in one call.</b> The elements of one bulk call take effect concurrently, in no
 * specified order. A key given several times to one insert or insertOrAssign call ends up in the
 * table once: if it was absent, exactly one of its elements reports {@link Outcome#INSERTED} and the
 * others {@link Outcome#PRESENT} (insert) or {@link Outcome#ASSIGNED} (insertOrAssign), and the value
 * stored is the value of one of its elements. Which one is unspecified on every kind: the CPU kind's
 * small calls, run in order on the calling thread, happen to keep the first (insert) and the last
 * (insertOrAssign), but larger calls spread over worker threads, and GPU kinds over warps, promise
 * neither. Pass one element per key where the value matters. The slices of a call (see Copies) run
 * one after another; in a mixed {@link #batch} the ops on one key may take effect in any order.
 *
 * <p><b>Copies.</b> On GPU tables the array overloads hand the arrays to the library in place (no
 * off-heap copy; the library copies them to and from the device in chunks); such a call holds back
 * garbage collection while it runs, so arrays above 2^24 elements go in slices of 2^24. On CPU tables
 * the arrays go through an off-heap buffer of the table, reused by every call, in slices of 2^18
 * elements (ordinary calls: garbage collection runs meanwhile). A call's slices run one after
 * another, which is one of the orders a batch may take effect in.
 *
 * <p><b>Map-shaped calls.</b> {@link #get(int)}, {@link #getOrDefault(int, int)},
 * {@link #containsKey(int)}, {@link #put(int, int)}, {@link #putIfAbsent(int, int)},
 * {@link #remove(int)} (and their long overloads for 64-bit tables), {@link #isEmpty()} and
 * {@link #forEach(IntIntConsumer)} / {@link #forEachLong(LongLongConsumer)} read like
 * {@code java.util.Map}'s, with {@code OptionalInt}/{@code OptionalLong} for "absent". Each one-key
 * call is a whole native call (put and remove: two) for one key: about a microsecond on the CPU kind,
 * tens of microseconds on GPU kinds; use the bulk calls for data. forEach copies the whole table once.
 *
 * <p><b>Shards.</b> {@link Builder#shards(int)} splits a table into parts by the high bits of a hash of the
 * key (independent of the hash each part uses inside); {@link Builder#devices(int...)} spreads the parts
 * over several GPUs. Each bulk call is split per shard, the shards run at once (each GPU shard on its own
 * device and stream) and the results come back in the caller's order: every promise above (outcomes,
 * repeated keys, reserved keys, slices) holds unchanged, since a key always lives in one shard.
 * Capacity is the whole table's; each shard grows on its own. It pays when the table is larger than
 * one GPU's memory, or when the calls need more than one GPU's kernels or one PCIe link's bandwidth
 * (host arrays then travel over each device's own link); on one device, a few shards let big
 * tables grow in smaller steps. {@link #retrieveAll()}, snapshots and {@link #stats()} cover every
 * shard; {@link #shardStats(int)} gives one.
 *
 * <p><b>Threads.</b> A table is thread-safe: calls from several threads are serialised (here and in
 * the library). {@link #close()} may be called from any thread; it waits for a running call to
 * finish, and calls after it throw {@link IllegalStateException}. A table that is never closed frees
 * its native memory once unreachable (a {@link java.lang.ref.Cleaner}); {@code close()} is idempotent.
 */
public final class HashTable implements AutoCloseable {
  /** The reserved keys, as ints. */
  public static final int EMPTY_KEY = 0xFFFFFFFF;
  public static final int TOMBSTONE_KEY = 0xFFFFFFFE;
  /** The reserved keys of 64-bit tables (the 32-bit ones widened with ones), as longs. */
  public static final long EMPTY_KEY64 = 0xFFFFFFFFFFFFFFFFL;
  public static final long TOMBSTONE_KEY64 = 0xFFFFFFFFFFFFFFFEL;

  private final TableKind kind;
  private final Sharding sharding;
  private final KeyWidth width;
  private final double maxLoadFactor;
  private final Guard guard;
  /** The bulk calls on every kind of memory. */
  private final TableCalls calls;
  /** The Map-shaped calls of one key. */
  private final SingleKey single;

  private HashTable(TableKind kind, Sharding sharding, int keyBits, double maxLoadFactor, long handle) {
    this.kind = kind;
    this.sharding = sharding;
    this.width = KeyWidth.of(keyBits);
    this.maxLoadFactor = maxLoadFactor;
    this.guard = new Guard(handle, "table", kind, HashTable::destroy);
    this.calls = new TableCalls(guard, width, kind, sharding,
        kind.isGpu() || inPlaceOnCpu ? HeapCalls.IN_PLACE : new StagedCalls());
    this.single = new SingleKey(guard, width);
  }

  /** Native tables destroyed so far (by close() or the cleaner); tests watch it. */
  static final java.util.concurrent.atomic.AtomicLong DESTROYED = new java.util.concurrent.atomic.AtomicLong();

  /** Tests: CPU tables made from now on pass arrays in place too (HeapCalls runs on every machine). */
  static volatile boolean inPlaceOnCpu;

  private static void destroy(long handle) {
    Native.tableDestroy(handle);
    DESTROYED.incrementAndGet();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configuration of a new table; unset values take the kind's defaults. */
  public static final class Builder {
    private TableKind kind = TableKind.CPU;
    private Long capacity;
    private Double maxLoadFactor;
    private Double minLoadFactor;
    private Integer device;
    private GrowPolicy growPolicy;
    private Integer threads;
    private int keyBits = 32;
    private Long stagingChunk;
    private Integer hotShare;
    private Integer mixedGroup;
    private Long buildMin;
    Integer shards;
    private int[] devices;

    private Builder() {}

    /**
     * Width of keys and values: 32 (default; int[] overloads) or 64 (long[] overloads; every kind).
     */
    public Builder keyBits(int bits) {
      this.keyBits = ConfigChecks.keyBits(bits);
      return this;
    }

    public Builder kind(TableKind kind) {
      this.kind = Objects.requireNonNull(kind, "kind");
      return this;
    }

    /**
     * Keys the new table holds without any resize (>= 0): inserting that many distinct keys never
     * grows it, whatever the max load factor. The CPU kind sizes for at most load 0.85 (the load up to
     * which every random key finds a slot in its neighbourhood), so with a higher max load factor it
     * starts with more slots than capacity / maxLoadFactor and reaches its max load factor only past
     * capacity keys.
     */
    public Builder capacity(long capacity) {
      if (capacity < 0) {
        throw new InvalidArgumentException("capacity must be >= 0, got " + capacity);
      }
      this.capacity = capacity;
      return this;
    }

    /**
     * Grow above this load factor ({@code WX_LOAD_FACTOR_MIN} 0.05 to {@code WX_LOAD_FACTOR_MAX} 1;
     * default 0.9, Hive 0.95).
     */
    public Builder maxLoadFactor(double f) {
      this.maxLoadFactor = ConfigChecks.maxLoadFactor(f);
      return this;
    }

    /** Shrink below this load factor where the kind can (Hive); 0 = never shrink. */
    public Builder minLoadFactor(double f) {
      if (!(f >= 0 && f < 1)) {
        throw new InvalidArgumentException("minLoadFactor must be in [0, 1), got " + f);
      }
      this.minLoadFactor = f;
      return this;
    }

    /** CUDA device ordinal (GPU kinds); {@link #devices(int...)} takes precedence. */
    public Builder device(int device) {
      this.device = ConfigChecks.device(device);
      return this;
    }

    /**
     * Splits the table into {@code shards} parts (1 to {@code WX_MAX_SHARDS}, 256; default 1, or one per
     * listed device): see "Shards" in the class comment.
     */
    public Builder shards(int shards) {
      this.shards = ConfigChecks.shards(shards);
      return this;
    }

    /**
     * GPU kinds: the CUDA devices the shards live on, shard i on {@code devices[i % devices.length]}
     * (1 to 16 distinct ordinals; without {@link #shards(int)}, one shard per device). Every device must
     * exist: {@link #build()} throws {@link InvalidArgumentException} naming one that does not. The CPU
     * kind keeps its shards in host memory and refuses a device list.
     */
    public Builder devices(int... ordinals) {
      this.devices = ConfigChecks.devices(ordinals);
      return this;
    }

    public Builder growPolicy(GrowPolicy policy) {
      this.growPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * CPU kind: worker threads for bulk calls; GPU kinds: threads that copy host arrays into and out of
     * the staging buffers. 0 = all cores (GPU kinds: at most 16).
     */
    public Builder threads(int threads) {
      this.threads = ConfigChecks.threads(threads);
      return this;
    }

    /**
     * GPU kinds: elements per chunk when the library copies host arrays (Java arrays, host segments)
     * to the device and back; chunks overlap copies with kernels. {@code WX_STAGING_CHUNK_MIN} (1024)
     * to {@code WX_STAGING_CHUNK_MAX} (2^26); default 2^21.
     */
    public Builder stagingChunk(long elements) {
      this.stagingChunk = ConfigChecks.stagingChunk(elements);
      return this;
    }

    /**
     * GPU kinds: a mixed batch ({@link HashTable#batch}) whose sampled keys are less than this percent
     * distinct is combined per key (one write per changed key instead of contended updates). 0 to
     * {@code WX_HOT_SHARE_MAX} (100); default 90; 0 never combines.
     */
    public Builder hotShare(int percent) {
      this.hotShare = ConfigChecks.hotShare(percent);
      return this;
    }

    /**
     * GLHT: rounds of 32 operations that each warp orders by kind in a mixed batch. 0 (default) lets
     * the library choose by batch size; at most {@code WX_MIXED_GROUP_MAX} (8).
     */
    public Builder mixedGroup(int rounds) {
      this.mixedGroup = ConfigChecks.mixedGroup(rounds);
      return this;
    }

    /**
     * GLHT: the smallest insert into an empty table that is bulk-built by sorting
     * (default 2^24); 0 never bulk-builds. Must be {@code >= 0}.
     */
    public Builder buildMin(long keys) {
      this.buildMin = ConfigChecks.buildMin(keys);
      return this;
    }

    /** Creates the table (loads the native library on first use). */
    public HashTable build() {
      if (maxLoadFactor != null && minLoadFactor != null && minLoadFactor >= maxLoadFactor) {
        throw new InvalidArgumentException("minLoadFactor " + minLoadFactor
            + " must be below maxLoadFactor " + maxLoadFactor);
      }
      Sharding layout = Sharding.of(kind, device, shards, devices);
      long h;
      try {
        h = Native.tableCreate(new Native.Config(kind.code(), capacity, maxLoadFactor, minLoadFactor,
            layout.device, growPolicy == null ? null : growPolicy.code(), threads, keyBits,
            new Native.Tuning(stagingChunk, hotShare, mixedGroup, buildMin), layout.placement()));
      } catch (DeviceOutOfMemoryException e) {
        throw kind.isGpu() ? e : Status.onHost(e);
      }
      double lf = maxLoadFactor != null ? maxLoadFactor : Native.defaultMaxLoadFactor(kind.code());
      return new HashTable(kind, layout, keyBits, lf, h);
    }
  }

  // ---- state ---------------------------------------------------------------------------------

  public TableKind kind() {
    return kind;
  }

  /** Width of keys and values in bits: 32 (int[] overloads) or 64 (long[] overloads). */
  public int keyBits() {
    return width.bits;
  }

  /** The CUDA device of a GPU table, of its first shard when sharded (0 for CPU tables unless set). */
  public int device() {
    return sharding.device;
  }

  /** The number of shards (1 unless {@link Builder#shards(int)} or {@link Builder#devices(int...)} said more). */
  public int shards() {
    return sharding.shards;
  }

  /**
   * The CUDA devices of a GPU table: those of {@link Builder#devices(int...)} (shard i on the i-th modulo
   * their count), else {@link #device()} alone; empty on the CPU kind. Device buffers may lie on any of them.
   */
  public java.util.List<Integer> devices() {
    return sharding.used;
  }

  /**
   * The counters of one shard ({@code 0 <= shard < shards()}) and the device it lives on; the shards'
   * sizes, slots and bytes add up to {@link #stats()}'s.
   */
  public ShardStats shardStats(int shard) {
    if (shard < 0 || shard >= sharding.shards) {
      throw new InvalidArgumentException("shard " + shard + " does not exist: the table has " + sharding.shards
          + " shard" + (sharding.shards == 1 ? "" : "s"));
    }
    acquire();
    try {
      Native.ShardStats s = Native.shardStats(guard.handle(), shard);
      return new ShardStats(shard, s.device(), tableStats(s.stats()));
    } finally {
      release();
    }
  }

  /** The load factor above which the table grows: the builder's, or the kind's default. */
  public double maxLoadFactor() {
    return maxLoadFactor;
  }

  public boolean isClosed() {
    return guard.isClosed();
  }

  private final AsyncHashTable async = new AsyncHashTable(this);
  /** The bulk calls returning futures, run in order on a thread of this table ({@link AsyncHashTable}). */
  public AsyncHashTable async() { return async; }

  /** Frees the table; waits for a running call; idempotent. */
  @Override
  public void close() {
    guard.close(() -> {});
  }

  private void acquire() {
    guard.acquire();
  }

  private void release() {
    guard.release();
  }

  @Override
  public String toString() {
    return "HashTable[" + kind + (isClosed() ? ", closed" : "") + "]";
  }

  // ---- bulk calls ------------------------------------------------------------------------------
  // Every overload below is one call of TableCalls, the one path for arrays, segments and buffers;
  // the int[] overloads serve 32-bit tables and the long[] overloads 64-bit tables.

  /**
   * Inserts keys not present yet (present keys keep their value); values may be null (= 0). A key
   * repeated in keys is stored once, with the value of one of its elements (unspecified which: see
   * "Repeated keys in one call" above).
   */
  public void insert(int[] keys, int[] values) {
    calls.arrays(BulkOp.INSERT, null, keys, values, null, 0);
  }

  /** As {@link #insert(int[], int[])}, writing one {@link Outcome} per key (FULL is then a result). */
  public void insert(int[] keys, int[] values, byte[] outcomes) {
    calls.arrays(BulkOp.INSERT, null, keys, values, outcomes, 0);
  }

  /**
   * Inserts new keys and replaces the value of present ones (values required). A key repeated in keys
   * ends with the value of one of its elements, unspecified which (not necessarily the last).
   */
  public void insertOrAssign(int[] keys, int[] values) {
    calls.arrays(BulkOp.INSERT_OR_ASSIGN, null, keys, values, null, 0);
  }

  /** As {@link #insertOrAssign(int[], int[])}, writing one {@link Outcome} per key. */
  public void insertOrAssign(int[] keys, int[] values, byte[] outcomes) {
    calls.arrays(BulkOp.INSERT_OR_ASSIGN, null, keys, values, outcomes, 0);
  }

  /** valuesOut[i] = the value of keys[i], or notFound when absent. */
  public void find(int[] keys, int[] valuesOut, int notFound) {
    calls.arrays(BulkOp.FIND, null, keys, valuesOut, null, notFound);
  }

  /** The values of keys, notFound where absent. */
  public int[] find(int[] keys, int notFound) {
    int[] out = new int[Objects.requireNonNull(keys, "keys").length];
    find(keys, out, notFound);
    return out;
  }

  /** found[i] = 1 when keys[i] is present, else 0. */
  public void contains(int[] keys, byte[] found) {
    calls.arrays(BulkOp.CONTAINS, null, keys, null, found, 0);
  }

  /** Whether each key is present. */
  public boolean[] contains(int[] keys) {
    byte[] found = new byte[Objects.requireNonNull(keys, "keys").length];
    contains(keys, found);
    return booleans(found);
  }

  /** Removes the keys (absent keys are ignored). */
  public void erase(int[] keys) {
    calls.arrays(BulkOp.ERASE, null, keys, null, null, 0);
  }

  /** Removes the keys, writing {@link Outcome#ERASED} or {@link Outcome#NOT_FOUND} per key. */
  public void erase(int[] keys, byte[] outcomes) {
    calls.arrays(BulkOp.ERASE, null, keys, null, outcomes, 0);
  }

  /**
   * A mixed batch: ops[i] ({@link Op}) applies to keys[i]; values[i] is read for inserts and written
   * for finds that hit (left as it was on a miss). All elements run concurrently. outcomes may be null.
   */
  public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
    calls.arrays(BulkOp.BATCH, ops, keys, values, outcomes, 0);
  }

  /** 64-bit table: as {@link #insert(int[], int[])}; values may be null (= 0). */
  public void insert(long[] keys, long[] values) {
    calls.arrays(BulkOp.INSERT, null, keys, values, null, 0);
  }

  /** 64-bit table: as {@link #insert(int[], int[], byte[])}. */
  public void insert(long[] keys, long[] values, byte[] outcomes) {
    calls.arrays(BulkOp.INSERT, null, keys, values, outcomes, 0);
  }

  /** 64-bit table: as {@link #insertOrAssign(int[], int[])} (values required). */
  public void insertOrAssign(long[] keys, long[] values) {
    calls.arrays(BulkOp.INSERT_OR_ASSIGN, null, keys, values, null, 0);
  }

  /** 64-bit table: as {@link #insertOrAssign(int[], int[], byte[])}. */
  public void insertOrAssign(long[] keys, long[] values, byte[] outcomes) {
    calls.arrays(BulkOp.INSERT_OR_ASSIGN, null, keys, values, outcomes, 0);
  }

  /** 64-bit table: valuesOut[i] = the value of keys[i], or notFound (all 64 bits) when absent. */
  public void find(long[] keys, long[] valuesOut, long notFound) {
    calls.arrays(BulkOp.FIND, null, keys, valuesOut, null, notFound);
  }

  /** 64-bit table: the values of keys, notFound where absent. */
  public long[] find(long[] keys, long notFound) {
    long[] out = new long[Objects.requireNonNull(keys, "keys").length];
    find(keys, out, notFound);
    return out;
  }

  /** 64-bit table: found[i] = 1 when keys[i] is present, else 0. */
  public void contains(long[] keys, byte[] found) {
    calls.arrays(BulkOp.CONTAINS, null, keys, null, found, 0);
  }

  /** 64-bit table: whether each key is present. */
  public boolean[] contains(long[] keys) {
    byte[] found = new byte[Objects.requireNonNull(keys, "keys").length];
    contains(keys, found);
    return booleans(found);
  }

  /** 64-bit table: removes the keys (absent keys are ignored). */
  public void erase(long[] keys) {
    calls.arrays(BulkOp.ERASE, null, keys, null, null, 0);
  }

  /** 64-bit table: as {@link #erase(int[], byte[])}. */
  public void erase(long[] keys, byte[] outcomes) {
    calls.arrays(BulkOp.ERASE, null, keys, null, outcomes, 0);
  }

  /** 64-bit table: as {@link #batch(byte[], int[], int[], byte[])}. */
  public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
    calls.arrays(BulkOp.BATCH, ops, keys, values, outcomes, 0);
  }

  private static boolean[] booleans(byte[] found) {
    boolean[] out = new boolean[found.length];
    for (int i = 0; i < found.length; i++) {
      out[i] = found[i] != 0;
    }
    return out;
  }

  // Host MemorySegments: keys and values hold n ints (longs on a 64-bit table), ops, outcomes and
  // found n bytes.

  /** keys: n ints; values: n ints or null/NULL (= 0); outcomes: n bytes or null/NULL. */
  public void insert(MemorySegment keys, MemorySegment values, long n, MemorySegment outcomes) {
    calls.segments(BulkOp.INSERT, null, keys, values, outcomes, n, 0);
  }

  /** keys, values: n ints (values required); outcomes: n bytes or null/NULL. */
  public void insertOrAssign(MemorySegment keys, MemorySegment values, long n, MemorySegment outcomes) {
    calls.segments(BulkOp.INSERT_OR_ASSIGN, null, keys, values, outcomes, n, 0);
  }

  /** keys: n ints; valuesOut: n ints, written (notFound where absent). */
  public void find(MemorySegment keys, MemorySegment valuesOut, long n, int notFound) {
    find(keys, valuesOut, n, (long) notFound);
  }

  /** As {@link #find(MemorySegment, MemorySegment, long, int)}; on a 64-bit table notFound is used in full. */
  public void find(MemorySegment keys, MemorySegment valuesOut, long n, long notFound) {
    calls.segments(BulkOp.FIND, null, keys, valuesOut, null, n, notFound);
  }

  /** keys: n ints; found: n bytes, written 1/0. */
  public void contains(MemorySegment keys, MemorySegment found, long n) {
    calls.segments(BulkOp.CONTAINS, null, keys, null, found, n, 0);
  }

  /** keys: n ints; outcomes: n bytes or null/NULL. */
  public void erase(MemorySegment keys, long n, MemorySegment outcomes) {
    calls.segments(BulkOp.ERASE, null, keys, null, outcomes, n, 0);
  }

  /** ops: n bytes; keys: n ints; values: n ints (in/out); outcomes: n bytes or null/NULL. */
  public void batch(MemorySegment ops, MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    calls.segments(BulkOp.BATCH, ops, keys, values, outcomes, n, 0);
  }

  // DeviceBuffers: sized as the segments above, all buffers of one call on one device of the table
  // ({@link #devices()}).

  /** keys: n ints; values: n ints or null (= 0); outcomes: n bytes or null. */
  public void insert(DeviceBuffer keys, DeviceBuffer values, long n, DeviceBuffer outcomes) {
    calls.buffers(BulkOp.INSERT, null, keys, values, outcomes, n, 0);
  }

  /** keys, values: n ints (values required); outcomes: n bytes or null. */
  public void insertOrAssign(DeviceBuffer keys, DeviceBuffer values, long n, DeviceBuffer outcomes) {
    calls.buffers(BulkOp.INSERT_OR_ASSIGN, null, keys, values, outcomes, n, 0);
  }

  /** keys: n ints; valuesOut: n ints, written (notFound where absent). */
  public void find(DeviceBuffer keys, DeviceBuffer valuesOut, long n, int notFound) {
    calls.buffers(BulkOp.FIND, null, keys, valuesOut, null, n, notFound);
  }

  /** keys: n ints; found: n bytes, written 1/0. */
  public void contains(DeviceBuffer keys, DeviceBuffer found, long n) {
    calls.buffers(BulkOp.CONTAINS, null, keys, null, found, n, 0);
  }

  /** keys: n ints; outcomes: n bytes or null. */
  public void erase(DeviceBuffer keys, long n, DeviceBuffer outcomes) {
    calls.buffers(BulkOp.ERASE, null, keys, null, outcomes, n, 0);
  }

  /** ops: n bytes; keys: n ints; values: n ints (in/out); outcomes: n bytes or null. */
  public void batch(DeviceBuffer ops, DeviceBuffer keys, DeviceBuffer values, long n,
      DeviceBuffer outcomes) {
    calls.buffers(BulkOp.BATCH, ops, keys, values, outcomes, n, 0);
  }

  // ---- Map-shaped calls: one key at a time -----------------------------------------------------
  // Each is a whole native call (or two) for one key, so its cost is a call's fixed cost, not a
  // key's. The int overloads serve 32-bit tables, the long overloads 64-bit tables (on a 64-bit
  // table write get(5L), not get(5)); the other width throws InvalidArgumentException.

  /**
   * The value of {@code key}, empty when absent. A reserved key is never present: empty, without a
   * native call. <b>Cost:</b> one native call (a one-element {@link #batch} FIND): about a microsecond
   * on the CPU kind; on GPU kinds a kernel launch and two small host-device copies, tens of
   * microseconds. For many keys, one {@link #find(int[], int)} costs less than a loop of these by
   * orders of magnitude.
   */
  public OptionalInt get(int key) {
    width.require(KeyWidth.W32, "table");
    Long v = single.get(key);
    return v == null ? OptionalInt.empty() : OptionalInt.of((int) (long) v);
  }

  /** 64-bit table: as {@link #get(int)}. */
  public OptionalLong get(long key) {
    width.require(KeyWidth.W64, "table");
    Long v = single.get(key);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** The value of {@code key}, or {@code defaultValue} when absent. Cost: as {@link #get(int)}. */
  public int getOrDefault(int key, int defaultValue) {
    return get(key).orElse(defaultValue);
  }

  /** 64-bit table: as {@link #getOrDefault(int, int)}. */
  public long getOrDefault(long key, long defaultValue) {
    return get(key).orElse(defaultValue);
  }

  /**
   * Whether {@code key} is present (a reserved key: false, without a native call). Cost: one native
   * call ({@code wx_contains} of one key), as {@link #get(int)}.
   */
  public boolean containsKey(int key) {
    width.require(KeyWidth.W32, "table");
    return single.contains(key);
  }

  /** 64-bit table: as {@link #containsKey(int)}. */
  public boolean containsKey(long key) {
    width.require(KeyWidth.W64, "table");
    return single.contains(key);
  }

  /**
   * Maps {@code key} to {@code value} and returns the previous value, empty when the key was absent.
   * An {@code OptionalInt}, not a sentinel: every int is a legal value. A reserved key throws
   * {@link InvalidKeyException}; a table that may not grow and has no room,
   * {@link TableFullException}. <b>Cost:</b> two native calls (a find, then an insert-or-assign),
   * both under the table's lock, so no other call on this table comes between them; twice
   * {@link #get(int)}. {@link #insertOrAssign(int[], int[])} stores many pairs in one call.
   */
  public OptionalInt put(int key, int value) {
    width.require(KeyWidth.W32, "table");
    Long v = single.put(key, value, true);
    return v == null ? OptionalInt.empty() : OptionalInt.of((int) (long) v);
  }

  /** 64-bit table: as {@link #put(int, int)}. */
  public OptionalLong put(long key, long value) {
    width.require(KeyWidth.W64, "table");
    Long v = single.put(key, value, true);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * Stores the pair only when {@code key} is absent; returns the value already there (left as it
   * was), empty when the pair was stored. Reserved key and full table: as {@link #put(int, int)}.
   * <b>Cost:</b> one native call (an insert) when the key was absent, two (then a find) when present.
   */
  public OptionalInt putIfAbsent(int key, int value) {
    width.require(KeyWidth.W32, "table");
    Long v = single.put(key, value, false);
    return v == null ? OptionalInt.empty() : OptionalInt.of((int) (long) v);
  }

  /** 64-bit table: as {@link #putIfAbsent(int, int)}. */
  public OptionalLong putIfAbsent(long key, long value) {
    width.require(KeyWidth.W64, "table");
    Long v = single.put(key, value, false);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * Removes {@code key}; returns the value it had, empty when it was absent (a reserved key: empty,
   * without a native call). <b>Cost:</b> one native call (a find) when absent, two (then an erase)
   * when present, under the table's lock.
   */
  public OptionalInt remove(int key) {
    width.require(KeyWidth.W32, "table");
    Long v = single.remove(key);
    return v == null ? OptionalInt.empty() : OptionalInt.of((int) (long) v);
  }

  /** 64-bit table: as {@link #remove(int)}. */
  public OptionalLong remove(long key) {
    width.require(KeyWidth.W64, "table");
    Long v = single.remove(key);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** Whether the table holds no key. Cost: one native call ({@code wx_size}), no kernel. */
  public boolean isEmpty() {
    return size() == 0;
  }

  // ---- whole-table calls ---------------------------------------------------------------------

  /** Number of live keys. */
  public long size() {
    acquire();
    try {
      return Native.size(guard.handle());
    } finally {
      release();
    }
  }

  /**
   * Number of slots, which is not the builder's capacity (keys): a table holds about
   * {@code maxLoadFactor() * capacity()} keys at its max load factor.
   */
  public long capacity() {
    acquire();
    try {
      return Native.capacity(guard.handle());
    } finally {
      release();
    }
  }

  public double loadFactor() {
    acquire();
    try {
      return Native.loadFactor(guard.handle());
    } finally {
      release();
    }
  }

  public TableStats stats() {
    acquire();
    try {
      return tableStats(Native.stats(guard.handle()));
    } finally {
      release();
    }
  }

  private static TableStats tableStats(Native.Stats s) {
    return new TableStats(s.size(), s.capacity(), s.bytes(), s.resizes(), s.stashUsed(),
        s.displacements(), s.failedInserts(), s.lastKernelMillis(), s.lastFull(), s.lastInvalid());
  }

  /** Removes every key. */
  public void clear() {
    acquire();
    try {
      Native.clear(guard.handle());
    } finally {
      release();
    }
  }

  /**
   * Rehashes so the table holds {@code capacity} keys without growing (as {@link Builder#capacity});
   * fails with {@link InvalidArgumentException} below the current size.
   */
  public void resize(long capacity) {
    if (capacity < 0) {
      throw new InvalidArgumentException("capacity must be >= 0, got " + capacity);
    }
    acquire();
    try {
      Native.resize(guard.handle(), capacity);
    } catch (DeviceOutOfMemoryException e) {
      throw guard.located(e);
    } finally {
      release();
    }
  }

  /** Every live key with its value, in no particular order (32-bit tables). */
  public Pairs retrieveAll() {
    width.require(KeyWidth.W32, "table");
    return retrieveArrays((k, v) -> new Pairs(k.toArray(JAVA_INT), v.toArray(JAVA_INT)));
  }

  /** Every live key with its value, in no particular order (64-bit tables). */
  public LongPairs retrieveAllLong() {
    width.require(KeyWidth.W64, "table");
    return retrieveArrays((k, v) -> new LongPairs(k.toArray(JAVA_LONG), v.toArray(JAVA_LONG)));
  }

  /** Copies every pair off-heap and hands the two segments (keyBits() / 8 * size bytes) to {@code make}. */
  private <P> P retrieveArrays(java.util.function.BiFunction<MemorySegment, MemorySegment, P> make) {
    try (Arena a = Arena.ofConfined()) {
      Copy c = copyPairs(a, Integer.MAX_VALUE - 8,
          "more than a Java array can; use retrieveAll(MemorySegment, MemorySegment, long) or forEach");
      return make.apply(c.keys(), c.values());
    }
  }

  /** Every pair of the table at one instant, off-heap (keyBits() / 8 * count bytes each), and its slots then. */
  record Copy(MemorySegment keys, MemorySegment values, long count, long slots) {}

  /**
   * Copies every pair into {@code arena} under the table's lock, so no other call on this table
   * changes it in between; throws InvalidArgumentException ("the table holds n keys, " + tooMany)
   * above maxCount pairs.
   */
  Copy copyPairs(Arena arena, long maxCount, String tooMany) {
    acquire();
    try {
      long n = Native.size(guard.handle());
      if (n > maxCount) {
        throw new InvalidArgumentException("the table holds " + n + " keys, " + tooMany);
      }
      long slots = Native.capacity(guard.handle());
      if (n == 0) {
        return new Copy(MemorySegment.NULL, MemorySegment.NULL, 0, slots);
      }
      MemorySegment k = arena.allocate(width.bytes * n, width.bytes);
      MemorySegment v = arena.allocate(width.bytes * n, width.bytes);
      PairChunks.check(Native.retrieveAll(guard.handle(), k, v, n, Native.MEM_HOST), n);
      return new Copy(k, v, n, slots);
    } finally {
      release();
    }
  }

  /**
   * A GPU table's pairs copied into device memory on its first device under the table's lock (so no
   * other call changes the table in between); null when the device lacks the memory.
   */
  PairChunks.OnDevice copyPairsToDevice() {
    acquire();
    try {
      long n = Native.size(guard.handle());
      if (n == 0) {
        return new PairChunks.OnDevice(null, null, 0);
      }
      DeviceBuffer k = null;
      DeviceBuffer v = null;
      try {
        k = DeviceBuffer.allocate(sharding.device, width.bytes * n);
        v = DeviceBuffer.allocate(sharding.device, width.bytes * n);
      } catch (DeviceOutOfMemoryException e) {
        new PairChunks.OnDevice(k, v, 0).close();
        return null;
      }
      PairChunks.OnDevice d = new PairChunks.OnDevice(k, v, n);
      try {
        MemorySegment ks = k.acquire();
        MemorySegment vs = v.acquire();
        try {
          PairChunks.check(Native.retrieveAll(guard.handle(), ks, vs, n, Native.MEM_DEVICE), n);
        } finally {
          v.release();
          k.release();
        }
        return d;
      } catch (RuntimeException e) {
        d.close();
        throw e;
      }
    } finally {
      release();
    }
  }

  /** Pairs handed to the action per step, through two reused arrays. */
  private static final int FOR_EACH_CHUNK = 1 << 12;

  /**
   * Runs {@code action} on every key and value of a 32-bit table, in no particular order.
   *
   * <p>The pairs are copied once under the table's lock, the lock is released, and the copy is handed
   * to the action in steps of 4096 pairs through two small arrays. On GPU kinds the copy stays in
   * device memory (8 bytes per key, 16 on 64-bit tables) and comes to the host 65536 pairs at a time,
   * so the host holds one such chunk however large the table; on the CPU kind, or when the device lacks
   * the room, the copy is made in native host memory (none of it on the Java heap). The action sees the
   * table as it was when forEach began: changes made meanwhile (by the action itself or by other
   * threads) are not seen, and the action may call this table. <b>Cost:</b> one bulk native call
   * ({@code wx_retrieve_all}) plus the copies and the action's calls; the copy is freed when forEach
   * returns or throws.
   */
  public void forEach(IntIntConsumer action) {
    Objects.requireNonNull(action, "action");
    width.require(KeyWidth.W32, "table");
    int[] k = new int[FOR_EACH_CHUNK];
    int[] v = new int[FOR_EACH_CHUNK];
    PairChunks.each(this, (keys, values, count) -> {
      for (long off = 0; off < count; off += FOR_EACH_CHUNK) {
        int m = (int) Math.min(FOR_EACH_CHUNK, count - off);
        MemorySegment.copy(keys, JAVA_INT, 4 * off, k, 0, m);
        MemorySegment.copy(values, JAVA_INT, 4 * off, v, 0, m);
        for (int i = 0; i < m; i++) {
          action.accept(k[i], v[i]);
        }
      }
    });
  }

  /** 64-bit table: as {@link #forEach(IntIntConsumer)} (16 bytes of copy per key). */
  public void forEachLong(LongLongConsumer action) {
    Objects.requireNonNull(action, "action");
    width.require(KeyWidth.W64, "table");
    long[] k = new long[FOR_EACH_CHUNK];
    long[] v = new long[FOR_EACH_CHUNK];
    PairChunks.each(this, (keys, values, count) -> {
      for (long off = 0; off < count; off += FOR_EACH_CHUNK) {
        int m = (int) Math.min(FOR_EACH_CHUNK, count - off);
        MemorySegment.copy(keys, JAVA_LONG, 8 * off, k, 0, m);
        MemorySegment.copy(values, JAVA_LONG, 8 * off, v, 0, m);
        for (int i = 0; i < m; i++) {
          action.accept(k[i], v[i]);
        }
      }
    });
  }

  /**
   * Writes up to {@code maxCount} pairs into native host segments (4*maxCount bytes each, 8*maxCount
   * on a 64-bit table) and
   * returns the number of live keys; when that exceeds maxCount nothing is written and
   * {@link InvalidArgumentException} is thrown (size the segments from {@link #size()}).
   */
  public long retrieveAll(MemorySegment keys, MemorySegment values, long maxCount) {
    ConfigChecks.count(maxCount);
    MemorySegment k = Args.host(keys, "keys", width.bytes * maxCount, false, true);
    MemorySegment v = Args.host(values, "values", width.bytes * maxCount, false, true);
    acquire();
    try {
      return Native.retrieveAll(guard.handle(), k, v, maxCount, Native.MEM_HOST);
    } finally {
      release();
    }
  }

  /**
   * GPU tables: every pair into device buffers on one device of the table ({@link #devices()}), room for
   * {@code min(keys.byteSize(), values.byteSize()) / (keyBits() / 8)} pairs; the pairs never leave the
   * device. Returns the number of live keys; when that exceeds the room nothing is written and
   * {@link InvalidArgumentException} is thrown (size the buffers from {@link #size()}).
   */
  public long retrieveAll(DeviceBuffer keys, DeviceBuffer values) {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(values, "values");
    long room = Math.min(keys.byteSize(), values.byteSize()) / width.bytes;
    try (DeviceArgs d = new DeviceArgs(kind, sharding, "table")) {
      MemorySegment k = d.require(keys, "keys", 0);
      MemorySegment v = d.require(values, "values", 0);
      acquire();
      try {
        return Native.retrieveAll(guard.handle(), k, v, room, Native.MEM_DEVICE);
      } finally {
        release();
      }
    }
  }

  /** Writes every pair to a versioned, checksummed snapshot file, atomically ({@link Snapshot}). */
  public void save(java.nio.file.Path file) throws java.io.IOException {
    Snapshot.save(this, file);
  }

  /**
   * A new table holding a snapshot's pairs; {@code config} null means the snapshot's kind with default
   * settings. A foreign, truncated or corrupt file throws {@link SnapshotFormatException} ({@link Snapshot}).
   */
  public static HashTable load(java.nio.file.Path file, Builder config) throws java.io.IOException {
    return Snapshot.load(file, config);
  }
}
