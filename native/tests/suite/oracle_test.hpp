// Oracle comparison: a table made for N keys at load factor lf is filled to N,
// then random ops run in batches whose keys are distinct, so each element's outcome is determined by
// the sequential oracle. Every outcome, every found value and size() are checked after every batch;
// retrieve_all must equal the oracle at the end. Batches alternate between wx_batch (mixed ops) and
// the single-op calls (insert, insert_or_assign, erase, find, contains).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "check.hpp"
#include "suite/env.hpp"
#include "suite/table_io.hpp"

namespace wxsuite {

struct OracleParams {
  int32_t kind = WX_KIND_CPU;
  uint64_t keys = 1 << 16;  // N: capacity and fill level
  uint64_t ops = 1 << 18;   // random ops after the fill
  double lf = 0.8;
  int32_t mem = WX_MEM_HOST;
  uint64_t seed = 1;
};

// The universe of keys the test draws from: 2N distinct valid keys (edge keys 0, 1, 0xFFFFFFFD
// included), and a sorted index to map a dumped key back to its slot in the universe.
class Universe {
 public:
  Universe(uint64_t count, Rng& rng) {
    keys_ = {0u, 1u, 0xFFFFFFFDu};
    std::vector<uint32_t> sorted;
    while (keys_.size() < count) {
      while (keys_.size() < count + count / 8 + 16) keys_.push_back(rng.key());
      sorted = keys_;
      std::sort(sorted.begin(), sorted.end());
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      keys_ = sorted;
    }
    // Shuffle, keep `count`, but keep the edge keys inside the fill half.
    for (uint64_t i = keys_.size() - 1; i > 0; --i) std::swap(keys_[i], keys_[rng.below(i + 1)]);
    keys_.resize(count);
    for (uint32_t edge : {0u, 1u, 0xFFFFFFFDu}) {
      auto it = std::find(keys_.begin(), keys_.end(), edge);
      if (it != keys_.end()) std::swap(*it, keys_[rng.below(count / 2)]);
    }
    index_.resize(count);
    for (uint64_t i = 0; i < count; ++i) index_[i] = {keys_[i], static_cast<uint32_t>(i)};
    std::sort(index_.begin(), index_.end());
  }
  uint64_t size() const { return keys_.size(); }
  uint32_t key(uint64_t i) const { return keys_[i]; }
  // Universe index of key k, or -1.
  int64_t find(uint32_t k) const {
    auto it = std::lower_bound(index_.begin(), index_.end(), std::make_pair(k, 0u));
    if (it == index_.end() || it->first != k) return -1;
    return it->second;
  }

