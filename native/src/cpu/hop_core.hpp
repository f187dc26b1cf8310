// The concurrent hopscotch array (Herlihy, Shavit & Tzafrir 2008, lock-based variant): slots,
// per-bucket hop bitmaps (H = 32) and segment locks with timestamps. Per-element operations only;
// the bulk drivers, growth and counters live in cpu_table.hpp.
//
// Layout: `buckets` homes (any count: home = high 64 bits of hash * buckets) and buckets + H slots:
// the last H slots are padding so a neighbourhood never wraps. The free-slot search stops at the end
// of that array (no wrap-around either). After it, a small overflow stash of S slots (64..4096): a key
// that no displacement can bring within H of its home goes there instead of forcing the whole table
// to grow (H = 32 has a few such local clusters per 2^24 keys at load 0.8); its home's overflow bit
// (one bit per bucket, set before the key is written, cleared only by clear()) tells lookups, erases
// and inserts of that home to scan the stash too. Stash slots are claimed under the stash mutex and,
// like every slot, written only by the holder of the key's home segment lock.
//
// Locking discipline (why it is safe):
//  - Segment s = buckets [512 s, 512 (s+1)) (kSegShift). Lock s guards the hop bitmaps of its
//    buckets, the keys whose home is in s (their slots may lie in the next segment), and the claim of
//    empty slots whose index lies in s.
//  - find/contains: lock-free; a hit is a consistent (key, value) word read atomically, so the slots
//    of the home's cache line are checked first without bitmap or timestamp (one cache miss for most
//    hits); a miss is accepted only if the home segment's timestamp was even and unchanged around
//    the bitmap search, else it retries (kReadRetries) and then searches under the lock.
//  - erase / assign: lock the home segment only (nobody else can touch a key of that home).
//  - insert: lock the home segment, check the key is absent, walk to the first empty slot locking
//    each further segment it enters (ascending order: no deadlock), then hop the empty slot back
//    towards home. Every key moved has its home strictly between the new key's home and the empty
//    slot, so its segment is locked; the timestamps of the locked segments are odd during the moves.
//  - Publication order: a key is written to its slot before its hop bit is set; on erase the slot is
//    emptied before the bit is cleared. So a key is present exactly while its bit is set and its slot
//    holds it, which is what makes a validated miss linearizable.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>

#include "common/error.hpp"
#include "cpu/hop_layout.hpp"
#include "cpu/host_buffer.hpp"
#include "cpu/thread_pool.hpp"

namespace wx::cpu {

constexpr unsigned kH = 32;                  // neighbourhood size = bits of a hop bitmap
constexpr unsigned kSegShift = 9;            // 512 buckets per segment lock
constexpr uint64_t kMaxProbe = 2048;         // farthest empty slot an insert looks for
constexpr int kReadRetries = 16;             // optimistic find attempts before locking
constexpr uint64_t kMaxBuckets = uint64_t(1) << 40;

// Result of one element, wx_outcome values plus an internal "no room here, grow and retry".
constexpr uint8_t kNeedRoom = 0xFF;

// 8 bytes, packed: the segment array of a 2^25-slot table is 512 KiB and stays in cache, where
// one line per segment would add a cache miss to every operation. Eight neighbouring segments
// share a line, which costs little when segments outnumber threads by far.
struct Segment {
  uint32_t lock;   // 0 free, 1 held
  uint32_t stamp;  // odd while keys of this segment are being moved
};

inline void lock_segment(Segment& s) {
  for (unsigned spins = 0;; ++spins) {
    if (load_relaxed(&s.lock) == 0 && __atomic_exchange_n(&s.lock, 1u, __ATOMIC_ACQUIRE) == 0) return;
    if (spins < 128) cpu_relax();
    else std::this_thread::yield();  // the holder may have been preempted (more threads than cores)
  }
}
inline void unlock_segment(Segment& s) { __atomic_store_n(&s.lock, 0u, __ATOMIC_RELEASE); }

template <typename KV>
class HopCore {
 public:
  using K = typename KV::key_type;
  using V = typename KV::value_type;
  using W = typename KV::word_type;

