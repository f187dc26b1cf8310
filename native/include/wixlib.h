/*
 * wixlib — GPU hash tables (GLHT, Hive) and a concurrent CPU hopscotch table behind one C API.
 *
 * The only public header. C types only: jextract reads it to make the Java bindings.
 *
 * Conventions
 *  - Every call returns a status (WX_OK = 0). On failure wx_last_error() gives this thread's message.
 *  - Keys and values are passed as untyped pointers; their width is the table's (key_bits/value_bits):
 *    32/32 or 64/64 on every kind (other combinations fail with WX_ERR_UNSUPPORTED). A batch of n elements is n keys, n values, n outcome bytes.
 *  - `mem` says where the caller's arrays live: WX_MEM_HOST or WX_MEM_DEVICE (all arrays of one call
 *    live in the same space). Host arrays given to a GPU table are copied by the library in chunks:
 *    through its own page-locked buffers, or, for an array that lies wholly in page-locked memory
 *    (wx_host_alloc, wx_host_register), straight between it and the device.
 *  - `stream` is an optional cudaStream_t (NULL: the table's own stream). Calls return when the work
 *    is complete and results are visible to the caller.
 *  - Calls on one table from several threads are serialised by the library.
 *  - Reserved keys: WX_KEY32_EMPTY and WX_KEY32_TOMBSTONE are reserved on every kind of table (on 64-bit
 *    tables WX_KEY64_EMPTY and WX_KEY64_TOMBSTONE, the same values widened with ones). An
 *    element carrying one is not applied, gets the outcome WX_OUT_INVALID_KEY, the other elements are
 *    applied, and the call returns WX_ERR_INVALID_KEY.
 *  - A table whose insert could not place a key (growth disabled, or out of memory) marks those elements
 *    WX_OUT_FULL and returns WX_ERR_FULL; the table stays valid and holds everything else.
 *  - What a bulk call writes into the caller's arrays (every kind, host or device memory), when it
 *    returns WX_OK, WX_ERR_INVALID_KEY or WX_ERR_FULL: outcomes[i] (when outcomes is not NULL) for every
 *    element; wx_contains: every found[i]; wx_hash_keys: every hashes[i]; wx_find / wx_find_hashed:
 *    every values[i]; wx_batch: values[i] only for a WX_OP_FIND element whose outcome is
 *    WX_OUT_FOUND. Every other array is only read: keys, ops, the hashes given to pre-hashed calls, the
 *    values of wx_insert / wx_insert_or_assign / wx_insert_hashed, and in wx_batch the values[i] of
 *    INSERT, INSERT_OR_ASSIGN and ERASE elements, of a FIND that reports WX_OUT_NOT_FOUND and of any
 *    WX_OUT_INVALID_KEY element, which stay exactly as the caller left them.
 */
#ifndef WIXLIB_H
#define WIXLIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define WX_API __declspec(dllexport)
#else
#define WX_API __attribute__((visibility("default")))
#endif

/* Version of the library: (major << 16) | (minor << 8) | patch. */
#define WX_VERSION_MAJOR 0
#define WX_VERSION_MINOR 1
#define WX_VERSION_PATCH 0

/* Status codes. */
typedef enum wx_status {
  WX_OK = 0,
  WX_ERR_INVALID_ARGUMENT = 1, /* null pointer, bad length, bad flag, bad config */
  WX_ERR_INVALID_KEY = 2,      /* a reserved key value was given (see WX_OUT_INVALID_KEY) */
  WX_ERR_OUT_OF_MEMORY = 3,    /* host or device allocation failed; the table is intact */
  WX_ERR_NO_DEVICE = 4,        /* no CUDA device or driver, or the library was built without CUDA */
  WX_ERR_CUDA = 5,             /* a CUDA call failed */
  WX_ERR_FULL = 6,             /* some inserts could not be placed (see WX_OUT_FULL) */
  WX_ERR_UNSUPPORTED = 7,      /* valid request this table kind or build does not support */
  WX_ERR_INTERNAL = 8          /* a broken invariant inside the library: please report */
} wx_status;

