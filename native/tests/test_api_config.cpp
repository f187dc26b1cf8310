// A table's configuration is checked once, when it is created: wx_config_init's defaults, every limit
// of wx_config (wixlib.h's WX_*_MIN/MAX) accepted at its edges and refused past them, by
// wx_table_create and wx_join_create alike, on every kind (the check runs before any device is
// needed). Also the counts of the last bulk call in wx_stats (last_full, last_invalid).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"

namespace {

const int32_t kKinds[] = {WX_KIND_CPU, WX_KIND_GLHT, WX_KIND_HIVE};

void defaults() {
  for (int32_t kind : kKinds) {
    wx_config c;
    std::memset(&c, 0x5A, sizeof c);
    CHECK_OK(wx_config_init(&c, kind));
    CHECK(c.kind == kind);
    CHECK(c.key_bits == 32 && c.value_bits == 32);
    CHECK(c.max_load_factor == (kind == WX_KIND_HIVE ? 0.95 : 0.9));
    CHECK(c.min_load_factor == 0.0);
    CHECK(c.grow == WX_GROW_AUTO && c.threads == 0 && c.device == 0);
    CHECK(c.staging_chunk == (uint64_t(1) << 21));
    CHECK(c.hot_share == 90);
    CHECK(c.mixed_group == 0);
    CHECK(c.build_min == (uint64_t(1) << 24));
    // The defaults lie inside the limits.
    CHECK(c.max_load_factor >= WX_LOAD_FACTOR_MIN && c.max_load_factor <= WX_LOAD_FACTOR_MAX);
    CHECK(c.staging_chunk >= WX_STAGING_CHUNK_MIN && c.staging_chunk <= WX_STAGING_CHUNK_MAX);
    CHECK(c.hot_share <= WX_HOT_SHARE_MAX && c.mixed_group <= WX_MIXED_GROUP_MAX);
  }
}

// A create call's status is `want`; after a failure the output pointer is NULL and the message names
// `field`.
void expect_status(int32_t st, bool out_null, int32_t want, const char* field, const char* call, const char* what) {
  CHECK_MSG(st == want, "%s: %s gave %s, expected %s: %s", what, call, wx_status_name(st), wx_status_name(want),
            wx_last_error());
  if (st == WX_OK) return;
  CHECK_MSG(out_null, "%s: a failed %s left a pointer", what, call);
  CHECK_MSG(std::string(wx_last_error()).find(field) != std::string::npos, "%s: %s message '%s' does not name %s", what,
            call, wx_last_error(), field);
}

// Creating a table and a join of the edited config: both give `want`.
void expect_create(int32_t kind, void (*edit)(wx_config&), int32_t want, const char* field, const char* what) {
  wx_config c;
  CHECK_OK(wx_config_init(&c, kind));
  edit(c);
  wx_table* t = reinterpret_cast<wx_table*>(0x1);
  const int32_t made = wx_table_create(&c, &t);
  expect_status(made, t == nullptr, want, field, "wx_table_create", what);
  wx_table_destroy(t);
  const uint32_t keys[4] = {1, 2, 3, 4};
  const uint64_t keys64[4] = {1, 2, 3, 4};
  wx_join* j = reinterpret_cast<wx_join*>(0x1);
  const int32_t joined = wx_join_create(&c, WX_JOIN_UNIQUE, c.key_bits == 64 ? static_cast<const void*>(keys64) : keys, 4,
                                    WX_MEM_HOST, nullptr, &j);
  expect_status(joined, j == nullptr, want, field, "wx_join_create", what);
  wx_join_destroy(j);
}

void limits() {
  const int32_t BAD = WX_ERR_INVALID_ARGUMENT;
  for (int32_t kind : kKinds) {
    // Refused on every kind, before a device is looked for.
    expect_create(kind, [](wx_config& c) { c.max_load_factor = WX_LOAD_FACTOR_MIN / 2; }, BAD, "max_load_factor",
                  "lf below min");
    expect_create(kind, [](wx_config& c) { c.max_load_factor = std::nextafter(WX_LOAD_FACTOR_MAX, 2.0); }, BAD,
                  "max_load_factor", "lf above max");
    expect_create(kind, [](wx_config& c) { c.max_load_factor = INFINITY; }, BAD, "max_load_factor", "lf inf");
    expect_create(kind, [](wx_config& c) { c.min_load_factor = -0.1; }, BAD, "min_load_factor", "min lf < 0");
    expect_create(kind, [](wx_config& c) { c.staging_chunk = WX_STAGING_CHUNK_MIN - 1; }, BAD, "staging_chunk",
                  "chunk below min");
    expect_create(kind, [](wx_config& c) { c.staging_chunk = uint64_t(WX_STAGING_CHUNK_MAX) + 1; }, BAD,
                  "staging_chunk", "chunk above max");
    expect_create(kind, [](wx_config& c) { c.staging_chunk = 0; }, BAD, "staging_chunk", "chunk 0");
    expect_create(kind, [](wx_config& c) { c.hot_share = -1; }, BAD, "hot_share", "hot share < 0");
    expect_create(kind, [](wx_config& c) { c.hot_share = WX_HOT_SHARE_MAX + 1; }, BAD, "hot_share",
                  "hot share above max");
    expect_create(kind, [](wx_config& c) { c.mixed_group = -1; }, BAD, "mixed_group", "mixed group < 0");
    expect_create(kind, [](wx_config& c) { c.mixed_group = WX_MIXED_GROUP_MAX + 1; }, BAD, "mixed_group",
                  "mixed group above max");
    expect_create(kind, [](wx_config& c) { c.threads = -2; }, BAD, "threads", "threads < 0");
    expect_create(kind, [](wx_config& c) { c.grow = 2; }, BAD, "grow", "grow flag");
    expect_create(kind, [](wx_config& c) { c.key_bits = 16; }, WX_ERR_UNSUPPORTED, "key_bits", "16-bit keys");
    expect_create(kind, [](wx_config& c) { c.key_bits = 64; }, WX_ERR_UNSUPPORTED, "key_bits", "64/32 bits");
  }
  // The edges are accepted (CPU kind: runs everywhere).
  const int32_t OK = WX_OK;
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.max_load_factor = WX_LOAD_FACTOR_MIN; }, OK, "", "lf min");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.max_load_factor = WX_LOAD_FACTOR_MAX; }, OK, "", "lf max");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.staging_chunk = WX_STAGING_CHUNK_MIN; }, OK, "", "chunk min");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.staging_chunk = WX_STAGING_CHUNK_MAX; }, OK, "", "chunk max");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.hot_share = 0; }, OK, "", "hot share 0");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.hot_share = WX_HOT_SHARE_MAX; }, OK, "", "hot share max");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.mixed_group = WX_MIXED_GROUP_MAX; }, OK, "", "mixed group max");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.build_min = 0; }, OK, "", "build_min 0");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.build_min = ~uint64_t(0); }, OK, "", "build_min max");
  expect_create(WX_KIND_CPU, [](wx_config& c) { c.key_bits = c.value_bits = 64; }, OK, "", "64/64 bits");
}

