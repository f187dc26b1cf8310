// Slot encoding, hash and low-level helpers of the CPU hopscotch table.
//
// A slot is one word holding key and value together, so a reader gets a consistent pair from one
// atomic load and an assignment is one atomic store. The table is a template on this codec: `Kv32`
// (8-byte word) and `Kv64` (16-byte word, see atomic16 below).
#pragma once
#include <cstdint>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace wx::cpu {

// Atomic access to plain arrays through the GCC/Clang builtins (no std::atomic over malloc'd memory).
template <typename T>
inline T load_relaxed(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <typename T>
inline T load_acquire(const T* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
template <typename T>
inline void store_relaxed(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
template <typename T>
inline void store_release(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

// Key and value of 32 bits packed in a 64-bit word: key in the low half, value in the high half.
struct Kv32 {
  using key_type = uint32_t;
  using value_type = uint32_t;
  using word_type = uint64_t;

  static constexpr key_type kEmptyKey = 0xFFFFFFFFu;  // WX_KEY32_EMPTY marks a free slot
  static constexpr word_type kEmptyWord = ~word_type(0);  // all ones: memset(0xFF) clears a table

  static bool reserved(key_type k) { return k >= 0xFFFFFFFEu; }  // EMPTY and TOMBSTONE
  static word_type load(const word_type* p) { return load_relaxed(p); }
  static void store(word_type* p, word_type w) { store_relaxed(p, w); }
  static word_type pack(key_type k, value_type v) { return (word_type(v) << 32) | k; }
  static key_type key(word_type w) { return key_type(w); }
  static value_type value(word_type w) { return value_type(w >> 32); }

  // Test hook, empty here: runs in a validated lookup between reading the hop bitmap and reading
  // the slots it names. A test codec stretches it so lookups overlap hopscotch moves.
  static void read_window() {}

  // 32 -> 64-bit mixer (multiply / xor-shift, both bijective, so distinct keys never share a hash);
  // the home bucket is its multiply-high reduction (high bits), see HopCore::home.
  static uint64_t hash(key_type k) {
    uint64_t x = uint64_t(k) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 32;
    return x;
  }
};

// Single-copy-atomic 16-byte load and store, for the 64/64 slot.
//
// Why this is sound: the slot must be read as one unit, or a reader could pair a key with a value
// written for another key (hopscotch moves and erase + insert reuse slots). Every writer of a slot
// holds the segment lock that guards it, so writes never race each other; only readers race
// writers, and a reader needs one load that sees either the whole old or the whole new 16 bytes.
//  - x86-64 with AVX: Intel (SDM vol. 3A §9.1.1) and AMD (APM vol. 2 §7.3.2) guarantee that aligned
//    16-byte MOVDQA loads and stores are single-copy atomic on every processor that enumerates AVX.
//    That is one plain load, inlined (Debian's GCC 12 libatomic uses the same instruction, but
//    behind an IFUNC call per slot and a -latomic dependency; a LOCK CMPXCHG16B load would write
//    the line and serialise concurrent readers).
//  - x86-64 without AVX: LOCK CMPXCHG16B for loads and stores (correct, slower).
//  - elsewhere: the __atomic builtins (libatomic decides).
// A seqlock validated by the segment stamps would also be sound, but every hit would then read the
// stamp twice and every assign would bump it; here a hit still costs one load.
// Slots are 16-byte aligned (the slot array is 64-byte aligned; a misaligned MOVDQA faults, never
// tears). The "memory" clobbers keep the compiler from moving other accesses across these, like the
// relaxed __atomic accesses of Kv32 (ordering against the hop bitmaps comes from their
// acquire/release accesses and x86's TSO).
using u128 = unsigned __int128;
#if defined(__x86_64__)
inline const bool kAvxAtomic16 = [] {
  __builtin_cpu_init();  // may run before libgcc's own constructor
  return __builtin_cpu_supports("avx") != 0;
}();

__attribute__((target("cx16"), noinline)) inline u128 load16_cas(const u128* p) {
  return __sync_val_compare_and_swap(const_cast<u128*>(p), u128(0), u128(0));  // writes only 0 over 0
}
__attribute__((target("cx16"), noinline)) inline void store16_cas(u128* p, u128 w) {
  u128 cur = load16_cas(p);
  for (;;) {
    u128 seen = __sync_val_compare_and_swap(p, cur, w);
    if (seen == cur) return;
    cur = seen;
  }
}
inline u128 load16(const u128* p) {
  if (__builtin_expect(!kAvxAtomic16, 0)) return load16_cas(p);
  __m128i x;
  asm volatile("movdqa %1, %0" : "=x"(x) : "m"(*p) : "memory");
  const uint64_t lo = uint64_t(_mm_cvtsi128_si64(x));
  const uint64_t hi = uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)));
  return (u128(hi) << 64) | lo;
}
inline void store16(u128* p, u128 w) {
  if (__builtin_expect(!kAvxAtomic16, 0)) return store16_cas(p, w);
  const __m128i x = _mm_set_epi64x(int64_t(uint64_t(w >> 64)), int64_t(uint64_t(w)));
  asm volatile("movdqa %1, %0" : "=m"(*p) : "x"(x) : "memory");
}
#else
inline u128 load16(const u128* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
inline void store16(u128* p, u128 w) { __atomic_store_n(p, w, __ATOMIC_RELAXED); }
#endif

// Key and value of 64 bits in a 16-byte word: key in the low half, value in the high half.
struct Kv64 {
  using key_type = uint64_t;
  using value_type = uint64_t;
  using word_type = u128;

  static constexpr key_type kEmptyKey = ~key_type(0);     // WX_KEY64_EMPTY marks a free slot
  static constexpr word_type kEmptyWord = ~word_type(0);  // all ones: memset(0xFF) clears a table

  static bool reserved(key_type k) { return k >= 0xFFFFFFFFFFFFFFFEull; }  // EMPTY and TOMBSTONE
  static word_type load(const word_type* p) { return load16(p); }
  static void store(word_type* p, word_type w) { store16(p, w); }
  static word_type pack(key_type k, value_type v) { return (word_type(v) << 64) | k; }
  static key_type key(word_type w) { return key_type(w); }
  static value_type value(word_type w) { return value_type(w >> 64); }

  static void read_window() {}

  // 64 -> 64-bit mixer (murmur3's finaliser: xor-shifts and odd multiplies, bijective).
  static uint64_t hash(key_type k) {
    uint64_t x = k;
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
  }
};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

__attribute__((always_inline)) inline void prefetch_read(const void* p) { __builtin_prefetch(p, 0, 3); }
__attribute__((always_inline)) inline void prefetch_write(const void* p) { __builtin_prefetch(p, 1, 3); }

}  // namespace wx::cpu
