package org.wixlib.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.function.Consumer;
import org.wixlib.WixlibException;
import org.wixlib.internal.ffi.wixlib_h;
import org.wixlib.internal.ffi.wx_config;
import org.wixlib.internal.ffi.wx_join_stats;
import org.wixlib.internal.ffi.wx_link_rates;
import org.wixlib.internal.ffi.wx_stats;

/**
 * The one class that calls the generated bindings ({@link wixlib_h}). Loads the library before the
 * first call, turns status codes into exceptions with this thread's {@code wx_last_error()} text, and
 * uses a confined arena per call for temporaries. Table and device pointers travel as {@code long}
 * addresses; they become zero-length segments only to be passed back to native code.
 */
public final class Native {
  static {
    NativeAccess.check();  // before the bindings initialize
  }

  /** Memory-space flags ({@code wx_mem}). */
  public static final int MEM_HOST = wixlib_h.WX_MEM_HOST();
  public static final int MEM_DEVICE = wixlib_h.WX_MEM_DEVICE();

  /** Frees native resources of tables and device buffers that were never closed. */
  public static final Cleaner CLEANER = Cleaner.create();

  private Native() {}

  /** Loads the library (idempotent). */
  public static void ensureLoaded() {
    NativeLoader.load();
  }

  /** wx_version() without the load check: for NativeLoader's version check only. */
  static int rawVersion() {
    return wixlib_h.wx_version();
  }

  /** wx_version_string() (the build id) without the load check: for NativeLoader's check only. */
  static String rawVersionString() {
    return string(wixlib_h.wx_version_string());
  }

  public static int version() {
    ensureLoaded();
    return wixlib_h.wx_version();
  }

  public static String versionString() {
    ensureLoaded();
    return string(wixlib_h.wx_version_string());
  }

  /** This thread's last native error message ("" when none). */
  public static String lastError() {
    return string(wixlib_h.wx_last_error());
  }

  /** The native name of a status code. */
  public static String statusName(int status) {
    ensureLoaded();
    return string(wixlib_h.wx_status_name(status));
  }

  /** The exception of a failed call; reads wx_last_error(), so call it right after the native call. */
  public static WixlibException error(int status) {
    return Status.toException(status, lastError());
  }

  /** Throws the exception of a non-OK status. */
  public static void check(int status) {
    if (status != Status.OK) {
      throw error(status);
    }
  }

  private static String string(MemorySegment cString) {
    if (cString == null || cString.address() == 0) {
      return "";
    }
    return cString.getString(0);
  }

  private static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  /**
   * Runs a downcall that passes the caller's segments. The generated bindings wrap whatever a downcall
   * throws in an AssertionError; a segment that cannot be used (its arena closed meanwhile, or confined
   * to another thread) throws IllegalStateException or WrongThreadException, which surfaces as itself.
   */
  private static int withSegments(java.util.function.IntSupplier downcall) {
    try {
      return downcall.getAsInt();
    } catch (AssertionError e) {
      if (e.getCause() instanceof IllegalStateException | e.getCause() instanceof WrongThreadException) {
        throw (RuntimeException) e.getCause();
      }
      throw e;
    }
  }

  // ---- library -------------------------------------------------------------------------------

  public static boolean kindAvailable(int kind) {
    return kindUnavailableReason(kind) == null;
  }

