// Hive data layout shared by host and device code: slot words, buckets, hashing and the
// linear-hashing address rule. See native/src/hive/DESIGN.md for the protocol.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace wx::hive {

// Slots per bucket = lanes per cooperative tile (one slot per lane). 8 slots = 64 bytes = 2 sectors per
// bucket read (32-bit tables; 128 bytes for 16-byte slots): a quarter of the sectors of a 32-slot
// warp bucket per probe.
constexpr int kSlots = 8;
static_assert(kSlots == 4 || kSlots == 8 || kSlots == 16 || kSlots == 32, "slots must be 4, 8, 16 or 32");
constexpr unsigned kSlotMask = (kSlots == 32) ? 0xFFFFFFFFu : ((1u << kSlots) - 1u);

// Two slot layouts, chosen per table at creation (DESIGN.md "64-bit keys"):
//  - Kv32: one 8-byte word (value << 32) | key; EMPTY word = all ones, TOMBSTONE key 0xFFFFFFFE.
//  - Kv64: a 16-byte pair {key, value}; the key word alone says EMPTY / TOMBSTONE / live (the value
//    word of a free slot is meaningless: erases rewrite only the key word).
// The free functions below are overloaded on the word type, so the kernels (templated on the slot
// traits) read the same for both layouts.
constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;
constexpr uint32_t kTombKey = 0xFFFFFFFEu;
constexpr uint64_t kEmptyWord = 0xFFFFFFFFFFFFFFFFull;
constexpr uint64_t kTombWord = 0xFFFFFFFFFFFFFFFEull;
constexpr uint64_t kEmptyKey64 = 0xFFFFFFFFFFFFFFFFull;
constexpr uint64_t kTombKey64 = 0xFFFFFFFFFFFFFFFEull;

__host__ __device__ inline uint32_t key_of(uint64_t w) { return static_cast<uint32_t>(w); }
__host__ __device__ inline uint32_t value_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
__host__ __device__ inline uint64_t pack(uint32_t k, uint32_t v) {
  return (static_cast<uint64_t>(v) << 32) | k;
}
__host__ __device__ inline bool is_live(uint64_t w) { return key_of(w) < kTombKey; }
__host__ __device__ inline bool is_free(uint64_t w) { return key_of(w) >= kTombKey; }
__host__ __device__ inline bool is_empty(uint64_t w) { return w == kEmptyWord; }

struct alignas(16) Pair64 {
  uint64_t k, v;
};
__host__ __device__ inline bool operator==(const Pair64& a, const Pair64& b) { return a.k == b.k && a.v == b.v; }
__host__ __device__ inline bool operator!=(const Pair64& a, const Pair64& b) { return !(a == b); }
__host__ __device__ inline uint64_t key_of(const Pair64& w) { return w.k; }
__host__ __device__ inline uint64_t value_of(const Pair64& w) { return w.v; }
__host__ __device__ inline Pair64 pack(uint64_t k, uint64_t v) { return Pair64{k, v}; }
__host__ __device__ inline bool is_live(const Pair64& w) { return w.k < kTombKey64; }
__host__ __device__ inline bool is_free(const Pair64& w) { return w.k >= kTombKey64; }
__host__ __device__ inline bool is_empty(const Pair64& w) { return w.k == kEmptyKey64; }

// Slot traits: what a table of one layout stores. kWide marks the 16-byte layout.
struct Kv32 {
  using Key = uint32_t;
  using Val = uint32_t;
  using Word = uint64_t;
  static constexpr bool kWide = false;
  static constexpr Key kTomb = kTombKey;  // keys >= kTomb are reserved
  __host__ __device__ static Word empty() { return kEmptyWord; }
  __host__ __device__ static Word tomb() { return kTombWord; }
};
struct Kv64 {
  using Key = uint64_t;
  using Val = uint64_t;
  using Word = Pair64;
  static constexpr bool kWide = true;
  static constexpr Key kTomb = kTombKey64;
  __host__ __device__ static Word empty() { return Pair64{kEmptyKey64, kEmptyKey64}; }
  __host__ __device__ static Word tomb() { return Pair64{kTombKey64, kEmptyKey64}; }
};

template <class W>
struct alignas(kSlots * sizeof(W)) BucketT {
  W w[kSlots];
};
using Bucket = BucketT<uint64_t>;

