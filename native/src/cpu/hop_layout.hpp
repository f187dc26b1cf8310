// Slot encoding, hash and low-level helpers of the CPU hopscotch table.
//
// A slot is one machine word holding key and value together, so a reader gets a consistent pair
// from one atomic load and an assignment is one atomic store. The table is a template on this codec
// (`Kv32` now); a 64/64 codec would need a 16-byte word or a per-slot seqlock, and can be added
// without touching the bulk drivers.
#pragma once
#include <cstdint>

namespace wx::cpu {

// Key and value of 32 bits packed in a 64-bit word: key in the low half, value in the high half.
struct Kv32 {
  using key_type = uint32_t;
  using value_type = uint32_t;
  using word_type = uint64_t;

  static constexpr key_type kEmptyKey = 0xFFFFFFFFu;  // WX_KEY32_EMPTY marks a free slot
  static constexpr word_type kEmptyWord = ~word_type(0);  // all ones: memset(0xFF) clears a table

  static bool reserved(key_type k) { return k >= 0xFFFFFFFEu; }  // EMPTY and TOMBSTONE
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

// Atomic access to plain arrays through the GCC/Clang builtins (no std::atomic over malloc'd memory).
template <typename T>
inline T load_relaxed(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <typename T>
inline T load_acquire(const T* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
template <typename T>
inline void store_relaxed(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
template <typename T>
inline void store_release(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

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
