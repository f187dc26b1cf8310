#include "cpu/cpu_table.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>
#include <unordered_set>

#include "common/error.hpp"

namespace wx::cpu {

namespace {

constexpr uint64_t kMinBuckets = 64;
constexpr uint64_t kInlineElements = 2048;  // below this a call runs on the calling thread only
constexpr unsigned kPrefetchDistance = 16;
// Highest load a table is sized for when asked to hold n keys: random keys find a slot within
// H = 32 of home (or the stash) up to about 0.86 (5 * 10^7 keys: none left over at 0.86, 300 at
// 0.87), so a capacity asked for at a higher max load factor would grow before it is reached.
constexpr double kPlaceableLoad = 0.85;

unsigned participants_for(int32_t threads) {
  unsigned n = threads > 0 ? unsigned(threads) : std::thread::hardware_concurrency();
  return std::clamp(n, 1u, 1024u);
}

bool op_inserts(uint8_t op) { return op == WX_OP_INSERT || op == WX_OP_INSERT_OR_ASSIGN; }

}  // namespace

template <typename KV>
CpuTable<KV>::CpuTable(const wx_config& config)
    : max_lf_(config.max_load_factor), grow_auto_(config.grow != WX_GROW_NEVER) {
  pool_ = std::make_unique<ThreadPool>(participants_for(config.threads));
  workers_.resize(pool_->size());
  core_ = std::make_unique<HopCore<KV>>(buckets_for(config.capacity), *pool_);
}

// Room for `keys` keys without growing: keys / max_lf homes (any count: home() reduces by
// multiply-high, so a table sized for 2^24 keys at 0.8 really runs at 0.8), at most at the load
// where every key still finds a slot (kPlaceableLoad).
template <typename KV>
uint64_t CpuTable<KV>::buckets_for(uint64_t keys) const {
  const double lf = std::min(max_lf_, kPlaceableLoad);
  double want = std::ceil(double(keys) / lf);
  if (!(want <= double(kMaxBuckets)))
    fail(WX_ERR_INVALID_ARGUMENT, "room for " + std::to_string(keys) + " keys at load factor " + std::to_string(lf) +
                                      " needs more than 2^40 slots");
  return std::max<uint64_t>(kMinBuckets, uint64_t(want));
}

template <typename KV>
uint64_t CpuTable<KV>::load_limit() const {
  return uint64_t(max_lf_ * double(core_->buckets()));
}

template <typename KV>
uint8_t CpuTable<KV>::apply(uint8_t op, K k, const Batch& b, uint64_t i, Worker& w) {
  switch (op) {
    case WX_OP_INSERT:
    case WX_OP_INSERT_OR_ASSIGN: {
      V v = b.values_in ? static_cast<const V*>(b.values_in)[i] : V(0);
      uint8_t r = core_->insert_at(k, home_of(k, i), v, op == WX_OP_INSERT_OR_ASSIGN, false, &w.displacements);
      if (r == WX_OUT_INSERTED) ++w.size_delta;
      return r;
    }
    case WX_OP_ERASE: {
      uint8_t r = core_->erase(k);
      if (r == WX_OUT_ERASED) --w.size_delta;
      return r;
    }
    default: {  // WX_OP_FIND
      V v;
      uint8_t r = core_->find_at(k, home_of(k, i), &v);
      if (r == WX_OUT_FOUND) static_cast<V*>(b.values_out)[i] = v;
      return r;
    }
  }
}

template <typename KV>
void CpuTable<KV>::run_elements(const Batch& b, Op op, uint64_t begin, uint64_t end, const uint64_t* idx,
                                bool can_retry, Worker& w) {
  const K* keys = static_cast<const K*>(b.keys);
  uint8_t* out = b.outcomes;
  const bool writes = op != Op::find && op != Op::contains;
  const uint8_t fixed_op = op == Op::insert ? WX_OP_INSERT
                           : op == Op::assign ? WX_OP_INSERT_OR_ASSIGN
                           : op == Op::erase  ? WX_OP_ERASE
                                              : WX_OP_FIND;
  for (uint64_t e = begin; e < end; ++e) {
    if (e + kPrefetchDistance < end) {
      const uint64_t ip = idx ? idx[e + kPrefetchDistance] : e + kPrefetchDistance;
      const K kp = keys[ip];
      if (!KV::reserved(kp)) core_->prefetch_home(home_of(kp, ip), writes);
    }
    const uint64_t i = idx ? idx[e] : e;
    const K k = keys[i];
    const uint8_t opi = op == Op::mixed ? b.ops[i] : fixed_op;
    if (KV::reserved(k)) {
      ++w.invalid;
      if (op == Op::find) static_cast<V*>(b.values_out)[i] = V(b.not_found);
      if (out) out[i] = op == Op::contains ? 0 : uint8_t(WX_OUT_INVALID_KEY);
      continue;
    }
    if (op == Op::contains) {
      V v;
      uint8_t r = core_->find_at(k, home_of(k, i), &v);
      if (out) out[i] = r == WX_OUT_FOUND;
      continue;
    }
    if (op == Op::find) {
      V v;
      uint8_t r = core_->find_at(k, home_of(k, i), &v);
      static_cast<V*>(b.values_out)[i] = r == WX_OUT_FOUND ? v : V(b.not_found);
      if (out) out[i] = r;
      continue;
    }
    uint8_t r = apply(opi, k, b, i, w);
    if (r == kNeedRoom) {
      if (can_retry) {
        w.retry.push_back(i);
        continue;
      }
      r = WX_OUT_FULL;
      ++w.full;
    }
    if (out) out[i] = r;
  }
}

// One parallel phase over a range or an index list; folds the workers' counters into the table.
template <typename KV>
void CpuTable<KV>::run_phase(const Batch& b, Op op, uint64_t begin, uint64_t end, const uint64_t* idx,
                             bool can_retry, BatchResult& result, std::vector<uint64_t>* retry) {
  for (auto& w : workers_) {
    w.size_delta = 0;
    w.displacements = w.full = w.invalid = 0;
    w.retry.clear();
  }
  const uint64_t n = end - begin;
  const uint64_t grain = std::clamp<uint64_t>(n / (uint64_t(pool_->size()) * 16), 1024, 16384);
  std::exception_ptr error;
  try {
    if (n <= kInlineElements) {
      run_elements(b, op, begin, end, idx, can_retry, workers_[0]);
    } else {
      pool_->parallel_for(n, grain, [&](uint64_t lo, uint64_t hi, unsigned p) {
        run_elements(b, op, begin + lo, begin + hi, idx, can_retry, workers_[p]);
      });
    }
  } catch (...) {
    error = std::current_exception();  // (a retry list could not grow) count what was applied first
  }
  for (auto& w : workers_) {
    size_ = uint64_t(int64_t(size_) + w.size_delta);
    displacements_ += w.displacements;
    failed_ += w.full;
    result.full += w.full;
    result.invalid += w.invalid;
    if (retry) retry->insert(retry->end(), w.retry.begin(), w.retry.end());
  }
  if (error) std::rethrow_exception(error);
}

template <typename KV>
BatchResult CpuTable<KV>::run(const Batch& b, Op op) {
  BatchResult result;
  if (b.n == 0) return result;
  bool inserts = op == Op::insert || op == Op::assign;
  if (op == Op::mixed) {  // validate the op codes before anything runs; note whether any inserts
    for (uint64_t i = 0; i < b.n; ++i) {
      if (b.ops[i] > WX_OP_INSERT_OR_ASSIGN)
        fail(WX_ERR_INVALID_ARGUMENT, "ops[" + std::to_string(i) + "] = " + std::to_string(b.ops[i]) + " is not a wx_op");
      inserts |= op_inserts(b.ops[i]);
    }
  }
  if (!inserts) {  // lookups and erases never need room: one parallel phase
    run_phase(b, op, 0, b.n, nullptr, false, result, nullptr);
    return result;
  }
  // Inserting calls: chunks bounded by the room below max_load_factor, growth between chunks.
  bool can_grow = grow_auto_;
  std::string oom;
  // Growth for load doubles; growth because a neighbourhood overflowed below the load limit (a
  // local cluster: H = 32 has a few such at LF 0.8 in 2^24 keys) adds an eighth, so one unlucky
  // neighbourhood does not halve the load factor. Repeated overflows keep adding (geometric).
  auto try_grow = [&]() {
    const uint64_t nb = core_->buckets();
    try {
      rehash(size_ >= load_limit() ? nb * 2 : nb + std::max<uint64_t>(nb / 8, 64));
    } catch (const Error& e) {
      if (e.status() != WX_ERR_OUT_OF_MEMORY && e.status() != WX_ERR_INVALID_ARGUMENT) throw;
      can_grow = false;  // finish the call without growing; report after
      oom = e.what();
    }
  };
  std::vector<uint64_t> retry, again;
  for (uint64_t pos = 0; pos < b.n;) {
    if (can_grow && size_ >= load_limit()) try_grow();
    const uint64_t limit = load_limit();
    const uint64_t room = limit > size_ ? limit - size_ : 0;
    const uint64_t chunk = !can_grow ? b.n - pos
                                     : std::min(b.n - pos, std::max<uint64_t>(room, std::max<uint64_t>(core_->buckets() / 64, 1024)));
    retry.clear();
    run_phase(b, op, pos, pos + chunk, nullptr, can_grow, result, &retry);
    // Elements that found no room: grow and run them again (each round grows the table, and once
    // growth is impossible they are reported FULL, so this ends).
    while (!retry.empty()) {
      if (can_grow) try_grow();
      again.clear();
      run_phase(b, op, 0, retry.size(), retry.data(), can_grow, result, &again);
      retry.swap(again);
    }
    pos += chunk;
  }
  if (!oom.empty()) fail(WX_ERR_OUT_OF_MEMORY, "could not grow the table (" + oom + "); unplaced inserts are marked FULL");
  if (can_grow && size_ > load_limit()) {
    try {
      rehash(core_->buckets() * 2);
    } catch (const Error&) {
      // Everything was placed; the next inserting call grows (or reports) instead.
    }
  }
  return result;
}

template <typename KV>
void CpuTable<KV>::hash_keys(const void* keys, uint64_t* hashes, uint64_t n, void*) {
  const K* k = static_cast<const K*>(keys);
  auto body = [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t i = lo; i < hi; ++i) hashes[i] = KV::hash(k[i]);
  };
  if (n <= kInlineElements) body(0, n, 0);
  else pool_->parallel_for(n, 1 << 16, body);
}