/* Table designs. */
typedef enum wx_kind {
  WX_KIND_CPU = 0,  /* concurrent hopscotch on the host (Herlihy, Shavit & Tzafrir) */
  WX_KIND_GLHT = 1, /* GPU lock-free hopscotch, warp-cooperative, H = 31 */
  WX_KIND_HIVE = 2  /* GPU bucketed cuckoo with stash and linear-hashing resize */
} wx_kind;

/* Where the caller's arrays live. */
typedef enum wx_mem {
  WX_MEM_HOST = 0,
  WX_MEM_DEVICE = 1
} wx_mem;

/* Per-element outcomes (one byte each). */
typedef enum wx_outcome {
  WX_OUT_NONE = 0,        /* not executed */
  WX_OUT_INSERTED = 1,    /* insert / insert_or_assign: the key was new */
  WX_OUT_PRESENT = 2,     /* insert: the key was already present (value left unchanged) */
  WX_OUT_ASSIGNED = 3,    /* insert_or_assign: the key was present, its value replaced */
  WX_OUT_FOUND = 4,       /* find / contains: present (value written) */
  WX_OUT_NOT_FOUND = 5,   /* find / contains / erase: absent */
  WX_OUT_ERASED = 6,      /* erase: the key was present and is now removed */
  WX_OUT_FULL = 7,        /* insert: no room and the table could not grow */
  WX_OUT_INVALID_KEY = 8  /* the key is a reserved value; nothing was done */
} wx_outcome;

/* Operation codes of a mixed batch (wx_batch). */
typedef enum wx_op {
  WX_OP_INSERT = 0,           /* value read from values[i]; values[i] never written */
  WX_OP_ERASE = 1,            /* values[i] neither read nor written */
  WX_OP_FIND = 2,             /* value written to values[i] when found, else left as it was */
  WX_OP_INSERT_OR_ASSIGN = 3  /* value read from values[i]; values[i] never written */
} wx_op;

/* Growth policy when an insert finds no room. */
typedef enum wx_grow {
  WX_GROW_AUTO = 0, /* grow (rehash/split) between launches and re-run failed elements */
  WX_GROW_NEVER = 1 /* report WX_OUT_FULL / WX_ERR_FULL instead */
} wx_grow;

/* Reserved 32-bit keys. */
#define WX_KEY32_EMPTY 0xFFFFFFFFu
#define WX_KEY32_TOMBSTONE 0xFFFFFFFEu
/* Reserved keys of 64-bit tables: the 32-bit ones widened with ones. */
#define WX_KEY64_EMPTY 0xFFFFFFFFFFFFFFFFull
#define WX_KEY64_TOMBSTONE 0xFFFFFFFFFFFFFFFEull

