// The join engine of host tables (the CPU kind, 32- or 64-bit keys): see join.hpp.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "join/host_parallel.hpp"
#include "join/host_radix_sort.hpp"
#include "join/join.hpp"

namespace wx::join {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <typename K>
bool reserved(K k) { return k >= K(~K(0)) - 1; }

template <typename K>
class HostEngine final : public Engine {
  static constexpr K kNone = K(~K(0));  // find's not-found value: no row / no group

 public:
  HostEngine(const TableMaker& make_table, int32_t build, const K* keys, uint64_t n)
      : multi_(build == WX_JOIN_MULTI), rows_(n) {
    for (uint64_t i = 0; i < n; ++i)
      if (reserved(keys[i]))
        fail(WX_ERR_INVALID_KEY, "build key at row " + std::to_string(i) + " is a reserved value (" +
                                     std::to_string(keys[i]) + "); nothing was built");
    if (multi_) build_groups(make_table, keys, n);
    else build_unique(make_table, keys, n);
  }

  uint64_t count(const Probe& p) override {
    const auto t0 = Clock::now();
    lookup(p);
    const unsigned parts = threads_.parts_for(p.n);
    std::vector<uint64_t> sums(parts, 0);
    threads_.for_parts(p.n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t s = 0;
      for (uint64_t i = lo; i < hi; ++i) s += matches(found_[i]);
      sums[part] = s;
    });
    last_matches_ = std::accumulate(sums.begin(), sums.end(), uint64_t(0));
    last_ms_ = ms_since(t0);
    return last_matches_;
  }