// Runs a call with the homes taken from hashes (hashes_ is read by home_of for the call's length;
// calls on one table are serialised by the C API).
template <typename KV>
BatchResult CpuTable<KV>::run_hashed(const Batch& b, Op op, const uint64_t* hashes) {
  if (b.n > 0 && !hashes) fail(WX_ERR_INVALID_ARGUMENT, "hashes is NULL");
  struct Reset {
    const uint64_t*& p;
    ~Reset() { p = nullptr; }
  } reset{hashes_};
  hashes_ = hashes;
  return run(b, op);
}

template <typename KV>
BatchResult CpuTable<KV>::find_hashed(const Batch& b, const uint64_t* hashes) { return run_hashed(b, Op::find, hashes); }

template <typename KV>
BatchResult CpuTable<KV>::insert_hashed(const Batch& b, const uint64_t* hashes) { return run_hashed(b, Op::insert, hashes); }

// Builds a table of `buckets` homes (doubling while an element cannot be placed) and swaps it in.
template <typename KV>
void CpuTable<KV>::rehash(uint64_t buckets) {
  for (;;) {
    if (buckets > kMaxBuckets) fail(WX_ERR_OUT_OF_MEMORY, "the table cannot grow beyond 2^40 slots");
    auto next = std::make_unique<HopCore<KV>>(buckets, *pool_);
    const HopCore<KV>& old = *core_;
    std::atomic<bool> stuck{false};
    std::atomic<uint64_t> moves{0};
    pool_->parallel_for(old.slot_count(), 1 << 14, [&](uint64_t lo, uint64_t hi, unsigned) {
      uint64_t disp = 0;
      for (uint64_t j = lo; j < hi && !stuck.load(std::memory_order_relaxed); ++j) {
        if (j + kPrefetchDistance < hi) {
          W wp = old.slot(j + kPrefetchDistance);
          if (KV::key(wp) != KV::kEmptyKey) next->prefetch(KV::key(wp), true);
        }
        W w = old.slot(j);
        if (KV::key(w) == KV::kEmptyKey) continue;
        if (next->insert(KV::key(w), KV::value(w), false, true, &disp) == kNeedRoom) stuck = true;
      }
      moves += disp;
    });
    if (!stuck) {
      core_ = std::move(next);
      displacements_ += moves;
      ++resizes_;
      return;
    }
    buckets *= 2;
  }
}