  // Allocates and clears a table of `buckets` homes; throws OOM, old tables untouched.
  HopCore(uint64_t buckets, ThreadPool& pool) : buckets_(buckets) {
    if (buckets == 0 || buckets > kMaxBuckets) fail(WX_ERR_INVALID_ARGUMENT, "bucket count must be in [1, 2^40]");
    array_n_ = buckets + kH;
    stash_n_ = std::clamp<uint64_t>(buckets >> 16, 64, 4096);
    slots_n_ = array_n_ + stash_n_;
    segs_n_ = ((array_n_ - 1) >> kSegShift) + 1;
    ovf_n_ = (buckets + 63) / 64;
    uint64_t total = slots_n_ * (sizeof(W) + sizeof(uint32_t)) + segs_n_ * sizeof(Segment) + ovf_n_ * 8;
    if (total > physical_memory_bytes())
      fail(WX_ERR_OUT_OF_MEMORY, "a table of " + std::to_string(buckets) + " slots needs " + std::to_string(total) +
                                     " bytes, more than the machine's memory");
    slots_ = HostBuffer<W>(slots_n_);
    hop_ = HostBuffer<uint32_t>(slots_n_);
    segs_ = HostBuffer<Segment>(segs_n_);
    ovf_ = HostBuffer<uint64_t>(ovf_n_);
    clear(pool);
  }

  uint64_t buckets() const { return buckets_; }
  uint64_t slot_count() const { return slots_n_; }  // hopscotch array, then the stash
  uint64_t array_count() const { return array_n_; }
  bool overflowed(uint64_t h) const { return (load_acquire(&ovf_[h >> 6]) >> (h & 63)) & 1; }
  uint64_t bytes() const { return slots_.bytes() + hop_.bytes() + segs_.bytes() + ovf_.bytes(); }
  W slot(uint64_t j) const { return KV::load(&slots_[j]); }
  uint32_t hop(uint64_t b) const { return load_relaxed(&hop_[b]); }

  // Empties every slot; touches memory from all threads (first touch spreads pages, and it is fast).
  void clear(ThreadPool& pool) {
    pool.parallel_for(slots_n_, 1 << 18, [&](uint64_t b, uint64_t e, unsigned) {
      std::memset(slots_.data() + b, 0xFF, (e - b) * sizeof(W));
      std::memset(hop_.data() + b, 0, (e - b) * sizeof(uint32_t));
    });
    std::memset(segs_.data(), 0, segs_n_ * sizeof(Segment));
    std::memset(ovf_.data(), 0, ovf_n_ * sizeof(uint64_t));
  }

  // Multiply-high range reduction: uniform over any bucket count, no power of two needed.
  uint64_t home(K k) const { return home_of_hash(KV::hash(k)); }
  // The same from a hash computed earlier (KV::hash never depends on the table's size).
  uint64_t home_of_hash(uint64_t hash) const { return uint64_t((unsigned __int128)hash * buckets_ >> 64); }
  Segment& segment_of(uint64_t index) const { return segs_[index >> kSegShift]; }

  // Brings the lines an operation on k will touch towards the cache: the home slot's line and the
  // bitmap (a hit usually ends in the home line, a miss needs the bitmap; fetching both costs hits
  // nothing measurable and halves the time of misses), plus the segment lock for writers.
  // always_inline: as an out-of-line call GCC judges this function free of side effects (prefetch
  // does not count) and deletes the call, which silently removes every prefetch.
  __attribute__((always_inline)) void prefetch(K k, bool write) const { prefetch_home(home(k), write); }
  __attribute__((always_inline)) void prefetch_home(uint64_t h, bool write) const {
    if (write) {
      prefetch_write(&segment_of(h));
      prefetch_write(&slots_[h]);
      prefetch_write(&hop_[h]);
    } else {
      prefetch_read(&slots_[h]);
      prefetch_read(&hop_[h]);
    }
  }

