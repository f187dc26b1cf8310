// Where sorted placement puts each key (the bulk build and the ordered rehash, DESIGN.md "Bulk build").
//
// Keys sorted by home are placed like linear probing in home order, except that a key whose first
// free slot lies 32 or more past its home takes no slot (it goes to the stash). That greedy places the
// most keys into their windows. Its state between two keys is one small number: d, how far past the
// current home the next free slot is, 0..32. Moving on to a key whose home is g further clamps d to
// max(0, d - g); the key is placed at home + d when d <= 31, after which d = min(32, d + 1).
//
// Every step is a clamp of a shift, x -> min(U, max(L, x + c)), and clamps of shifts compose into
// clamps of shifts, so the states of all keys are one inclusive prefix scan (CUB) over 4-byte steps.
// On states 0..32, a shift c beyond +-64 acts like +-64, so c saturates there and fits in a byte.
// test_window_scan checks the scan against the one-key-at-a-time greedy, in random groupings.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define WX_WS_HD __host__ __device__
#else
#define WX_WS_HD
#endif

namespace wx {
namespace glht {

constexpr int kWindow = 32;  // kH (glht_slot.cuh, CUDA-only), restated for host tests: at most 31 slots past home

// A step packed in one word, so that CUB's scan keeps a tile's status and value in one 8-byte word:
// c (shift, saturated to [-64, 64]) in bits 0..7, lo in 8..15, hi in 16..23 (0 <= lo <= hi <= kWindow).
using WindowStep = uint32_t;

WX_WS_HD inline WindowStep window_pack(int c, int lo, int hi) {
  return static_cast<uint32_t>(static_cast<uint8_t>(static_cast<int8_t>(c))) | static_cast<uint32_t>(lo) << 8 |
         static_cast<uint32_t>(hi) << 16;
}
WX_WS_HD inline int window_c(WindowStep f) { return static_cast<int8_t>(static_cast<uint8_t>(f)); }
WX_WS_HD inline int window_lo(WindowStep f) { return static_cast<int>((f >> 8) & 0xFFu); }
WX_WS_HD inline int window_hi(WindowStep f) { return static_cast<int>((f >> 16) & 0xFFu); }

WX_WS_HD inline int window_sat(long long c) { return c < -64 ? -64 : c > 64 ? 64 : static_cast<int>(c); }

// The step of a key whose home is `gap` past the previous key's (the first key: gap 0 from state 0).
WX_WS_HD inline WindowStep window_step(long long gap) { return window_pack(window_sat(1 - gap), 1, kWindow); }

WX_WS_HD inline int window_apply(WindowStep f, int x) {
  const int y = x + window_c(f);
  return y < window_lo(f) ? window_lo(f) : y > window_hi(f) ? window_hi(f) : y;
}

// a then b (CUB's scan operator: the earlier elements' step is the left operand).
struct WindowCompose {
  WX_WS_HD WindowStep operator()(WindowStep a, WindowStep b) const {
    // b is monotone: the image of [lo(a), hi(a)] is [b(lo(a)), b(hi(a))].
    return window_pack(window_sat(static_cast<long long>(window_c(a)) + window_c(b)), window_apply(b, window_lo(a)),
                       window_apply(b, window_hi(a)));
  }
};

// State after a key (the scan's value applied to the start state 0).
struct WindowState {
  WX_WS_HD int operator()(WindowStep f) const { return window_apply(f, 0); }
};

// Offset past its home of the key that follows a key with state `prev` at distance `gap`:
// 0..31 = its slot, kWindow = it overflows (takes no slot).
WX_WS_HD inline int window_offset(int prev, long long gap) {
  const long long d = prev - gap;
  return d < 0 ? 0 : static_cast<int>(d);
}

}  // namespace glht
}  // namespace wx