// One 64-bit mix gives both bucket hashes (low and high half) and the stash hash.
__host__ __device__ inline uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Linear hashing over n0 roots (Litwin's h_i = h mod n0·2^i, with the root taken from the high bits):
// N = n0·2^m + split active buckets, split < n0·2^m. Address of hash x, root r = mulhi(x, n0):
//   a = r + n0·(x & (2^m - 1)); if a < split then a = r + n0·(x & (2^(m+1) - 1)).
// Splitting bucket p moves keys to p + n0·2^m only. n0 is fixed at creation so that a table made for
// n keys has N = n0·2^m exactly (every bucket at the same expected load); with n0 = 1 this is the
// classic rule. The root uses the top bits of x and the level the low ones: independent while
// log2(n0) + m + 1 <= 32 (n0 < 256 keeps that for every N < 2^31).
struct Geometry {
  uint32_t n = 1;     // active buckets
  uint32_t n0 = 1;    // roots
  uint32_t mask = 0;  // 2^m - 1
  uint32_t half = 1;  // n0·2^m: distance from a bucket to its split image
  uint32_t split = 0; // N - n0·2^m
};

__host__ __device__ inline Geometry geometry_of(uint32_t n, uint32_t n0) {
  Geometry g;
  g.n = n;
  g.n0 = n0;
  uint32_t lev = 1;
  while (uint64_t(n0) * lev * 2 <= n) lev <<= 1;  // largest n0·2^m <= n
  g.mask = lev - 1;
  g.half = n0 * lev;
  g.split = n - g.half;
  return g;
}

__host__ __device__ inline uint32_t lh_address(uint32_t x, const Geometry& g) {
  const uint32_t r = static_cast<uint32_t>((uint64_t(x) * g.n0) >> 32);
  uint32_t a = r + g.n0 * (x & g.mask);
  if (a < g.split) a = r + g.n0 * (x & (2u * g.mask + 1u));
  return a;
}

// Roots and buckets for a table made for `nb` buckets: nb rounded up to n0·2^m with n0 in [128, 256)
// (at most 1/128 more buckets); small tables take n0 = nb.
struct Roots {
  uint32_t n0;
  uint64_t buckets;
};
inline Roots roots_for(uint64_t nb) {
  if (nb < 1) nb = 1;
  if (nb < 256) return Roots{static_cast<uint32_t>(nb), nb};
  int m = 0;
  while ((nb >> m) >= 256) ++m;  // nb >> m in [128, 256)
  uint64_t n0 = (nb + (uint64_t(1) << m) - 1) >> m;
  if (n0 == 256) n0 = 128, ++m;
  return Roots{static_cast<uint32_t>(n0), n0 << m};
}

// Where a key may live: two buckets and one stash bucket.
struct Place {
  uint32_t b0, b1, s;
};

// The whole key is mixed (64-bit keys: both halves), so keys that share a low half spread apart.
template <class K>
__host__ __device__ inline Place place_of(K k, const Geometry& g, uint32_t stash_mask) {
  uint64_t h = mix64(static_cast<uint64_t>(k));
  Place p;
  p.b0 = lh_address(static_cast<uint32_t>(h), g);
  p.b1 = lh_address(static_cast<uint32_t>(h >> 32), g);
  uint32_t s = (static_cast<uint32_t>(h) ^ static_cast<uint32_t>(h >> 32)) * 0x9E3779B1u;
  p.s = (s ^ (s >> 15)) & stash_mask;
  return p;
}

// The tier an insert claims a slot in first: b1 when b0 is one of the level's unsplit buckets
// [split, half) — they get twice the keys of the split ones while a level grows — and b1 is not; else
// b0. Fixed per key and geometry, so all inserts of one key race in the same order (no second copy),
// and a table that is not mid-level (split = 0) always starts at b0. The overflow bit of b0 is set
// before a key goes to b1 either way, so lookups do not change. Host model: first-fit at 1.25-1.75
// times a power of two put 3.4-4.8 % of the keys in the stash, this order 1.5-1.7 % (as balanced).
__host__ __device__ inline int first_tier(const Place& p, const Geometry& g) {
  const bool heavy0 = p.b0 >= g.split && p.b0 < g.half, heavy1 = p.b1 >= g.split && p.b1 < g.half;
  return g.split != 0 && heavy0 && !heavy1 ? 1 : 0;
}

// Everything a kernel needs to address the table; passed by value (resizes happen between launches).
// ovf: one bit per bucket B, set when some key whose b0 is B may live elsewhere (its b1 or the
// stash). Set before such a placement, cleared only by a quiescent rebuild. A lookup that misses in
// b0 and finds the bit clear is done: one bucket read instead of two. The bitmap (N/8 bytes) stays
// in L2.
template <class S>
struct ViewT {
  BucketT<typename S::Word>* buckets = nullptr;
  BucketT<typename S::Word>* stash = nullptr;
  uint32_t* ovf = nullptr;
  Geometry geo;
  uint32_t stash_mask = 0;  // stash buckets - 1 (power of two)
  // tidy: no bucket with an EMPTY slot has a key of its own (as b0) stored elsewhere, so a miss in a
  // b0 that shows an EMPTY slot is final without the overflow bit. Keys leave their b0 only when it
  // has no EMPTY slot, and within a table's life EMPTY slots come back only through erases to EMPTY,
  // tombstone sweeps, splits and merges: the host clears the flag before those and sets it at
  // creation and clear(). Never set mid-level (split > 0: first_tier may send a key to b1 while b0
  // has room).
  bool tidy = false;
};
using View = ViewT<Kv32>;

// Per-call counters in device memory, reset before each call and read back after it.
struct Counters {
  unsigned long long inserted;       // keys that became live (buckets or stash)
  unsigned long long erased;         // keys erased
  unsigned long long invalid;        // reserved keys seen
  unsigned long long full;           // elements reported FULL by a kernel
  unsigned long long stash_in;       // entries placed in the stash
  unsigned long long stash_out;      // entries leaving the stash (erase, drain, settle)
  unsigned long long tombs;          // tombstones written
  unsigned long long displacements;  // cuckoo moves
  unsigned long long errors;         // broken invariants / exhausted retry bounds (must stay 0)
  unsigned long long pending;        // phase-1 inserts left for phase 2
};
constexpr int kCounterFields = 10;

}  // namespace wx::hive
