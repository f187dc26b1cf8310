// Launchers of the Hive kernels (host side). Kernels live in hive_ops.cu (lock-free batch phase),
// hive_evict.cu (locked cuckoo eviction between launches) and hive_resize.cu (split/merge/maintenance).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "hive/hive_layout.cuh"

namespace wx::hive {

enum class Mode : int { Find = 0, Contains = 1, Insert = 2, Assign = 3, Erase = 4, Mixed = 5 };

// Element arrays of one bulk call (device pointers). index != null: process keys[index[j]], j < n.
// S = slot traits (Kv32 / Kv64, hive_layout.cuh): key and value widths.
template <class S>
struct ElemArgsT {
  const typename S::Key* keys = nullptr;
  const typename S::Val* vin = nullptr;  // may be null for Insert (values = 0)
  typename S::Val* vout = nullptr;       // Find / Mixed
  const uint8_t* ops = nullptr;          // Mixed
  uint8_t* outcomes = nullptr;           // may be null
  const uint32_t* index = nullptr;
  uint64_t n = 0;
  typename S::Val not_found = 0;
};
using ElemArgs = ElemArgsT<Kv32>;

// Every launcher taking a View / ElemArgs is a template over S, instantiated for Kv32 and Kv64 in
// its .cu file.

// Phase 1: every element of the batch concurrently, lock-free. Inserts that find no EMPTY slot in
// b0, b1 or the stash set their bit in pending_bits (indexed by element index) and leave the outcome.
// Writers (insert, assign, mixed) need 2·⌈n/32⌉ zeroed words there: the pending bits, then the bits
// of the elements the one-thread path hands to the tile kernel (Kv32 assigns of present keys).
template <class S>
void launch_p1(Mode mode, const ViewT<S>& v, const ElemArgsT<S>& a, uint32_t* pending_bits, bool stash_possible,
               bool erase_to_empty, Counters* c, cudaStream_t s);
// Phase 1 of a pure Kv32 insert batch (hive_insert.cu), as launch_p1 with Mode::Insert.
void launch_p1_insert(const ViewT<Kv32>& v, const ElemArgsT<Kv32>& a, uint32_t* pending_bits, Counters* c,
                      cudaStream_t s);
// Turns a bit set over [0, nbits) into a list of indices (unordered); *len counts all set bits,
// only the first cap are written.
void launch_compact(const uint32_t* bits, uint64_t nbits, uint32_t* list, uint32_t cap, unsigned* len,
                    cudaStream_t s);

// Phase 2 (no other operation running): bounded cuckoo eviction under bucket locks.
// Jobs are element indices of `a` (from_stash = false) or stash slot indices (stash drain).
// Lock conflicts go to `retry`, elements with no room anywhere to `full` (drain: stay in the stash).
// serial = one tile runs all jobs (no conflicts possible: used for the last stragglers).
template <class S>
void launch_evict(const ViewT<S>& v, uint32_t* locks, Mode mode, const ElemArgsT<S>& a, const uint32_t* jobs,
                  uint32_t njobs, bool from_stash, uint32_t* retry, unsigned* retry_len, uint32_t* full,
                  unsigned* full_len, uint32_t seed, bool serial, Counters* c, cudaStream_t s);
void launch_mark_full(uint8_t* outcomes, const uint32_t* list, uint32_t n, cudaStream_t s);
// slots[kSlots * i + q] = slot q of the stash bucket of the key of element jobs[i], i < n.
template <class S>
void launch_stash_slots(const ViewT<S>& v, const ElemArgsT<S>& a, const uint32_t* jobs, uint32_t n, uint32_t* slots,
                        cudaStream_t s);
// First pass of a stash drain (hive_drain.cu): lock-free, one thread per stash slot, one victim move;
// the slots of the entries it leaves go to `left` (*left_len of them; room for every stash slot).
template <class S>
void launch_drain_swap(const ViewT<S>& v, uint32_t* left, unsigned* left_len, Counters* c, cudaStream_t s);

// Mixed batches (hive_dedupe.cu): index = the elements 0..n-1 ordered by op code (stable), for
// ElemArgs::index. scratch: n words + n bytes; temp: group_by_op_temp_bytes(n) bytes.
size_t group_by_op_temp_bytes(uint32_t n);
void launch_group_by_op(const uint8_t* ops, uint32_t n, uint32_t* index, uint32_t* scratch, void* temp,
                        size_t temp_bytes, cudaStream_t s);
// Hot keys (hive_dedupe.cu): sorts the n pending jobs by key and rewrites `jobs` to the first job of
// each key plus every insert_or_assign (count in lens[0]); the other plain inserts go to `followers`
// (count in lens[1]). scratch: dedupe_scratch_words<S>(n) words (keys twice + job ids, keys first:
// 8-byte aligned); temp: dedupe_temp_bytes<S>(n) bytes.
template <class S>
constexpr uint64_t dedupe_scratch_words(uint64_t n) {
  return n * (2 * sizeof(typename S::Key) / 4 + 1);
}
template <class S>
size_t dedupe_temp_bytes(uint32_t n);
template <class S>
void launch_dedupe(const ElemArgsT<S>& a, Mode mode, uint32_t* jobs, uint32_t n, uint32_t* scratch, void* temp,
                   size_t temp_bytes, uint32_t* followers, unsigned* lens, cudaStream_t s);
// After phase 2: a follower's key present -> PRESENT, absent -> FULL (counted), no writer running.
template <class S>
void launch_follow(const ViewT<S>& v, const ElemArgsT<S>& a, const uint32_t* followers, uint32_t n, Counters* c,
                   cudaStream_t s);

// Linear hashing. Split buckets p in [p_begin, p_begin+count) into p + half (v = geometry after).
template <class S>
void launch_split(const ViewT<S>& v_after, uint32_t p_begin, uint32_t count, uint32_t half, Counters* c,
                  cudaStream_t s);
// Merge check: *unfit = max over pairs that do not fit into one bucket of (p + 1), else unchanged.
template <class S>
void launch_fit(const ViewT<S>& v, uint32_t p_begin, uint32_t count, uint32_t half, unsigned* unfit,
                cudaStream_t s);
// Merge buckets p + half into p for p in [p_begin, p_begin+count) (all known to fit).
template <class S>
void launch_merge(const ViewT<S>& v_after, uint32_t p_begin, uint32_t count, uint32_t half, cudaStream_t s);

// Tombstones -> EMPTY in the active buckets and the stash.
template <class S>
void launch_sweep(const ViewT<S>& v, cudaStream_t s);
// Moves stash entries into b0/b1 where a free slot exists (restores the stash invariant).
template <class S>
void launch_settle(const ViewT<S>& v, Counters* c, cudaStream_t s);
// Recomputes the overflow bits exactly (they only accumulate between rebuilds).
template <class S>
void launch_ovf_rebuild(const ViewT<S>& v, uint64_t ovf_words, cudaStream_t s);
// Live words of words[0, nwords) -> keys/values, appended at *count.
template <class S>
void launch_collect(const typename S::Word* words, uint64_t nwords, typename S::Key* keys, typename S::Val* values,
                    unsigned long long* count, cudaStream_t s);

}  // namespace wx::hive
