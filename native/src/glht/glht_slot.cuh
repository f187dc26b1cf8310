// GLHT slot layout, hashing and the memory operations the protocol is built from.
// See DESIGN.md in this folder for why the layout and each ordering are what they are.
#pragma once
#include <cstdint>

namespace wx {
namespace glht {

// One 16-byte slot: the kv word of this slot and the meta word of this slot *as a home*.
// They are two independent 8-byte words (each has its own atomic protocol), placed side by side so
// that the home's meta and the home's own key share one 32-byte sector.
struct alignas(16) Slot {
  unsigned long long kv;    // key (low 32) | value (high 32); key EMPTY / RESERVED = no user key
  unsigned long long meta;  // hop bitmap (0..31) | LOCK (32) | STASH (33) | version (34..63)
};

constexpr int kH = 32;                       // neighbourhood: home + 31 following slots (H = 31)
constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;  // = WX_KEY32_EMPTY, never a user key
constexpr uint32_t kReservedKey = 0xFFFFFFFEu;  // = WX_KEY32_TOMBSTONE: slot claimed as a move target
constexpr unsigned long long kEmptyKv = 0x00000000FFFFFFFFull;
constexpr unsigned long long kReservedKv = 0x00000000FFFFFFFEull;
constexpr unsigned long long kLock = 1ull << 32;
constexpr unsigned long long kStash = 1ull << 33;  // some key of this home lives in the overflow stash
constexpr unsigned long long kVersionOne = 1ull << 34;
constexpr unsigned long long kBitmapMask = 0xFFFFFFFFull;

__host__ __device__ inline uint32_t kv_key(unsigned long long kv) { return static_cast<uint32_t>(kv); }
__host__ __device__ inline uint32_t kv_value(unsigned long long kv) { return static_cast<uint32_t>(kv >> 32); }
__host__ __device__ inline unsigned long long make_kv(uint32_t k, uint32_t v) {
  return (static_cast<unsigned long long>(v) << 32) | k;
}
__host__ __device__ inline bool is_user_key(uint32_t k) { return k < kReservedKey; }
__host__ __device__ inline uint32_t bitmap_of(unsigned long long m) { return static_cast<uint32_t>(m); }
__host__ __device__ inline bool locked(unsigned long long m) { return (m & kLock) != 0; }
// A meta word after a change of the home's key set: new bitmap, unlocked, version + 1 (STASH kept).
__host__ __device__ inline unsigned long long bumped(unsigned long long m, uint32_t new_bitmap) {
  return ((m & ~(kBitmapMask | kLock)) + kVersionOne) | new_bitmap;
}
__host__ __device__ inline unsigned long long with_stash(unsigned long long m, bool on) {
  return on ? (m | kStash) : (m & ~kStash);
}
__host__ __device__ inline bool stashed(unsigned long long m) { return (m & kStash) != 0; }

// Home of a key: murmur3 fmix64 of the key, reduced to [0, nb) by a 64x64 high multiply. One function
// for both widths: on a 32-bit key the first xor-shift is a no-op.
__host__ __device__ inline unsigned long long mix64(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}
__host__ __device__ inline unsigned long long home_of(unsigned long long k, unsigned long long nb) {
#ifdef __CUDA_ARCH__
  return __umul64hi(mix64(k), nb);
#else
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(mix64(k)) * nb) >> 64);
#endif
}