/* Table configuration: fill with wx_config_init, then set what you need. */
typedef struct wx_config {
  int32_t kind;              /* wx_kind */
  int32_t key_bits;          /* 32 (default) or 64 (every kind; with value_bits 64) */
  int32_t value_bits;        /* 32 (default) or 64 (every kind; with key_bits 64) */
  int32_t device;            /* CUDA device ordinal, GPU kinds only */
  uint64_t capacity;         /* number of keys the table should hold at max_load_factor */
  double max_load_factor;    /* grow above this (WX_LOAD_FACTOR_MIN..WX_LOAD_FACTOR_MAX); default per kind
                                (0.9; Hive 0.95) */
  double min_load_factor;    /* shrink below this where the kind can (Hive); 0 = never shrink */
  int32_t grow;              /* wx_grow */
  int32_t threads;           /* CPU kind: worker threads for bulk calls; GPU kinds: threads that copy
                                host arrays into and out of the staging buffers; 0 = all cores (GPU
                                kinds: at most 16) */
  /* Tuning: wx_config_init sets the defaults; wx_table_create rejects values outside the limits. */
  uint64_t staging_chunk;    /* GPU kinds: elements per chunk when host arrays are staged
                                (WX_STAGING_CHUNK_MIN..WX_STAGING_CHUNK_MAX, default 2^21) */
  int32_t hot_share;         /* GPU kinds: a mixed batch with at most this percent of distinct keys
                                (in a sample) is combined per key (0..100, default 90; 0 = never) */
  int32_t mixed_group;       /* GLHT: rounds of 32 ops each warp orders by kind in a mixed batch
                                (0..WX_MIXED_GROUP_MAX; 0 = chosen by batch size) */
  uint64_t build_min;        /* GLHT: smallest insert into an empty table that is bulk-built by
                                sorting (default 2^24; 0 = never) */
  /* Sharding (tables and joins of every kind): the table is split into `shards` parts by the high bits
     of a hash of the key that is independent of the hash each part uses inside. Every bulk call is split
     per shard, the shards run concurrently (each GPU shard on its own device and stream), and results
     come back in the caller's order. capacity is the whole table's; each shard gets its share plus a
     margin for the spread of the split (so a WX_GROW_NEVER table sized for n keys holds n keys), and
     wx_resize gives each shard its share, never less than it holds. Device arrays of a sharded GPU table
     may lie on any of its devices (all arrays of one call on the same one); the call's `stream`, when
     given, must belong to that device: the split and the gathering of results run on it, after the work
     queued there, and each shard runs on its own stream. */
  int32_t shards;            /* 1..WX_MAX_SHARDS (default 1: one table); 0 = one per device (device_count,
                                or 1 when that is 0 and on the CPU kind) */
  int32_t device_count;      /* GPU kinds: 0..WX_MAX_DEVICES; 0 (default) = every shard on `device`; else
                                shard i lives on devices[i % device_count] (distinct existing ordinals)
                                and `device` is not used. The CPU kind takes 0 only
                                (WX_ERR_INVALID_ARGUMENT otherwise). */
  int32_t devices[16];       /* WX_MAX_DEVICES entries */
} wx_config;

/* Limits of wx_config, checked once by wx_table_create and wx_join_create. */
#define WX_LOAD_FACTOR_MIN 0.05
#define WX_LOAD_FACTOR_MAX 1.0
#define WX_STAGING_CHUNK_MIN 1024
#define WX_STAGING_CHUNK_MAX 67108864
#define WX_HOT_SHARE_MAX 100
#define WX_MIXED_GROUP_MAX 8
#define WX_MAX_SHARDS 256
#define WX_MAX_DEVICES 16

/* Counters of one table. Fields a kind does not have are 0. */
typedef struct wx_stats {
  uint64_t size;             /* live keys */
  uint64_t capacity;         /* slots */
  uint64_t bytes;            /* memory held (device memory for GPU kinds) */
  uint64_t resizes;          /* grow/shrink/rehash steps since creation */
  uint64_t stash_used;       /* Hive: occupied stash slots */
  uint64_t displacements;    /* hopscotch moves / cuckoo evictions since creation */
  uint64_t failed_inserts;   /* elements reported WX_OUT_FULL since creation */
  double last_kernel_ms;     /* GPU kinds: device time of the last bulk call (CUDA events) */
  uint64_t last_full;        /* elements of the last bulk call reported WX_OUT_FULL */
  uint64_t last_invalid;     /* elements of the last bulk call reported WX_OUT_INVALID_KEY; a call
                                refused for its arguments changes neither */
} wx_stats;

typedef struct wx_table wx_table;

/* ---- library --------------------------------------------------------------------------------- */
WX_API uint32_t wx_version(void);
WX_API const char* wx_version_string(void);
/* Message of this thread's last failed call ("" when none). Valid until this thread's next call. */
WX_API const char* wx_last_error(void);
WX_API const char* wx_status_name(int32_t status);
/* 1 when this build has the kind and (for GPU kinds) a usable device exists, else 0. */
WX_API int32_t wx_kind_available(int32_t kind, int32_t* available);
/* CUDA runtime and driver versions (1000*major + 10*minor); 0 where absent. */
WX_API int32_t wx_cuda_versions(int32_t* runtime_version, int32_t* driver_version);