template <typename KV>
void CpuTable<KV>::stats(wx_stats* s) {
  s->size = size_;
  s->capacity = core_->slot_count();
  s->bytes = core_->bytes() + sizeof(*this) + workers_.size() * sizeof(Worker);
  s->resizes = resizes_;
  s->displacements = displacements_;
  s->failed_inserts = failed_;
}

template <typename KV>
void CpuTable<KV>::clear() {
  core_->clear(*pool_);
  size_ = 0;
}

template <typename KV>
void CpuTable<KV>::resize(uint64_t capacity) {
  if (capacity < size_)
    fail(WX_ERR_INVALID_ARGUMENT, "cannot resize to room for " + std::to_string(capacity) + " keys: the table holds " +
                                      std::to_string(size_));
  uint64_t buckets = buckets_for(capacity);
  if (buckets != core_->buckets()) rehash(buckets);
}

template <typename KV>
uint64_t CpuTable<KV>::retrieve_all(void* keys, void* values, void*) {
  K* ko = static_cast<K*>(keys);
  V* vo = static_cast<V*>(values);
  const HopCore<KV>& c = *core_;
  const uint64_t block = 1 << 16, blocks = (c.slot_count() + block - 1) / block;
  std::vector<uint64_t> start(blocks + 1, 0);
  // Pass 1 counts each block's keys, pass 2 writes them at the block's prefix offset.
  pool_->parallel_for(blocks, 1, [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t bl = lo; bl < hi; ++bl) {
      uint64_t cnt = 0;
      for (uint64_t j = bl * block, e = std::min(c.slot_count(), j + block); j < e; ++j)
        cnt += KV::key(c.slot(j)) != KV::kEmptyKey;
      start[bl + 1] = cnt;
    }
  });
  for (uint64_t bl = 0; bl < blocks; ++bl) start[bl + 1] += start[bl];
  if (start[blocks] != size_)
    fail(WX_ERR_INTERNAL, "CPU table holds " + std::to_string(start[blocks]) + " keys but counted " + std::to_string(size_));
  pool_->parallel_for(blocks, 1, [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t bl = lo; bl < hi; ++bl) {
      uint64_t o = start[bl];
      for (uint64_t j = bl * block, e = std::min(c.slot_count(), j + block); j < e; ++j) {
        W w = c.slot(j);
        if (KV::key(w) == KV::kEmptyKey) continue;
        ko[o] = KV::key(w);
        vo[o] = KV::value(w);
        ++o;
      }
    }
  });
  return start[blocks];
}

