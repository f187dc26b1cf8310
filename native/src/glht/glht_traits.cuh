// Key/value widths of a GLHT table: Narrow (32/32, the original layout) and Wide (64/64). Kernels and
// the table are templates over one of these; `if constexpr (Tr::kWide)` marks the few protocol steps
// that differ (DESIGN.md "Wide tables"), so the 32-bit paths compile to what they were.
#pragma once
#include <cstdint>

#include "glht/glht_slot.cuh"

namespace wx {
namespace glht {

// Wide slot (32 bytes, one sector): the first 16 bytes have Slot's layout {key word, meta word}, so the
// home fast paths keep their single 16-byte CAS; the value word sits in the same sector.
struct alignas(32) WideSlot {
  unsigned long long kv;    // the full 64-bit key; EMPTY = ~0, RESERVED = ~0 - 1 (the reserved user keys)
  unsigned long long meta;  // as Slot::meta
  unsigned long long val;   // value; written only by the owner of an EMPTY/RESERVED slot or under LOCK
  unsigned long long pad;   // keeps slots sector-aligned
};
static_assert(sizeof(WideSlot) == 32, "one 32-byte sector per wide slot");

struct Narrow {
  static constexpr bool kWide = false;
  using Key = uint32_t;
  using Val = uint32_t;
  using SlotT = Slot;
  static constexpr unsigned long long kEmpty = kEmptyKv;
  static constexpr unsigned long long kReserved = kReservedKv;
  __host__ __device__ static Key key(unsigned long long kv) { return kv_key(kv); }
  __host__ __device__ static bool is_user(Key k) { return is_user_key(k); }
  __host__ __device__ static unsigned long long home(Key k, unsigned long long nb) { return home_of(k, nb); }
};

struct Wide {
  static constexpr bool kWide = true;
  using Key = unsigned long long;
  using Val = unsigned long long;
  using SlotT = WideSlot;
  static constexpr unsigned long long kEmpty = ~0ull;
  static constexpr unsigned long long kReserved = ~0ull - 1;
  __host__ __device__ static Key key(unsigned long long kv) { return kv; }
  __host__ __device__ static bool is_user(Key k) { return k < kReserved; }
  __host__ __device__ static unsigned long long home(Key k, unsigned long long nb) { return home_of(k, nb); }
};

// The {kv, meta} head of either slot type, for the 16-byte accesses of glht_slot.cuh.
__host__ __device__ inline Slot* head(Slot* p) { return p; }
__host__ __device__ inline const Slot* head(const Slot* p) { return p; }
__host__ __device__ inline Slot* head(WideSlot* p) { return reinterpret_cast<Slot*>(p); }
__host__ __device__ inline const Slot* head(const WideSlot* p) { return reinterpret_cast<const Slot*>(p); }

}  // namespace glht
}  // namespace wx