  uint64_t probe(const Probe& p, uint32_t* probe_rows, uint32_t* build_rows, uint64_t capacity) override {
    const auto t0 = Clock::now();
    lookup(p);
    const unsigned parts = threads_.parts_for(p.n);
    std::vector<uint64_t> start(parts + 1, 0);
    threads_.for_parts(p.n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t s = 0;
      for (uint64_t i = lo; i < hi; ++i) s += matches(found_[i]);
      start[part + 1] = s;
    });
    for (unsigned q = 0; q < parts; ++q) start[q + 1] += start[q];
    const uint64_t total = start[parts];
    if (total <= capacity) {
      threads_.for_parts(p.n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
        uint64_t o = start[part];
        for (uint64_t i = lo; i < hi; ++i) {
          const K g = found_[i];
          if (g == kNone) continue;
          if (!multi_) {
            probe_rows[o] = uint32_t(i);
            build_rows[o++] = uint32_t(g);
            continue;
          }
          for (uint32_t j = offsets_[g], e = offsets_[g + 1]; j < e; ++j) {
            probe_rows[o] = uint32_t(i);
            build_rows[o++] = group_rows_[j];
          }
        }
      });
    }
    last_matches_ = total;
    last_ms_ = ms_since(t0);
    return total;
  }

  uint64_t semi(const Probe& p, bool anti, uint32_t* rows) override {
    const auto t0 = Clock::now();
    lookup(p);
    const unsigned parts = threads_.parts_for(p.n);
    std::vector<uint64_t> start(parts + 1, 0);
    threads_.for_parts(p.n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t s = 0;
      for (uint64_t i = lo; i < hi; ++i) s += (found_[i] != kNone) != anti;
      start[part + 1] = s;
    });
    for (unsigned q = 0; q < parts; ++q) start[q + 1] += start[q];
    threads_.for_parts(p.n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      uint64_t o = start[part];
      for (uint64_t i = lo; i < hi; ++i)
        if ((found_[i] != kNone) != anti) rows[o++] = uint32_t(i);
    });
    last_matches_ = start[parts];
    last_ms_ = ms_since(t0);
    return last_matches_;
  }

  void stats(wx_join_stats* s) override {
    wx_stats ts{};
    table_->stats(&ts);
    s->build_rows = rows_;
    s->distinct_keys = distinct_;
    s->bytes = ts.bytes + offsets_.capacity() * 4 + group_rows_.capacity() * 4 + found_.capacity() * sizeof(K);
    s->last_matches = last_matches_;
    s->last_table_ms = 0.0;
    s->last_kernel_ms = last_ms_;
  }

 private:
  uint64_t matches(K g) const {
    if (g == kNone) return 0;
    return multi_ ? uint64_t(offsets_[g + 1] - offsets_[g]) : 1;
  }

  // A found value must be a build row (UNIQUE) or group (MULTI); anything else is a broken table,
  // reported before any value is used as an index.
  void check_found(uint64_t n) const {
    const uint64_t limit = multi_ ? distinct_ : rows_;
    const unsigned parts = threads_.parts_for(n);
    std::vector<uint64_t> bad(parts, UINT64_MAX);
    threads_.for_parts(n, parts, [&](unsigned part, uint64_t lo, uint64_t hi) {
      for (uint64_t i = lo; i < hi && bad[part] == UINT64_MAX; ++i)
        if (found_[i] != kNone && uint64_t(found_[i]) >= limit) bad[part] = i;
    });
    for (uint64_t i : bad)
      if (i != UINT64_MAX)
        fail(WX_ERR_INTERNAL, "join probe: the table returned " + std::to_string(found_[i]) + " for probe row " +
                                  std::to_string(i) + ", which is no build row or group (a broken table)");
  }

  // found_[i] = the row (UNIQUE) or group (MULTI) of probe key i, kNone when absent or reserved.
  void lookup(const Probe& p) {
    if (p.mem != WX_MEM_HOST) fail(WX_ERR_INVALID_ARGUMENT, "a CPU join takes host memory (WX_MEM_HOST)");
    found_.resize(p.n);
    if (p.n == 0) return;
    Batch b;
    b.keys = p.keys;
    b.values_out = found_.data();
    b.n = p.n;
    b.not_found = uint64_t(kNone);
    // Reserved probe keys are counted as invalid by the table and get kNone: they match nothing.
    if (p.hashes) table_->find_hashed(b, p.hashes);
    else table_->find(b);
    check_found(p.n);
  }

  void insert(const K* keys, const K* values, uint64_t n, std::vector<uint8_t>& outcomes) {
    outcomes.assign(n, WX_OUT_NONE);
    Batch b;
    b.keys = keys;
    b.values_in = values;
    b.outcomes = outcomes.data();
    b.n = n;
    const BatchResult r = table_->insert(b);
    if (r.full > 0)
      fail(WX_ERR_FULL, std::to_string(r.full) + " build keys found no room (table not allowed to grow, or out of memory)");
  }

  void build_unique(const TableMaker& make_table, const K* keys, uint64_t n) {
    table_ = &make_table(n);
    std::vector<K> rows(n);
    std::iota(rows.begin(), rows.end(), K(0));
    std::vector<uint8_t> out;
    insert(keys, rows.data(), n, out);
    for (uint64_t i = 0; i < n; ++i) {
      if (out[i] != WX_OUT_PRESENT) continue;
      // Name both rows (the earliest occurrence and this one).
      K first = kNone;
      for (uint64_t j = 0; j < i && first == kNone; ++j)
        if (keys[j] == keys[i]) first = K(j);
      fail(WX_ERR_INVALID_ARGUMENT, "build key " + std::to_string(keys[i]) + " appears at rows " + std::to_string(first) +
                                        " and " + std::to_string(i) + ": a UNIQUE build needs distinct keys (use WX_JOIN_MULTI)");
    }
    distinct_ = n;
  }

  void build_groups(const TableMaker& make_table, const K* keys, uint64_t n) {
    std::vector<K> sorted(keys, keys + n);
    group_rows_.resize(n);
    std::iota(group_rows_.begin(), group_rows_.end(), uint32_t(0));
    radix_sort_pairs(threads_, sorted, group_rows_);  // stable: the rows of one key stay ascending
    std::vector<K> dkeys, groups;
    for (uint64_t i = 0; i < n; ++i) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        offsets_.push_back(uint32_t(i));
        dkeys.push_back(sorted[i]);
      }
    }
    offsets_.push_back(uint32_t(n));
    distinct_ = dkeys.size();
    groups.resize(distinct_);
    std::iota(groups.begin(), groups.end(), K(0));
    table_ = &make_table(distinct_);
    std::vector<uint8_t> out;
    insert(dkeys.data(), groups.data(), distinct_, out);
    for (uint64_t g = 0; g < distinct_; ++g)
      if (out[g] != WX_OUT_INSERTED) fail(WX_ERR_INTERNAL, "join build: distinct key " + std::to_string(dkeys[g]) + " was not inserted");
  }

  Table* table_ = nullptr;  // the join's table, made once the distinct keys are known
  bool multi_;
  uint64_t rows_, distinct_ = 0, last_matches_ = 0;
  double last_ms_ = 0.0;
  std::vector<uint32_t> offsets_, group_rows_;  // MULTI: rows of group g = group_rows_[offsets_[g] .. offsets_[g+1])
  std::vector<K> found_;                        // scratch of one probe: row or group per probe key
  mutable HostThreads threads_;                 // the passes' threads (const checks use them too)
};

}  // namespace

std::unique_ptr<Engine> make_host_engine(const TableMaker& make_table, int32_t key_bits, int32_t build,
                                         const void* keys, uint64_t n) {
  if (key_bits == 64)
    return std::make_unique<HostEngine<uint64_t>>(make_table, build, static_cast<const uint64_t*>(keys), n);
  return std::make_unique<HostEngine<uint32_t>>(make_table, build, static_cast<const uint32_t*>(keys), n);
}

}  // namespace wx::join