/* ---- devices ----------------------------------------------------------------------------------- */
WX_API int32_t wx_device_count(int32_t* count);
/* Writes a NUL-terminated name, truncated to len bytes. */
WX_API int32_t wx_device_name(int32_t device, char* name, uint64_t len);
WX_API int32_t wx_device_memory(int32_t device, uint64_t* free_bytes, uint64_t* total_bytes);
/* Compute capability as 10*major + minor, and multiprocessor count. */
WX_API int32_t wx_device_properties(int32_t device, int32_t* compute_capability, int32_t* multiprocessors);
WX_API int32_t wx_device_alloc(int32_t device, uint64_t bytes, void** ptr);
WX_API int32_t wx_device_free(void* ptr);
/* Copies bytes between host and device memory in any direction; waits for completion. */
WX_API int32_t wx_copy(void* dst, int32_t dst_mem, const void* src, int32_t src_mem, uint64_t bytes);

/* ---- page-locked host memory --------------------------------------------------------------------
 * A GPU table's bulk call moves an array that lies wholly in page-locked memory straight between it
 * and the device (no staging copy on the host), so long-lived host columns are worth locking.
 * wx_host_alloc: new page-locked memory (free it with wx_host_free). wx_host_register: locks existing
 * memory [ptr, ptr + bytes) until wx_host_unregister(ptr); it costs about as much as copying the range
 * a few times, and the memory must stay allocated while registered. No device: WX_ERR_NO_DEVICE. */
WX_API int32_t wx_host_alloc(uint64_t bytes, void** ptr);
WX_API int32_t wx_host_free(void* ptr);
WX_API int32_t wx_host_register(void* ptr, uint64_t bytes);
WX_API int32_t wx_host_unregister(void* ptr);

/* What the path between this host and a device can carry, measured by wx_link_measure: copies of
 * `bytes` between page-locked host memory and the device, each direction alone and both at once, and
 * the host's copy rate from ordinary memory into page-locked staging buffers, as the staging copies
 * run (16 MiB pieces into a few reused buffers), with the copy threads a GPU table uses (config
 * threads = 0) and with those a GPU join uses (the whole host). Rates in GB/s (10^9 bytes per
 * second), best of a few repetitions. */
typedef struct wx_link_rates {
  double host_to_device;   /* page-locked host -> device */
  double device_to_host;   /* device -> page-locked host */
  double both_directions;  /* bytes per second moved in both directions at once, summed */
  double host_copy;        /* ordinary -> page-locked host memory, a table's staging threads */
  int32_t host_copy_threads;
  double host_copy_join;   /* the same with a join's copy threads */
  int32_t host_copy_join_threads;
} wx_link_rates;

/* Measures the link of `device` with buffers of `bytes` (0: 256 MiB); takes a fraction of a second. */
WX_API int32_t wx_link_measure(int32_t device, uint64_t bytes, wx_link_rates* rates);

/* ---- tables ------------------------------------------------------------------------------------ */
WX_API int32_t wx_config_init(wx_config* config, int32_t kind);
WX_API int32_t wx_table_create(const wx_config* config, wx_table** table);
/* Frees the table; NULL is accepted. */
WX_API int32_t wx_table_destroy(wx_table* table);

/* values may be NULL for insert (values = 0); outcomes may be NULL. values are only read (never
 * written); outcomes[i] is written for every element. */
WX_API int32_t wx_insert(wx_table* table, const void* keys, const void* values, uint64_t n,
                         uint8_t* outcomes, int32_t mem, void* stream);
WX_API int32_t wx_insert_or_assign(wx_table* table, const void* keys, const void* values, uint64_t n,
                                   uint8_t* outcomes, int32_t mem, void* stream);