  // Lock-free lookup. Returns WX_OUT_FOUND (value stored in *v) or WX_OUT_NOT_FOUND.
  uint8_t find(K k, V* v) const { return find_at(k, home(k), v); }
  // As find, for a key whose home h the caller computed (pre-hashed probes).
  uint8_t find_at(K k, uint64_t h, V* v) const {
    // Fast path: the slots from home to the end of its cache line. A slot holding k means k is
    // present at that instant (keys are unique), so a hit needs neither bitmap nor timestamp.
    const uint64_t line_end = std::min<uint64_t>((h | (kSlotsPerLine - 1)) + 1, h + kH);
    for (uint64_t j = h; j < line_end; ++j) {
      W w = KV::load(&slots_[j]);
      if (KV::key(w) == k) {
        *v = KV::value(w);
        return WX_OUT_FOUND;
      }
    }
    Segment& s = segment_of(h);
    for (int attempt = 0; attempt < kReadRetries; ++attempt) {
      uint32_t t1 = load_acquire(&s.stamp);
      if (t1 & 1) {
        cpu_relax();
        continue;
      }
      if (search(k, h, v)) return WX_OUT_FOUND;
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (load_relaxed(&s.stamp) == t1) return stash_find(k, h, v);
    }
    lock_segment(s);
    bool hit = search(k, h, v);
    unlock_segment(s);
    return hit ? uint8_t(WX_OUT_FOUND) : stash_find(k, h, v);
  }

  // Insert (assign = false: keep an existing value) or insert-or-assign. fresh = the caller knows
  // the key is absent (rehash). Returns INSERTED / PRESENT / ASSIGNED / kNeedRoom.
  uint8_t insert(K k, V v, bool assign, bool fresh, uint64_t* displacements) {
    return insert_at(k, home(k), v, assign, fresh, displacements);
  }
  // As insert, for a key whose home h the caller computed (pre-hashed inserts).
  uint8_t insert_at(K k, uint64_t h, V v, bool assign, bool fresh, uint64_t* displacements) {
    const uint64_t s0 = h >> kSegShift;
    lock_segment(segs_[s0]);
    if (!fresh) {
      uint32_t bm = load_relaxed(&hop_[h]);
      while (bm) {
        uint64_t j = h + __builtin_ctz(bm);
        if (KV::key(KV::load(&slots_[j])) == k) {
          if (assign) KV::store(&slots_[j], KV::pack(k, v));
          unlock_segment(segs_[s0]);
          return assign ? WX_OUT_ASSIGNED : WX_OUT_PRESENT;
        }
        bm &= bm - 1;
      }
      const int64_t si = stash_index(k, h);
      if (si >= 0) {
        if (assign) KV::store(&slots_[array_n_ + si], KV::pack(k, v));
        unlock_segment(segs_[s0]);
        return assign ? WX_OUT_ASSIGNED : WX_OUT_PRESENT;
      }
    }
    // Closest empty slot, locking each segment the walk enters.
    uint64_t hi = s0;
    const uint64_t end = std::min(h + kMaxProbe, array_n_);
    uint64_t j = h;
    for (; j < end; ++j) {
      if ((j >> kSegShift) != hi) lock_segment(segs_[++hi]);
      if (KV::key(KV::load(&slots_[j])) == KV::kEmptyKey) break;
    }
    uint8_t result = WX_OUT_INSERTED;
    if (j == end) {
      result = kNeedRoom;
    } else if (j - h >= kH) {
      if (!hop_towards(h, j, s0, hi, displacements)) result = kNeedRoom;
    }
    if (result == WX_OUT_INSERTED) {
      KV::store(&slots_[j], KV::pack(k, v));
      store_release(&hop_[h], load_relaxed(&hop_[h]) | (1u << (j - h)));  // publishes the key
    } else if (stash_put(h, KV::pack(k, v))) {
      result = WX_OUT_INSERTED;
    }
    for (uint64_t s = hi + 1; s-- > s0;) unlock_segment(segs_[s]);
    return result;
  }

  // Returns WX_OUT_ERASED or WX_OUT_NOT_FOUND.
  uint8_t erase(K k) {
    const uint64_t h = home(k);
    Segment& s = segment_of(h);
    lock_segment(s);
    uint32_t bm = load_relaxed(&hop_[h]);
    uint8_t result = WX_OUT_NOT_FOUND;
    while (bm) {
      unsigned p = __builtin_ctz(bm);
      if (KV::key(KV::load(&slots_[h + p])) == k) {
        KV::store(&slots_[h + p], KV::kEmptyWord);  // absent from here on
        store_release(&hop_[h], load_relaxed(&hop_[h]) & ~(1u << p));
        result = WX_OUT_ERASED;
        break;
      }
      bm &= bm - 1;
    }
    if (result == WX_OUT_NOT_FOUND) {
      const int64_t si = stash_index(k, h);
      if (si >= 0) {
        KV::store(&slots_[array_n_ + si], KV::kEmptyWord);
        result = WX_OUT_ERASED;
      }
    }
    unlock_segment(s);
    return result;
  }

