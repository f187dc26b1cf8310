// Which shard a key belongs to. The mixer's constants differ from every hash the tables use inside
// (GLHT and the CPU kind: murmur3 fmix64 and a Fibonacci multiply; Hive: splitmix64), so the keys of
// one shard are still spread uniformly by that shard's own hash.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define WX_SHARD_HD __host__ __device__ __forceinline__
#else
#define WX_SHARD_HD inline
#endif

namespace wx::shard {

// A 64-bit finaliser (xor-shift-multiply, constants of the "moremur" family) over the key widened to
// 64 bits and offset by a constant, so 0 does not map to 0.
WX_SHARD_HD uint64_t route_mix(uint64_t k) {
  k += 0x2545F4914F6CDD1Dull;
  k ^= k >> 27;
  k *= 0x3C79AC492BA7B653ull;
  k ^= k >> 33;
  k *= 0x1C69B3F74AC4AE35ull;
  k ^= k >> 27;
  return k;
}

// Shard of key k among n (1..WX_MAX_SHARDS): the high 32 bits of the mix scaled to [0, n), so any n
// splits evenly.
WX_SHARD_HD uint32_t shard_of(uint64_t k, uint32_t n) {
  return uint32_t(((route_mix(k) >> 32) * uint64_t(n)) >> 32);
}

}  // namespace wx::shard