 private:
  std::vector<uint32_t> keys_;
  std::vector<std::pair<uint32_t, uint32_t>> index_;
};

namespace oracle_detail {

[[noreturn]] inline void mismatch(const char* what, uint64_t i, uint32_t key, unsigned op, unsigned expect,
                                  unsigned got, uint32_t ev, uint32_t gv) {
  std::fprintf(stderr,
               "oracle mismatch in %s: element %llu key=%u op=%u expected outcome %u value %u, got "
               "outcome %u value %u\n",
               what, static_cast<unsigned long long>(i), key, op, expect, ev, got, gv);
  std::exit(1);
}

}  // namespace oracle_detail

inline void run_oracle_test(const OracleParams& p) {
  using namespace oracle_detail;
  const char* label = kind_name(p.kind);
  Rng rng(p.seed);
  Table table(make_config(p.kind, p.keys, p.lf, WX_GROW_AUTO));
  // Fill to lf x slots (not just the N asked for): backends may round the slot count up (powers of
  // two, whole buckets), and the point is to run at the load factor itself.
  uint64_t slots = 0;
  CHECK_OK(wx_capacity(table.get(), &slots));
  // Stay just below the limit: a table exactly at it may grow on the next inserting call, and the
  // reported slot count may include a little padding the limit does not count (0.2% margin).
  const uint64_t by_slots = static_cast<uint64_t>(static_cast<double>(slots) * p.lf * 0.998);
  const uint64_t N = std::max<uint64_t>(p.keys > 1 ? p.keys - 1 : 1, by_slots);
  const uint64_t U = 2 * N;
  Universe uni(U, rng);
  std::vector<uint8_t> present(U, 0);
  std::vector<uint32_t> value(U, 0);
  uint64_t live = 0;
  uint32_t next_value = rng.u32();
  std::printf("[oracle] kind=%s capacity=%llu slots=%llu fill=%llu ops=%llu lf=%.2f mem=%s\n", label,
              (unsigned long long)p.keys, (unsigned long long)slots, (unsigned long long)N,
              (unsigned long long)p.ops, p.lf, mem_name(p.mem));
  std::fflush(stdout);
  Io io(p.mem);
  const uint64_t max_batch = std::max<uint64_t>(1, std::min<uint64_t>(N / 4, 1u << 20));
  std::vector<uint32_t> keys, vals, vals_before;
  std::vector<uint8_t> ops, out;
  std::vector<uint64_t> idx;

  // Fill to N with inserts of distinct keys, in batches of varying size (not multiples of 32).
  for (uint64_t done = 0; done < N;) {
    uint64_t b = std::min<uint64_t>(N - done, max_batch - rng.below(std::min<uint64_t>(max_batch, 37)));
    keys.resize(b); vals.resize(b); out.assign(b, 0);
    for (uint64_t j = 0; j < b; ++j) {
      keys[j] = uni.key(done + j);
      vals[j] = next_value++;
    }
    CHECK_OK(io.insert(table.get(), keys.data(), vals.data(), b, out.data()));
    for (uint64_t j = 0; j < b; ++j) {
      if (out[j] != WX_OUT_INSERTED) mismatch("fill", j, keys[j], WX_OP_INSERT, WX_OUT_INSERTED, out[j], 0, 0);
      present[done + j] = 1;
      value[done + j] = vals[j];
    }
    live += b;
    done += b;
  }
  CHECK_MSG(table.size() == N, "size after fill %llu != %llu", (unsigned long long)table.size(), (unsigned long long)N);
  {
    double lf_now = 0;
    CHECK_OK(wx_load_factor(table.get(), &lf_now));
    wx_stats s = table.stats();
    std::printf("  filled: load_factor=%.4f slots=%llu resizes=%llu displacements=%llu stash=%llu\n", lf_now,
                (unsigned long long)s.capacity, (unsigned long long)s.resizes,
                (unsigned long long)s.displacements, (unsigned long long)s.stash_used);
    CHECK_MSG(lf_now > 0 && lf_now <= p.lf + 0.02, "load factor %.4f outside (0, %.2f]", lf_now, p.lf);
    if (s.resizes > 0)
      std::printf("  NOTE: the table grew while being filled to its own capacity (%llu resizes): the rest "
                  "of this test runs below load factor %.2f\n", (unsigned long long)s.resizes, p.lf);
  }

  // Random phase. Keys drawn from the universe (about half present), distinct within a batch.
  std::vector<uint32_t> stamp(U, 0);
  uint32_t epoch = 0;
  for (uint64_t done = 0; done < p.ops;) {
    const uint64_t b = std::min<uint64_t>(p.ops - done, 1 + rng.below(max_batch));
    ++epoch;
    idx.clear();
    // Modes 0-4: mixed wx_batch; 5 insert, 6 insert_or_assign, 7 erase, 8 find, 9 contains. Inserts
    // outweigh erases and the budget below caps the size, so it stays just under N.
    const int mode = static_cast<int>(rng.below(10));
    const int single = mode < 5 ? -1 : mode - 5;
    // New keys a batch may add: the table never holds more than N even in the middle of a batch,
    // so it runs at its load factor without growing.
    uint64_t budget = N > live ? N - live : 0;
    keys.resize(b); vals.resize(b); ops.resize(b); out.assign(b, WX_OUT_NONE);
    while (idx.size() < b) {
      uint8_t op;
      if (single < 0) {
        uint64_t r = rng.below(100);  // insert 30, insert_or_assign 10, erase 30, find 30
        op = r < 30 ? WX_OP_INSERT : r < 40 ? WX_OP_INSERT_OR_ASSIGN : r < 70 ? WX_OP_ERASE : WX_OP_FIND;
      } else {
        op = single == 0 ? WX_OP_INSERT : single == 1 ? WX_OP_INSERT_OR_ASSIGN : single == 2 ? WX_OP_ERASE : WX_OP_FIND;
      }
      uint64_t u = rng.below(U);
      if (stamp[u] == epoch) continue;
      const bool adds = (op == WX_OP_INSERT || op == WX_OP_INSERT_OR_ASSIGN) && !present[u];
      if (adds) {
        if (budget == 0) continue;  // draw again: a present key, or another op
        --budget;
      }
      stamp[u] = epoch;
      const uint64_t j = idx.size();
      idx.push_back(u);
      keys[j] = uni.key(u);
      ops[j] = op;
      vals[j] = (op == WX_OP_FIND) ? 0xA5A5A5A5u ^ static_cast<uint32_t>(j) : next_value++;
    }
    vals_before = vals;
    int32_t st;
    const char* what;
    if (single < 0) {
      what = "wx_batch";
      st = io.batch(table.get(), ops.data(), keys.data(), vals.data(), b, out.data());
    } else if (single == 0) {
      what = "wx_insert";
      st = io.insert(table.get(), keys.data(), vals.data(), b, out.data());
    } else if (single == 1) {
      what = "wx_insert_or_assign";
      st = io.insert_or_assign(table.get(), keys.data(), vals.data(), b, out.data());
    } else if (single == 2) {
      what = "wx_erase";
      st = io.erase(table.get(), keys.data(), b, out.data());
    } else if (single == 3) {
      what = "wx_find";
      st = io.find(table.get(), keys.data(), vals.data(), b, 0xFFFFFFFF12345678ull);
    } else {
      what = "wx_contains";
      st = io.contains(table.get(), keys.data(), out.data(), b);
    }
    CHECK_MSG(st == WX_OK, "%s returned %s: %s", what, wx_status_name(st), wx_last_error());
    for (uint64_t j = 0; j < b; ++j) {
      const uint64_t u = idx[j];
      const bool was = present[u];
      const uint32_t old = value[u];
      if (single <= 2) {
        uint8_t expect = 0;
        switch (ops[j]) {
          case WX_OP_INSERT:
            expect = was ? WX_OUT_PRESENT : WX_OUT_INSERTED;
            if (!was) { present[u] = 1; value[u] = vals_before[j]; ++live; }
            break;
          case WX_OP_INSERT_OR_ASSIGN:
            expect = was ? WX_OUT_ASSIGNED : WX_OUT_INSERTED;
            if (!was) ++live;
            present[u] = 1;
            value[u] = vals_before[j];
            break;
          case WX_OP_ERASE:
            expect = was ? WX_OUT_ERASED : WX_OUT_NOT_FOUND;
            if (was) { present[u] = 0; --live; }
            break;
          default:
            expect = was ? WX_OUT_FOUND : WX_OUT_NOT_FOUND;
            break;
        }
        if (out[j] != expect) mismatch(what, j, keys[j], ops[j], expect, out[j], old, vals[j]);
        if (ops[j] == WX_OP_FIND) {
          const uint32_t ev = was ? old : vals_before[j];  // not found: slot left as it was
          if (vals[j] != ev) mismatch(what, j, keys[j], ops[j], expect, out[j], ev, vals[j]);
        }
      } else if (single == 3) {
        const uint32_t ev = was ? old : 0x12345678u;  // not_found truncated to 32 bits
        if (vals[j] != ev) mismatch(what, j, keys[j], WX_OP_FIND, was, was, ev, vals[j]);
      } else {
        if (out[j] != (was ? 1 : 0)) mismatch(what, j, keys[j], WX_OP_FIND, was, out[j], 0, 0);
      }
    }
    const uint64_t sz = table.size();
    CHECK_MSG(sz == live, "size %llu != oracle %llu after %s", (unsigned long long)sz, (unsigned long long)live, what);
    done += b;
  }

  // Final dump equals the oracle: every key once, right value, nothing else.
  std::vector<uint32_t> dk, dv;
  CHECK_OK(io.retrieve_all(table.get(), dk, dv));
  CHECK_MSG(dk.size() == live, "retrieve_all count %zu != oracle %llu", dk.size(), (unsigned long long)live);
  ++epoch;
  for (uint64_t j = 0; j < dk.size(); ++j) {
    const int64_t u = uni.find(dk[j]);
    CHECK_MSG(u >= 0, "retrieve_all returned key %u never inserted", dk[j]);
    CHECK_MSG(stamp[u] != epoch, "retrieve_all returned key %u twice", dk[j]);
    stamp[u] = epoch;
    CHECK_MSG(present[u], "retrieve_all returned erased key %u", dk[j]);
    CHECK_MSG(dv[j] == value[u], "retrieve_all key %u value %u != oracle %u", dk[j], dv[j], value[u]);
  }
  wx_stats s = table.stats();
  CHECK(s.size == live);
  CHECK_MSG(s.failed_inserts == 0, "failed_inserts=%llu under WX_GROW_AUTO", (unsigned long long)s.failed_inserts);
  std::printf("  ok: live=%llu resizes=%llu displacements=%llu [t=%.1fs]\n", (unsigned long long)live,
              (unsigned long long)s.resizes, (unsigned long long)s.displacements, elapsed_s());
  std::fflush(stdout);
}

}  // namespace wxsuite