  /**
   * Why the kind cannot run here (no CUDA build, no driver or one too old, no device, a GPU older than
   * the build's architectures), or null when it can.
   */
  public static String kindUnavailableReason(int kind) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_INT);
      check(wixlib_h.wx_kind_available(kind, out));
      if (out.get(JAVA_INT, 0) != 0) {
        return null;
      }
      String why = lastError();
      return why.isEmpty() ? "not available in this build of libwixlib.so" : why;
    }
  }

  /** {runtime, driver} as 1000*major + 10*minor; 0 where absent. */
  public static int[] cudaVersions() {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment rt = a.allocate(JAVA_INT);
      MemorySegment drv = a.allocate(JAVA_INT);
      check(wixlib_h.wx_cuda_versions(rt, drv));
      return new int[] {rt.get(JAVA_INT, 0), drv.get(JAVA_INT, 0)};
    }
  }

  // ---- devices -------------------------------------------------------------------------------

  /** Number of CUDA devices; 0 when there is no device, driver or CUDA build. */
  public static int deviceCount() {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_INT);
      int st = wixlib_h.wx_device_count(out);
      if (st == Status.NO_DEVICE) {
        return 0;
      }
      check(st);
      return out.get(JAVA_INT, 0);
    }
  }

  public static String deviceName(int device) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment buf = a.allocate(256);
      check(wixlib_h.wx_device_name(device, buf, buf.byteSize()));
      return buf.getString(0);
    }
  }

  /** {free, total} bytes. */
  public static long[] deviceMemory(int device) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment free = a.allocate(JAVA_LONG);
      MemorySegment total = a.allocate(JAVA_LONG);
      check(wixlib_h.wx_device_memory(device, free, total));
      return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
    }
  }

  /** {compute capability (10*major + minor), multiprocessors}. */
  public static int[] deviceProperties(int device) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment cc = a.allocate(JAVA_INT);
      MemorySegment sms = a.allocate(JAVA_INT);
      check(wixlib_h.wx_device_properties(device, cc, sms));
      return new int[] {cc.get(JAVA_INT, 0), sms.get(JAVA_INT, 0)};
    }
  }

  /** Allocates device memory; returns its address (never dereference it on the host). */
  public static long deviceAlloc(int device, long bytes) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(ADDRESS);
      check(wixlib_h.wx_device_alloc(device, bytes, out));
      return out.get(ADDRESS, 0).address();
    }
  }

  /** Frees device memory; returns the status (cleaners ignore it). */
  public static int deviceFree(long address) {
    ensureLoaded();
    return wixlib_h.wx_device_free(ptr(address));
  }

  /** Copies bytes between host and device memory (either direction); waits for completion. */
  public static void copy(MemorySegment dst, int dstMem, MemorySegment src, int srcMem, long bytes) {
    ensureLoaded();
    check(withSegments(() -> wixlib_h.wx_copy(dst, dstMem, src, srcMem, bytes)));
  }

  // ---- page-locked host memory and the link -------------------------------------------------------

  /** Allocates page-locked host memory; returns its address. */
  private static long hostAlloc(long bytes) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(ADDRESS);
      check(wixlib_h.wx_host_alloc(bytes, out));
      return out.get(ADDRESS, 0).address();
    }
  }

  /** bytes of page-locked host memory as a segment, freed when arena closes. */
  public static MemorySegment hostSegment(Arena arena, long bytes) {
    long address = hostAlloc(bytes);
    return MemorySegment.ofAddress(address).reinterpret(bytes, arena, s -> hostFree(address));
  }

  /** Frees page-locked host memory; returns the status (cleanups ignore it). */
  private static int hostFree(long address) {
    ensureLoaded();
    return wixlib_h.wx_host_free(ptr(address));
  }

  /** Page-locks [address, address + bytes) until {@link #hostUnregister}. */
  public static void hostRegister(long address, long bytes) {
    ensureLoaded();
    check(wixlib_h.wx_host_register(ptr(address), bytes));
  }

  /** Unlocks memory locked by {@link #hostRegister}; returns the status. */
  public static int hostUnregister(long address) {
    ensureLoaded();
    return wixlib_h.wx_host_unregister(ptr(address));
  }

  /**
   * wx_link_measure: {host to device, device to host, both directions, host copy} in GB/s, then the
   * host copy's thread count, then the host copy rate and threads of a join.
   */
  public static double[] linkMeasure(int device, long bytes) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment r = wx_link_rates.allocate(a);
      check(wixlib_h.wx_link_measure(device, bytes, r));
      return new double[] {wx_link_rates.host_to_device(r), wx_link_rates.device_to_host(r),
          wx_link_rates.both_directions(r), wx_link_rates.host_copy(r), wx_link_rates.host_copy_threads(r),
          wx_link_rates.host_copy_join(r), wx_link_rates.host_copy_join_threads(r)};
    }
  }

  // ---- tables --------------------------------------------------------------------------------

  /** A table configuration; unset fields (null) keep wx_config_init's defaults for the kind. */
  public record Config(int kind, Long capacity, Double maxLoadFactor, Double minLoadFactor,
      Integer device, Integer grow, Integer threads, Integer keyBits, Tuning tuning, Placement placement) {
    public Config(int kind, Long capacity, Double maxLoadFactor, Double minLoadFactor, Integer device,
        Integer grow, Integer threads) {
      this(kind, capacity, maxLoadFactor, minLoadFactor, device, grow, threads, null, Tuning.DEFAULTS);
    }

    public Config(int kind, Long capacity, Double maxLoadFactor, Double minLoadFactor, Integer device,
        Integer grow, Integer threads, Integer keyBits, Tuning tuning) {
      this(kind, capacity, maxLoadFactor, minLoadFactor, device, grow, threads, keyBits, tuning, null);
    }
  }

  /**
   * The sharding fields of wx_config: shards (null keeps the default, one), and the devices shard i
   * lives on ({@code devices[i % devices.length]}; null: every shard on the config's device).
   */
  public record Placement(Integer shards, int[] devices) {}

  /** The tuning fields of wx_config; unset ones (null) keep wx_config_init's defaults. */
  public record Tuning(Long stagingChunk, Integer hotShare, Integer mixedGroup, Long buildMin) {
    public static final Tuning DEFAULTS = new Tuning(null, null, null, null);
  }

  /** The max load factor wx_config_init gives a kind. */
  public static double defaultMaxLoadFactor(int kind) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment cfg = wx_config.allocate(a);
      check(wixlib_h.wx_config_init(cfg, kind));
      return wx_config.max_load_factor(cfg);
    }
  }

  /** Creates a table; returns its handle address. */
  public static long tableCreate(Config c) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(ADDRESS);
      check(wixlib_h.wx_table_create(config(a, c), out));
      return handle(out, "wx_table_create returned WX_OK and a NULL table");
    }
  }

  /** A wx_config in {@code a}: wx_config_init's defaults for the kind, then every non-null field of c. */
  private static MemorySegment config(Arena a, Config c) {
    MemorySegment cfg = wx_config.allocate(a);
    check(wixlib_h.wx_config_init(cfg, c.kind()));
    set(c.capacity(), v -> wx_config.capacity(cfg, v));
    set(c.maxLoadFactor(), v -> wx_config.max_load_factor(cfg, v));
    set(c.minLoadFactor(), v -> wx_config.min_load_factor(cfg, v));
    set(c.device(), v -> wx_config.device(cfg, v));
    set(c.grow(), v -> wx_config.grow(cfg, v));
    set(c.threads(), v -> wx_config.threads(cfg, v));
    set(c.keyBits(), v -> { // keys and values have one width (32/32 or 64/64)
      wx_config.key_bits(cfg, v);
      wx_config.value_bits(cfg, v);
    });
    Tuning t = c.tuning() == null ? Tuning.DEFAULTS : c.tuning();
    set(t.stagingChunk(), v -> wx_config.staging_chunk(cfg, v));
    set(t.hotShare(), v -> wx_config.hot_share(cfg, v));
    set(t.mixedGroup(), v -> wx_config.mixed_group(cfg, v));
    set(t.buildMin(), v -> wx_config.build_min(cfg, v));
    Placement p = c.placement();
    if (p != null) {
      set(p.shards(), v -> wx_config.shards(cfg, v));
      set(p.devices(), v -> {
        wx_config.device_count(cfg, v.length);
        // Through the field's slice: the generated indexed setter addresses the array, not the struct.
        MemorySegment devices = wx_config.devices(cfg);
        for (int i = 0; i < v.length; i++) {
          devices.setAtIndex(JAVA_INT, i, v[i]);
        }
      });
    }
    return cfg;
  }

  /** Writes a config field that was set (non-null). */
  private static <T> void set(T value, Consumer<T> field) {
    if (value != null) {
      field.accept(value);
    }
  }

  /** The handle a create call wrote to {@code out}; a NULL one after WX_OK is an internal error. */
  private static long handle(MemorySegment out, String ifNull) {
    long handle = out.get(ADDRESS, 0).address();
    if (handle == 0) {
      throw Status.toException(Status.INTERNAL, ifNull);
    }
    return handle;
  }

  /** Destroys a table; returns the status (cleaners ignore it). */
  public static int tableDestroy(long table) {
    return wixlib_h.wx_table_destroy(ptr(table));
  }

  /**
   * A bulk call (wx_insert, wx_insert_or_assign, wx_find, wx_contains, wx_erase, wx_batch) on memory
   * mem; returns the raw status: the facade decides which statuses are results (FULL with outcomes)
   * and must call error(status) right after a failure.
   */
  public static int bulk(long table, BulkCall c, int mem) {
    MemorySegment t = ptr(table);
    MemorySegment none = MemorySegment.NULL;
    return withSegments(() -> switch (c.op()) {
      case INSERT -> wixlib_h.wx_insert(t, c.keys(), c.values(), c.n(), c.out(), mem, none);
      case INSERT_OR_ASSIGN -> wixlib_h.wx_insert_or_assign(t, c.keys(), c.values(), c.n(), c.out(), mem, none);
      case FIND -> wixlib_h.wx_find(t, c.keys(), c.values(), c.n(), c.notFound(), mem, none);
      case CONTAINS -> wixlib_h.wx_contains(t, c.keys(), c.out(), c.n(), mem, none);
      case ERASE -> wixlib_h.wx_erase(t, c.keys(), c.n(), c.out(), mem, none);
      case BATCH -> wixlib_h.wx_batch(t, c.ops(), c.keys(), c.values(), c.n(), c.out(), mem, none);
    });
  }

  public static long size(long table) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_LONG);
      check(wixlib_h.wx_size(ptr(table), out));
      return out.get(JAVA_LONG, 0);
    }
  }

  public static long capacity(long table) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_LONG);
      check(wixlib_h.wx_capacity(ptr(table), out));
      return out.get(JAVA_LONG, 0);
    }
  }

  public static double loadFactor(long table) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_DOUBLE);
      check(wixlib_h.wx_load_factor(ptr(table), out));
      return out.get(JAVA_DOUBLE, 0);
    }
  }

  /** wx_stats: counters since creation, and the last bulk call's kernel time and FULL / INVALID_KEY counts. */
  public record Stats(long size, long capacity, long bytes, long resizes, long stashUsed,
      long displacements, long failedInserts, double lastKernelMillis, long lastFull, long lastInvalid) {}

  public static Stats stats(long table) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment s = wx_stats.allocate(a);
      check(wixlib_h.wx_stats_get(ptr(table), s));
      return stats(s);
    }
  }

  private static Stats stats(MemorySegment s) {
    return new Stats(wx_stats.size(s), wx_stats.capacity(s), wx_stats.bytes(s), wx_stats.resizes(s),
        wx_stats.stash_used(s), wx_stats.displacements(s), wx_stats.failed_inserts(s),
        wx_stats.last_kernel_ms(s), wx_stats.last_full(s), wx_stats.last_invalid(s));
  }

  /** wx_shard_stats_get: one shard's counters, and the device it lives on (-1 on the CPU kind). */
  public record ShardStats(Stats stats, int device) {}

  public static ShardStats shardStats(long table, int shard) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment s = wx_stats.allocate(a);
      MemorySegment device = a.allocate(JAVA_INT);
      check(wixlib_h.wx_shard_stats_get(ptr(table), shard, s, device));
      return new ShardStats(stats(s), device.get(JAVA_INT, 0));
    }
  }

  public static void clear(long table) {
    check(wixlib_h.wx_clear(ptr(table)));
  }

  public static void resize(long table, long capacity) {
    check(wixlib_h.wx_resize(ptr(table), capacity));
  }

  /** Writes up to maxCount pairs; returns the number of live keys. */
  public static long retrieveAll(long table, MemorySegment keys, MemorySegment values, long maxCount,
      int mem) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment count = a.allocate(JAVA_LONG);
      check(withSegments(() -> wixlib_h.wx_retrieve_all(ptr(table), keys, values, maxCount, count, mem,
          MemorySegment.NULL)));
      return count.get(JAVA_LONG, 0);
    }
  }

  // ---- joins --------------------------------------------------------------

  /** Creates a join over n build keys (key width from keyBits); returns its handle address. */
  public static long joinCreate(JoinCalls calls, Config c, int build, MemorySegment keys, long n, int mem) {
    ensureLoaded();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(ADDRESS);
      MemorySegment cfg = config(a, c);
      check(withSegments(() -> calls.create(cfg, build, keys, n, mem, out)));
      return handle(out, "wx_join_create returned WX_OK and a NULL join");
    }
  }

  public static int joinDestroy(long join) {
    return wixlib_h.wx_join_destroy(ptr(join));
  }

  public static void joinHash(long join, MemorySegment keys, MemorySegment hashes, long n, int mem) {
    check(withSegments(() -> wixlib_h.wx_join_hash(ptr(join), keys, hashes, n, mem, MemorySegment.NULL)));
  }

  /** Number of (probe row, build row) pairs; hashes may be MemorySegment.NULL. */
  public static long joinCount(JoinCalls calls, long join, MemorySegment keys, MemorySegment hashes, long n,
      int mem) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_LONG);
      check(withSegments(() -> calls.count(join, keys, hashes, n, mem, out)));
      return out.get(JAVA_LONG, 0);
    }
  }

  /**
   * Writes the pairs when they fit in capacity; returns how many there are (more than capacity: nothing
   * was written). Other failures throw.
   */
  public static long joinProbe(JoinCalls calls, long join, MemorySegment keys, MemorySegment hashes, long n,
      MemorySegment probeRows, MemorySegment buildRows, long capacity, int mem) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_LONG);
      int st = withSegments(() -> calls.probe(join, keys, hashes, n, probeRows, buildRows, capacity, mem, out));
      long count = out.get(JAVA_LONG, 0);
      if (st == Status.INVALID_ARGUMENT && count > capacity) {
        return count;
      }
      check(st);
      return count;
    }
  }

  /** Semi (anti = false) or anti join: writes the probe rows; returns how many. */
  public static long joinSemi(JoinCalls calls, long join, MemorySegment keys, MemorySegment hashes, long n,
      boolean anti, MemorySegment rows, int mem) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(JAVA_LONG);
      check(withSegments(() -> calls.semi(join, keys, hashes, n, anti ? 1 : 0, rows, mem, out)));
      return out.get(JAVA_LONG, 0);
    }
  }

  /** wx_join_stats: rows, keys, bytes, last matches, last table ms, last kernel ms. */
  public record JoinStats(long buildRows, long distinctKeys, long bytes, long lastMatches, double lastTableMillis,
      double lastKernelMillis) {}

  public static JoinStats joinStats(long join) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment s = wx_join_stats.allocate(a);
      check(wixlib_h.wx_join_stats_get(ptr(join), s));
      return new JoinStats(wx_join_stats.build_rows(s), wx_join_stats.distinct_keys(s), wx_join_stats.bytes(s),
          wx_join_stats.last_matches(s), wx_join_stats.last_table_ms(s), wx_join_stats.last_kernel_ms(s));
    }
  }
}
