// A join over N inner joins (wx_config shards / devices), one per shard, each an ordinary join on its
// shard's device. The build column is split per shard by the shard route, stably, so each inner join
// sees its rows in column order and keeps their global row ids beside them. A probe column is split the
// same way; the inner joins run concurrently (one host thread each), their local rows are mapped back to
// global ones, and the results are merged so the contract holds: pairs grouped by probe row in probe
// order, build rows ascending within a probe row (a probe row's pairs all come from one shard, whose
// local build rows ascend with the global ones). Device arrays are copied through host memory.
#include <algorithm>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/api_hooks.hpp"
#include "common/device.hpp"
#include "join/join.hpp"
#include "shard/shard_threads.hpp"
#include "shard/stable_split.hpp"

namespace wx::join {

namespace {

constexpr uint64_t kGrain = uint64_t(1) << 16;  // elements per thread of a pass, at least

void check(int32_t status) {
  if (status != WX_OK) fail(static_cast<wx_status>(status), api::last_error());
}

template <typename K>
bool reserved(K k) {
  return k >= K(~K(0)) - 1;
}

// One column split over the shards: shard s owns [base[s], base[s + 1]) of keys/hashes/rows; where[i]
// is the place of element i, rows[d] the element at place d (its global row).
template <typename K>
struct Split {
  std::vector<K> keys;
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> rows, where;
  std::vector<uint8_t> sid;
  std::vector<uint64_t> base;
  uint64_t begin(uint32_t s) const { return base[s]; }
  uint64_t size(uint32_t s) const { return base[s + 1] - base[s]; }
};

template <typename K>
class ShardedEngine final : public Engine {
 public:
  ShardedEngine(const wx_config& c, int32_t build, const K* keys, uint64_t n)
      : shards_(uint32_t(c.shards)),
        threads_(shards_, std::max(1u, std::thread::hardware_concurrency())),
        multi_(build == WX_JOIN_MULTI),
        rows_(n) {
    for (uint64_t i = 0; i < n; ++i)
      if (reserved(keys[i]))
        fail(WX_ERR_INVALID_KEY, "build key at row " + std::to_string(i) + " is a reserved value (" +
                                     std::to_string(keys[i]) + "); nothing was built");
    split(keys, nullptr, n, build_);
    inner_.assign(shards_, nullptr);
    threads_.for_each_shard(shards_, [&](uint32_t s) {
      wx_config ic = c;
      ic.shards = 1;
      ic.device_count = 0;
      if (c.device_count > 0) ic.device = c.devices[s % uint32_t(c.device_count)];
      const K* k = build_.keys.data() + build_.begin(s);
      const int32_t made = wx_join_create(&ic, build, k, build_.size(s), WX_MEM_HOST, nullptr, &inner_[s]);
      if (made == WX_ERR_INVALID_ARGUMENT && !multi_) duplicate(s);
      check(made);
    });
  }

  ~ShardedEngine() override {
    for (wx_join* j : inner_) wx_join_destroy(j);
  }

  uint64_t count(const Probe& p) override {
    const Split<K>& q = split_probe(p);
    std::vector<uint64_t> c(shards_, 0);
    threads_.for_each_shard(shards_, [&](uint32_t s) {
      if (q.size(s)) check(wx_join_count(inner_[s], q.keys.data() + q.begin(s), hashes_of(q, s), q.size(s), &c[s],
                                         WX_MEM_HOST, nullptr));
    });
    last_matches_ = 0;
    for (uint64_t x : c) last_matches_ += x;
    note_times();
    return last_matches_;
  }