/* values[i] = the key's value, or not_found_value when absent or reserved (truncated to 32 bits on
 * 32-bit tables, used in full on 64-bit tables): every values[i] is written. */
WX_API int32_t wx_find(wx_table* table, const void* keys, void* values, uint64_t n,
                       uint64_t not_found_value, int32_t mem, void* stream);
/* found[i] = 1 when present, else 0. */
WX_API int32_t wx_contains(wx_table* table, const void* keys, uint8_t* found, uint64_t n,
                           int32_t mem, void* stream);
/* outcomes may be NULL; outcomes[i] is written for every element. */
WX_API int32_t wx_erase(wx_table* table, const void* keys, uint64_t n, uint8_t* outcomes,
                        int32_t mem, void* stream);
/* Mixed batch: ops[i] is a wx_op; all elements run concurrently (same keys included). values[i] is
 * written only for a WX_OP_FIND element with outcome WX_OUT_FOUND (the value it found); every other
 * values[i] (INSERT / INSERT_OR_ASSIGN: read; ERASE; a FIND with WX_OUT_NOT_FOUND; any element with
 * WX_OUT_INVALID_KEY) is left exactly as it was. outcomes[i] is written for every element. */
WX_API int32_t wx_batch(wx_table* table, const uint8_t* ops, const void* keys, void* values,
                        uint64_t n, uint8_t* outcomes, int32_t mem, void* stream);

WX_API int32_t wx_size(wx_table* table, uint64_t* size);
WX_API int32_t wx_capacity(wx_table* table, uint64_t* capacity);
WX_API int32_t wx_load_factor(wx_table* table, double* load_factor);
WX_API int32_t wx_stats_get(wx_table* table, wx_stats* stats);
/* Counters of one shard (0 <= shard < the config's shards) and the device it lives on (-1 on the CPU
 * kind). wx_stats_get gives the whole table: sums, with last_kernel_ms the slowest shard's. */
WX_API int32_t wx_shard_stats_get(wx_table* table, int32_t shard, wx_stats* stats, int32_t* device);
WX_API int32_t wx_clear(wx_table* table);
/* Rehash/resize so the table has room for `capacity` keys at its max load factor.
 * Fails with WX_ERR_INVALID_ARGUMENT if that is below the current size. */
WX_API int32_t wx_resize(wx_table* table, uint64_t capacity);
/* Writes up to max_count pairs; *count = number of live keys (when larger than max_count nothing is
 * written and WX_ERR_INVALID_ARGUMENT is returned, so size the arrays from wx_size). */
WX_API int32_t wx_retrieve_all(wx_table* table, void* keys, void* values, uint64_t max_count,
                               uint64_t* count, int32_t mem, void* stream);

/* ---- pre-hashed calls (decoupled hashing) ------------------------------------------------------
 * hashes[i] = the table's 64-bit hash of keys[i]. It depends only on the key and the table's kind and
 * width (never on its size), so a key column hashed once serves any number of probes into tables of
 * that kind, across growth. Passing hashes that did not come from wx_hash_keys for the same kind and
 * width gives wrong answers (keys reported absent, or placed where lookups do not find them).
 * Pre-hashed find: every kind but Hive (WX_ERR_UNSUPPORTED). Pre-hashed insert: WX_KIND_CPU only.
 * Arrays of one call live in `mem`, like the other bulk calls. */
WX_API int32_t wx_hash_keys(wx_table* table, const void* keys, uint64_t* hashes, uint64_t n, int32_t mem,
                            void* stream);
WX_API int32_t wx_find_hashed(wx_table* table, const void* keys, const uint64_t* hashes, void* values,
                              uint64_t n, uint64_t not_found_value, int32_t mem, void* stream);
WX_API int32_t wx_insert_hashed(wx_table* table, const void* keys, const uint64_t* hashes, const void* values,
                                uint64_t n, uint8_t* outcomes, int32_t mem, void* stream);