#ifdef __CUDACC__
// ---- memory operations (device scope). Every access to a slot word is a strong 8-byte operation
// at .gpu scope (performed at L2, the point of coherence), except the 16-byte CAS of the home fast
// paths (sm_90 atom.cas.b128), the paired 16-byte slot read, and the non-coherent loads used only
// by read-only kernels (no writer runs during those). Ordering: see DESIGN.md "Memory ordering":
// loads are relaxed and ordered by their dependencies; atomics are relaxed (their result is awaited
// before anything depends on them); an unlock that follows plain stores is a release store.
// Both words of a slot in one 16-byte access. The two elements are separate reads for the memory
// model (their relative order is unspecified): callers use the kv element only as a CAS expectation
// or for a hit, and re-read it when a miss has to be trusted.
__device__ __forceinline__ void ld_slot(const Slot* p, unsigned long long& kv, unsigned long long& meta) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(kv), "=l"(meta) : "l"(p) : "memory");
}
// Wide tables: the same 16-byte read with acquire semantics (the value words read after it must not
// be older than the meta word it returns; see DESIGN.md "Wide tables").
__device__ __forceinline__ void ld_slot_acquire(const Slot* p, unsigned long long& kv, unsigned long long& meta) {
  asm volatile("ld.acquire.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(kv), "=l"(meta) : "l"(p) : "memory");
}
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_release(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void fence_acq_rel() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
// CAS (relaxed: callers wait for its result before any dependent access); returns the old value.
__device__ __forceinline__ unsigned long long cas64(unsigned long long* p, unsigned long long expect,
                                                    unsigned long long desired) {
  unsigned long long old;
  asm volatile("atom.relaxed.gpu.global.cas.b64 %0, [%1], %2, %3;"
               : "=l"(old)
               : "l"(p), "l"(expect), "l"(desired)
               : "memory");
  return old;
}
// acq_rel CAS: wide tables make every RMW of a meta word acq_rel (DESIGN.md "Wide tables").
__device__ __forceinline__ unsigned long long cas64_acq_rel(unsigned long long* p, unsigned long long expect,
                                                            unsigned long long desired) {
  unsigned long long old;
  asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
               : "=l"(old)
               : "l"(p), "l"(expect), "l"(desired)
               : "memory");
  return old;
}
// 16-byte CAS of a whole slot {kv, meta}: the single atomic step of home-slot insert/erase/assign.
__device__ __forceinline__ bool cas128(Slot* p, unsigned long long kv_expect, unsigned long long meta_expect,
                                       unsigned long long kv_new, unsigned long long meta_new) {
  unsigned long long o0, o1;
  asm volatile(
      "{\n\t.reg .b128 c, v, o;\n\t"
      "mov.b128 c, {%2, %3};\n\t"
      "mov.b128 v, {%4, %5};\n\t"
      "atom.relaxed.gpu.global.cas.b128 o, [%6], c, v;\n\t"
      "mov.b128 {%0, %1}, o;\n\t}"
      : "=l"(o0), "=l"(o1)
      : "l"(kv_expect), "l"(meta_expect), "l"(kv_new), "l"(meta_new), "l"(p)
      : "memory");
  return o0 == kv_expect && o1 == meta_expect;
}
// The same with acq_rel semantics (wide tables).
__device__ __forceinline__ bool cas128_acq_rel(Slot* p, unsigned long long kv_expect, unsigned long long meta_expect,
                                               unsigned long long kv_new, unsigned long long meta_new) {
  unsigned long long o0, o1;
  asm volatile(
      "{\n\t.reg .b128 c, v, o;\n\t"
      "mov.b128 c, {%2, %3};\n\t"
      "mov.b128 v, {%4, %5};\n\t"
      "atom.acq_rel.gpu.global.cas.b128 o, [%6], c, v;\n\t"
      "mov.b128 {%0, %1}, o;\n\t}"
      : "=l"(o0), "=l"(o1)
      : "l"(kv_expect), "l"(meta_expect), "l"(kv_new), "l"(meta_new), "l"(p)
      : "memory");
  return o0 == kv_expect && o1 == meta_expect;
}
// Read-only kernels: one 16-byte non-coherent load of {kv, meta}.
__device__ __forceinline__ void ld_slot_nc(const Slot* p, unsigned long long& kv, unsigned long long& meta) {
  ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2*>(p));
  kv = v.x;
  meta = v.y;
}
__device__ __forceinline__ unsigned long long ld_kv_nc(const Slot* p) {
  return __ldg(reinterpret_cast<const unsigned long long*>(p));
}
#endif

}  // namespace glht
}  // namespace wx