  uint64_t probe(const Probe& p, uint32_t* probe_rows, uint32_t* build_rows, uint64_t capacity) override {
    const Split<K>& q = split_probe(p);
    const uint64_t n = p.n;
    pairs_p_.resize(shards_);
    pairs_b_.resize(shards_);
    count_.assign(n, 0);
    start_.resize(n);
    threads_.for_each_shard(shards_, [&](uint32_t s) {
      const uint64_t m = q.size(s);
      uint64_t room = m, got = 0;  // a UNIQUE build gives at most one pair per probe row
      if (m && multi_)
        check(wx_join_count(inner_[s], q.keys.data() + q.begin(s), hashes_of(q, s), m, &room, WX_MEM_HOST, nullptr));
      pairs_p_[s].resize(room);
      pairs_b_[s].resize(room);
      if (m)
        check(wx_join_probe(inner_[s], q.keys.data() + q.begin(s), hashes_of(q, s), m, pairs_p_[s].data(),
                            pairs_b_[s].data(), room, &got, WX_MEM_HOST, nullptr));
      pairs_p_[s].resize(got);
      pairs_b_[s].resize(got);
      // Global build rows; per place of the shard's probe rows, where its pairs start and how many.
      const uint32_t* global = build_.rows.data() + build_.begin(s);
      for (uint64_t j = 0; j < got; ++j) {
        const uint64_t d = q.begin(s) + pairs_p_[s][j];
        if (count_[d]++ == 0) start_[d] = j;
        pairs_b_[s][j] = global[pairs_b_[s][j]];
      }
    });
    uint64_t total = 0;
    for (uint32_t s = 0; s < shards_; ++s) total += pairs_p_[s].size();
    last_matches_ = total;
    note_times();
    if (total > capacity || total == 0) return total;
    // Each probe row's first pair in the output: an exclusive scan of its pair count, in probe order.
    const unsigned parts = threads_.parts_for(n, kGrain);
    std::vector<uint64_t> at(parts + 1, 0);
    threads_.for_parts(n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t c = 0;
      for (uint64_t i = lo; i < hi; ++i) c += count_[q.where[i]];
      at[part + 1] = c;
    });
    for (unsigned part = 0; part < parts; ++part) at[part + 1] += at[part];
    const bool device = p.mem == WX_MEM_DEVICE;
    uint32_t* pr = probe_rows;
    uint32_t* br = build_rows;
    if (device) {
      out_a_.resize(total);
      out_b_.resize(total);
      pr = out_a_.data();
      br = out_b_.data();
    }
    threads_.for_parts(n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t o = at[part];
      for (uint64_t i = lo; i < hi; ++i) {
        const uint64_t d = q.where[i], c = count_[d];
        if (c == 0) continue;
        const uint32_t* b = pairs_b_[q.sid[i]].data() + start_[d];
        for (uint64_t k = 0; k < c; ++k, ++o) {
          pr[o] = uint32_t(i);
          br[o] = b[k];
        }
      }
    });
    if (device) {
      dev::copy(probe_rows, pr, total * 4);
      dev::copy(build_rows, br, total * 4);
    }
    return total;
  }