// The capacity rule applies to tables; a join ignores the capacity (it sizes its table itself).
void table_capacity() {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.capacity = (uint64_t(1) << 36) + 1;
  wx_table* t = nullptr;
  CHECK_STATUS(wx_table_create(&c, &t), WX_ERR_INVALID_ARGUMENT);
  CHECK(t == nullptr);
  const uint32_t keys[3] = {5, 6, 7};
  wx_join* j = nullptr;
  CHECK_OK(wx_join_create(&c, WX_JOIN_UNIQUE, keys, 3, WX_MEM_HOST, nullptr, &j));
  wx_join_stats s;
  CHECK_OK(wx_join_stats_get(j, &s));
  CHECK(s.build_rows == 3 && s.distinct_keys == 3);
  wx_join_destroy(j);
}

uint64_t stat_full(wx_table* t) {
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  return s.last_full;
}

uint64_t stat_invalid(wx_table* t) {
  wx_stats s;
  CHECK_OK(wx_stats_get(t, &s));
  return s.last_invalid;
}

// wx_stats carries the last bulk call's FULL and INVALID_KEY counts; each call replaces them.
void last_counts() {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  c.capacity = 64;
  c.grow = WX_GROW_NEVER;
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  CHECK(stat_full(t) == 0 && stat_invalid(t) == 0);

  std::vector<uint32_t> keys = {1, 2, WX_KEY32_EMPTY, 3, WX_KEY32_TOMBSTONE, WX_KEY32_EMPTY};
  std::vector<uint8_t> out(keys.size());
  CHECK_STATUS(wx_insert(t, keys.data(), nullptr, keys.size(), out.data(), WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(stat_invalid(t) == 3 && stat_full(t) == 0);
  uint64_t size = 0;
  CHECK_OK(wx_size(t, &size));
  CHECK(size == 3);

  // A clean call resets the counts.
  uint32_t vals[2] = {0, 0};
  CHECK_OK(wx_find(t, keys.data(), vals, 2, 0, WX_MEM_HOST, nullptr));
  CHECK(stat_invalid(t) == 0 && stat_full(t) == 0);

  // Fill past the capacity without growth: the FULL count is the number of outcomes FULL.
  uint64_t cap = 0;
  CHECK_OK(wx_capacity(t, &cap));
  const uint64_t n = cap * 4;
  std::vector<uint32_t> many(n);
  for (uint64_t i = 0; i < n; ++i) many[i] = uint32_t(1000 + i);
  std::vector<uint8_t> outs(n);
  CHECK_STATUS(wx_insert(t, many.data(), nullptr, n, outs.data(), WX_MEM_HOST, nullptr), WX_ERR_FULL);
  uint64_t full = 0;
  for (uint8_t o : outs) full += o == WX_OUT_FULL;
  CHECK_MSG(full > 0 && stat_full(t) == full, "outcomes FULL %llu, stats last_full %llu", (unsigned long long)full,
            (unsigned long long)stat_full(t));
  CHECK(stat_invalid(t) == 0);

  // A refused call (bad argument) leaves no stale counts.
  CHECK_STATUS(wx_insert(t, nullptr, nullptr, 4, nullptr, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  // (argument checks run before the counts are reset: the previous call's counts stay)
  CHECK(stat_full(t) == full);
  CHECK_OK(wx_clear(t));
  CHECK_OK(wx_erase(t, many.data(), 4, nullptr, WX_MEM_HOST, nullptr));
  CHECK(stat_full(t) == 0 && stat_invalid(t) == 0);
  wx_table_destroy(t);
}

// The pre-hashed calls take the bulk calls' checks and record their counts too.
void hashed_calls() {
  wx_config c;
  CHECK_OK(wx_config_init(&c, WX_KIND_CPU));
  wx_table* t = nullptr;
  CHECK_OK(wx_table_create(&c, &t));
  const uint32_t keys[4] = {10, 20, WX_KEY32_EMPTY, 40};
  const uint32_t vals[4] = {1, 2, 3, 4};
  uint64_t hashes[4];
  CHECK_STATUS(wx_hash_keys(t, keys, nullptr, 4, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(wx_hash_keys(t, keys, hashes, 4, 7, nullptr), WX_ERR_INVALID_ARGUMENT);
  CHECK_OK(wx_hash_keys(t, keys, hashes, 4, WX_MEM_HOST, nullptr));
  CHECK_STATUS(wx_insert_hashed(t, keys, nullptr, vals, 4, nullptr, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  uint8_t out[4];
  CHECK_STATUS(wx_insert_hashed(t, keys, hashes, vals, 4, out, WX_MEM_HOST, nullptr), WX_ERR_INVALID_KEY);
  CHECK(out[0] == WX_OUT_INSERTED && out[2] == WX_OUT_INVALID_KEY && out[3] == WX_OUT_INSERTED);
  CHECK(stat_invalid(t) == 1);
  uint32_t found[4] = {0, 0, 0, 0};
  CHECK_STATUS(wx_find_hashed(t, keys, hashes, nullptr, 4, 99, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  const uint32_t probe[3] = {10, 40, 30};
  uint64_t ph[3];
  CHECK_OK(wx_hash_keys(t, probe, ph, 3, WX_MEM_HOST, nullptr));
  CHECK_OK(wx_find_hashed(t, probe, ph, found, 3, 99, WX_MEM_HOST, nullptr));
  CHECK(found[0] == 1 && found[1] == 4 && found[2] == 99);
  CHECK(stat_invalid(t) == 0);
  CHECK_STATUS(wx_find_hashed(nullptr, probe, ph, found, 3, 99, WX_MEM_HOST, nullptr), WX_ERR_INVALID_ARGUMENT);
  wx_table_destroy(t);
}

}  // namespace

int main() {
  defaults();
  limits();
  table_capacity();
  last_counts();
  hashed_calls();
  std::printf("test_api_config: OK\n");
  return 0;
}