 private:
  // Stash slot of k (a key of home h), or -1; only scanned when h's overflow bit is set. A slot
  // holding k means k is present at that instant; stash keys never move.
  int64_t stash_index(K k, uint64_t h) const {
    if (!overflowed(h)) return -1;
    for (uint64_t i = 0; i < stash_n_; ++i)
      if (KV::key(KV::load(&slots_[array_n_ + i])) == k) return int64_t(i);
    return -1;
  }
  uint8_t stash_find(K k, uint64_t h, V* v) const {
    const int64_t si = stash_index(k, h);
    if (si < 0) return WX_OUT_NOT_FOUND;
    W w = KV::load(&slots_[array_n_ + si]);
    if (KV::key(w) != k) return WX_OUT_NOT_FOUND;  // erased since the scan
    *v = KV::value(w);
    return WX_OUT_FOUND;
  }
  // Holding h's segment lock: claims an empty stash slot for w (a new key of h). False when full.
  bool stash_put(uint64_t h, W w) {
    std::lock_guard<std::mutex> g(stash_mu_);
    for (uint64_t i = 0; i < stash_n_; ++i) {
      if (KV::key(KV::load(&slots_[array_n_ + i])) != KV::kEmptyKey) continue;
      __atomic_fetch_or(&ovf_[h >> 6], uint64_t(1) << (h & 63), __ATOMIC_RELEASE);  // before the key
      KV::store(&slots_[array_n_ + i], w);
      return true;
    }
    return false;
  }

  bool search(K k, uint64_t h, V* v) const {
    uint32_t bm = load_acquire(&hop_[h]);
    KV::read_window();
    while (bm) {
      W w = KV::load(&slots_[h + __builtin_ctz(bm)]);
      if (KV::key(w) == k) {
        *v = KV::value(w);
        return true;
      }
      bm &= bm - 1;
    }
    return false;
  }

  // Hops the empty slot j back until it lies within H of home h; on return j is that slot. False
  // when no key in the H-1 buckets before j can move into it (the table must grow).
  bool hop_towards(uint64_t h, uint64_t& j, uint64_t s0, uint64_t hi, uint64_t* displacements) {
    for (uint64_t s = s0; s <= hi; ++s) store_relaxed(&segs_[s].stamp, load_relaxed(&segs_[s].stamp) + 1);  // odd
    __atomic_thread_fence(__ATOMIC_RELEASE);
    bool ok = true;
    while (j - h >= kH) {
      bool moved = false;
      // Candidate homes from farthest (j - H + 1) to nearest (j - 1); all lie in (h, j).
      for (unsigned d = kH - 1; d >= 1; --d) {
        const uint64_t hp = j - d;
        uint32_t bm = load_relaxed(&hop_[hp]) & ((1u << d) - 1);  // its keys in slots hp .. j-1
        if (!bm) continue;
        const unsigned p = __builtin_ctz(bm);
        const uint64_t jp = hp + p;
        KV::store(&slots_[j], KV::load(&slots_[jp]));  // copy first: never absent
        uint32_t nb = load_relaxed(&hop_[hp]) | (1u << d);
        store_release(&hop_[hp], nb);
        KV::store(&slots_[jp], KV::kEmptyWord);
        store_release(&hop_[hp], nb & ~(1u << p));
        j = jp;
        ++*displacements;
        moved = true;
        break;
      }
      if (!moved) {
        ok = false;
        break;
      }
    }
    for (uint64_t s = s0; s <= hi; ++s) store_release(&segs_[s].stamp, load_relaxed(&segs_[s].stamp) + 1);  // even
    return ok;
  }

  static constexpr uint64_t kSlotsPerLine = 64 / sizeof(W);  // slots_ is 64-byte aligned

  uint64_t buckets_, array_n_ = 0, stash_n_ = 0, slots_n_ = 0, segs_n_ = 0, ovf_n_ = 0;
  HostBuffer<W> slots_;
  HostBuffer<uint32_t> hop_;
  HostBuffer<Segment> segs_;
  HostBuffer<uint64_t> ovf_;  // one overflow bit per bucket
  std::mutex stash_mu_;       // claims of stash slots
};

}  // namespace wx::cpu