  uint64_t semi(const Probe& p, bool anti, uint32_t* rows) override {
    const Split<K>& q = split_probe(p);
    const uint64_t n = p.n;
    matched_.assign(n, 0);  // per place: the probe row has a match
    threads_.for_each_shard(shards_, [&](uint32_t s) {
      const uint64_t m = q.size(s);
      if (m == 0) return;
      std::vector<uint32_t> local(m);
      uint64_t got = 0;
      check(wx_join_semi(inner_[s], q.keys.data() + q.begin(s), hashes_of(q, s), m, 0, local.data(), &got,
                         WX_MEM_HOST, nullptr));
      for (uint64_t j = 0; j < got; ++j) matched_[q.begin(s) + local[j]] = 1;
    });
    const unsigned parts = threads_.parts_for(n, kGrain);
    std::vector<uint64_t> at(parts + 1, 0);
    threads_.for_parts(n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t c = 0;
      for (uint64_t i = lo; i < hi; ++i) c += (matched_[q.where[i]] != 0) != anti;
      at[part + 1] = c;
    });
    for (unsigned part = 0; part < parts; ++part) at[part + 1] += at[part];
    const uint64_t total = at[parts];
    const bool device = p.mem == WX_MEM_DEVICE;
    if (device) out_a_.resize(total);
    uint32_t* out = device ? out_a_.data() : rows;
    threads_.for_parts(n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t o = at[part];
      for (uint64_t i = lo; i < hi; ++i)
        if ((matched_[q.where[i]] != 0) != anti) out[o++] = uint32_t(i);
    });
    if (device && total) dev::copy(rows, out, total * 4);
    last_matches_ = total;
    note_times();
    return total;
  }

  void hash(const Probe& p, uint64_t* hashes) override {
    if (p.n == 0) return;
    const K* keys = host_keys(p);
    std::vector<uint64_t> staged;
    uint64_t* h = hashes;
    if (p.mem == WX_MEM_DEVICE) staged.resize(p.n), h = staged.data();
    // The inner tables share one hash (it depends only on the kind and width): shard 0's serves all.
    check(wx_join_hash(inner_[0], keys, h, p.n, WX_MEM_HOST, nullptr));
    if (p.mem == WX_MEM_DEVICE) dev::copy(hashes, h, p.n * 8);
  }

  void stats(wx_join_stats* s) override {
    s->build_rows = rows_;
    s->last_matches = last_matches_;
    s->last_table_ms = table_ms_;
    s->last_kernel_ms = kernel_ms_;
    s->bytes = (build_.keys.capacity() + probe_.keys.capacity()) * sizeof(K) +
               (build_.rows.capacity() + build_.where.capacity() + probe_.rows.capacity() + probe_.where.capacity()) * 4;
    for (wx_join* j : inner_) {
      wx_join_stats one{};
      check(wx_join_stats_get(j, &one));
      s->distinct_keys += one.distinct_keys;
      s->bytes += one.bytes;
    }
  }

 private:
  void split(const K* keys, const uint64_t* hashes, uint64_t n, Split<K>& out) {
    out.keys.resize(n);
    out.rows.resize(n);
    out.where.resize(n);
    out.sid.resize(n);
    out.hashes.resize(hashes ? n : 0);
    const unsigned parts = threads_.parts_for(n, kGrain);
    auto for_parts = [&](uint64_t m, unsigned p, const auto& fn) { threads_.for_parts(m, p, fn); };
    shard::stable_split(keys, n, shards_, parts, for_parts, out.sid.data(), out.base, [&](uint64_t i, uint64_t d) {
      out.keys[d] = keys[i];
      out.rows[d] = uint32_t(i);
      out.where[i] = uint32_t(d);
      if (hashes) out.hashes[d] = hashes[i];
    });
  }

  // The probe's keys in host memory: the caller's, or a copy of its device arrays.
  const K* host_keys(const Probe& p) {
    if (p.mem != WX_MEM_DEVICE) return static_cast<const K*>(p.keys);
    dev::stream_sync(p.stream);  // work the caller queued on its stream comes first
    staged_keys_.resize(p.n);
    if (p.n) dev::copy(staged_keys_.data(), p.keys, p.n * sizeof(K));
    return staged_keys_.data();
  }

  const Split<K>& split_probe(const Probe& p) {
    const K* keys = host_keys(p);
    const uint64_t* hashes = p.hashes;
    if (hashes && p.mem == WX_MEM_DEVICE) {
      staged_hashes_.resize(p.n);
      if (p.n) dev::copy(staged_hashes_.data(), p.hashes, p.n * 8);
      hashes = staged_hashes_.data();
    }
    split(keys, hashes, p.n, probe_);
    return probe_;
  }

  const uint64_t* hashes_of(const Split<K>& q, uint32_t s) const {
    return q.hashes.empty() ? nullptr : q.hashes.data() + q.begin(s);
  }

  // A UNIQUE inner build found a repeated key: name it with its global rows.
  [[noreturn]] void duplicate(uint32_t s) {
    std::unordered_map<K, uint32_t> first;
    for (uint64_t d = build_.begin(s); d < build_.begin(s) + build_.size(s); ++d) {
      auto [it, fresh] = first.emplace(build_.keys[d], build_.rows[d]);
      if (!fresh)
        fail(WX_ERR_INVALID_ARGUMENT, "build key " + std::to_string(build_.keys[d]) + " appears at rows " +
                                          std::to_string(it->second) + " and " + std::to_string(build_.rows[d]) +
                                          ": a UNIQUE build needs distinct keys (use WX_JOIN_MULTI)");
    }
    check(WX_ERR_INVALID_ARGUMENT);  // the inner message, as it came
    fail(WX_ERR_INTERNAL, "unreachable");
  }

  // The last call's times: the slowest shard's.
  void note_times() {
    table_ms_ = kernel_ms_ = 0.0;
    for (wx_join* j : inner_) {
      wx_join_stats one{};
      check(wx_join_stats_get(j, &one));
      table_ms_ = std::max(table_ms_, one.last_table_ms);
      kernel_ms_ = std::max(kernel_ms_, one.last_kernel_ms);
    }
  }

  const uint32_t shards_;
  shard::ShardThreads threads_;
  const bool multi_;
  const uint64_t rows_;
  Split<K> build_, probe_;
  std::vector<wx_join*> inner_;
  uint64_t last_matches_ = 0;
  double table_ms_ = 0.0, kernel_ms_ = 0.0;
  // Scratch of the calls, kept between them.
  std::vector<std::vector<uint32_t>> pairs_p_, pairs_b_;  // per shard: its pairs (local probe row, global build row)
  std::vector<uint64_t> count_, start_;                   // per place: pairs of the probe row, first pair
  std::vector<uint8_t> matched_;
  std::vector<uint32_t> out_a_, out_b_;
  std::vector<K> staged_keys_;
  std::vector<uint64_t> staged_hashes_;
};

}  // namespace

std::unique_ptr<Engine> make_sharded_engine(const wx_config& config, int32_t build, const void* keys, uint64_t n,
                                            int32_t mem, void* stream) {
  std::vector<uint8_t> staged;
  const uint64_t width = uint64_t(config.key_bits / 8);
  if (mem == WX_MEM_DEVICE && n) {
    dev::stream_sync(stream);
    staged.resize(n * width);
    dev::copy(staged.data(), keys, n * width);
    keys = staged.data();
  }
  if (config.key_bits == 64)
    return std::make_unique<ShardedEngine<uint64_t>>(config, build, static_cast<const uint64_t*>(keys), n);
  return std::make_unique<ShardedEngine<uint32_t>>(config, build, static_cast<const uint32_t*>(keys), n);
}

}  // namespace wx::join