/* ---- joins --------------------------------------------------------------------------------------
 * A join table over a build key column, for hash joins: key -> build row ids (row i = keys[i]).
 * Probing a key column gives the matching (probe row, build row) pairs, grouped by probe row in
 * probe order (within a probe row, build rows ascending). Row ids are 32-bit: a build or probe
 * column has fewer than 2^32 - 1 rows (split larger probes and add the offset).
 *  - WX_JOIN_UNIQUE: each build key at most once (primary keys); a repeated key fails the build with
 *    WX_ERR_INVALID_ARGUMENT naming it. WX_JOIN_MULTI: any keys; rows of one key are grouped.
 *  - Keys have the config's key_bits (64 on WX_KIND_CPU only: GPU joins take 32-bit keys). Reserved keys in the build column fail
 *    it with WX_ERR_INVALID_KEY (nothing built); in a probe column they match nothing (no error).
 *  - config->capacity is ignored: the table is sized for the build's distinct keys.
 *  - Output arrays never truncate silently: a call given `capacity` pairs writes them only when all
 *    fit; otherwise it writes nothing, sets *count to the number needed and returns
 *    WX_ERR_INVALID_ARGUMENT. wx_join_count gives that number first (a UNIQUE build never gives more
 *    pairs than probe rows, so capacity = n always suffices there).
 *  - hashes: NULL, or the probe keys' hashes from wx_join_hash (not supported on Hive).
 *  - mem: where every array of the call lives (device memory only with a GPU kind). */
typedef struct wx_join wx_join;

typedef enum wx_join_build {
  WX_JOIN_UNIQUE = 0,
  WX_JOIN_MULTI = 1
} wx_join_build;

typedef struct wx_join_stats {
  uint64_t build_rows;     /* rows of the build column */
  uint64_t distinct_keys;  /* keys in the table */
  uint64_t bytes;          /* memory held: the table plus the row groups (device memory for GPU kinds) */
  uint64_t last_matches;   /* pairs (probe) or rows (semi/anti) of the last call */
  double last_table_ms;    /* GPU kinds: device time of the table lookups of the last call */
  double last_kernel_ms;   /* device time (CPU: wall time) of the last call's whole computation,
                              without host<->device copies of the caller's arrays */
} wx_join_stats;

WX_API int32_t wx_join_create(const wx_config* config, int32_t build, const void* build_keys, uint64_t n,
                              int32_t mem, void* stream, wx_join** join);
/* Frees the join; NULL is accepted. */
WX_API int32_t wx_join_destroy(wx_join* join);
WX_API int32_t wx_join_stats_get(wx_join* join, wx_join_stats* stats);
/* The join table's hash of each key (see wx_hash_keys). */
WX_API int32_t wx_join_hash(wx_join* join, const void* keys, uint64_t* hashes, uint64_t n, int32_t mem,
                            void* stream);
/* *matches = number of (probe row, build row) pairs of the probe. */
WX_API int32_t wx_join_count(wx_join* join, const void* probe_keys, const uint64_t* hashes, uint64_t n,
                             uint64_t* matches, int32_t mem, void* stream);
/* Inner join: pair j is (probe_rows[j], build_rows[j]); *count = number of pairs. */
WX_API int32_t wx_join_probe(wx_join* join, const void* probe_keys, const uint64_t* hashes, uint64_t n,
                             uint32_t* probe_rows, uint32_t* build_rows, uint64_t capacity, uint64_t* count,
                             int32_t mem, void* stream);
/* Semi join (anti = 0): the probe rows with at least one match, ascending; anti join (anti = 1): the
 * probe rows with none. rows needs room for n (never more), *count = rows written. */
WX_API int32_t wx_join_semi(wx_join* join, const void* probe_keys, const uint64_t* hashes, uint64_t n,
                            int32_t anti, uint32_t* rows, uint64_t* count, int32_t mem, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* WIXLIB_H */