template <typename KV>
std::string CpuTable<KV>::check_invariants() const {
  const HopCore<KV>& c = *core_;
  uint64_t live = 0;
  std::unordered_set<K> seen;
  for (uint64_t j = 0; j < c.slot_count(); ++j) {
    W w = c.slot(j);
    if (KV::key(w) == KV::kEmptyKey) continue;
    ++live;
    K k = KV::key(w);
    if (KV::reserved(k)) return "slot " + std::to_string(j) + " holds a reserved key";
    uint64_t h = c.home(k);
    if (!seen.insert(k).second) return "key " + std::to_string(k) + " is stored twice";
    if (j >= c.array_count()) {  // the stash: its home's overflow bit must be set
      if (!c.overflowed(h)) return "key " + std::to_string(k) + " in the stash but home " + std::to_string(h) + " has no overflow bit";
      continue;
    }
    if (j < h || j - h >= kH) return "key " + std::to_string(k) + " at slot " + std::to_string(j) + " is outside the neighbourhood of home " + std::to_string(h);
    if (!(c.hop(h) >> (j - h) & 1)) return "key " + std::to_string(k) + " at slot " + std::to_string(j) + " has no hop bit";
  }
  for (uint64_t h = 0; h < c.slot_count(); ++h) {
    for (uint32_t bm = c.hop(h); bm; bm &= bm - 1) {
      uint64_t j = h + __builtin_ctz(bm);
      W w = c.slot(j);
      if (h >= c.buckets() || j >= c.slot_count() || KV::key(w) == KV::kEmptyKey || c.home(KV::key(w)) != h)
        return "bucket " + std::to_string(h) + " has a stale hop bit for slot " + std::to_string(j);
    }
  }
  if (live != size_) return "size() is " + std::to_string(size_) + " but the table holds " + std::to_string(live);
  return "";
}

template class CpuTable<Kv32>;
template class CpuTable<Kv64>;

}  // namespace wx::cpu

namespace wx {

Table* make_cpu_table(const wx_config& config) {
  if (config.key_bits == 64) return new cpu::CpuTable<cpu::Kv64>(config);
  return new cpu::CpuTable<cpu::Kv32>(config);
}

}  // namespace wx
