// The host join engine against a table that answers finds with values that are no build row or
// group (a broken table): the probe must fail with WX_ERR_INTERNAL instead of indexing with them.
#include <cstring>
#include <vector>

#include "check.hpp"
#include "common/error.hpp"
#include "join/join.hpp"

namespace {

// Stores nothing; find answers `answer` for every key.
class LyingTable final : public wx::Table {
 public:
  explicit LyingTable(uint32_t answer) : answer_(answer) {}
  bool on_device() const override { return false; }
  wx::BatchResult insert(const wx::Batch& b) override {
    if (b.outcomes) std::memset(b.outcomes, WX_OUT_INSERTED, b.n);
    return {};
  }
  wx::BatchResult insert_or_assign(const wx::Batch& b) override { return insert(b); }
  wx::BatchResult find(const wx::Batch& b) override {
    for (uint64_t i = 0; i < b.n; ++i) static_cast<uint32_t*>(b.values_out)[i] = answer_;
    return {};
  }
  wx::BatchResult contains(const wx::Batch&) override { return {}; }
  wx::BatchResult erase(const wx::Batch&) override { return {}; }
  wx::BatchResult batch(const wx::Batch&) override { return {}; }
  uint64_t size() override { return 0; }
  uint64_t capacity() override { return 0; }
  void stats(wx_stats*) override {}
  void clear() override {}
  void resize(uint64_t) override {}
  uint64_t retrieve_all(void*, void*, void*) override { return 0; }

 private:
  uint32_t answer_;
};

// Probes a 3-row build through a table answering `answer`; returns the status of the probe.
int32_t probe_with(int32_t build, uint32_t answer) {
  LyingTable table(answer);
  const wx::join::TableMaker make = [&](uint64_t) -> wx::Table& { return table; };
  std::vector<uint32_t> keys = {1, 2, 3}, pr(8), br(8);
  auto engine = wx::join::make_host_engine(make, 32, build, keys.data(), keys.size());
  wx::join::Probe p;
  p.keys = keys.data();
  p.n = keys.size();
  try {
    engine->probe(p, pr.data(), br.data(), pr.size());
    engine->semi(p, false, pr.data());
    engine->count(p);
  } catch (const wx::Error& e) {
    std::printf("as expected: %s\n", e.what());
    return e.status();
  }
  return WX_OK;
}

}  // namespace

int main() {
  CHECK(probe_with(WX_JOIN_UNIQUE, 2) == WX_OK);          // a real row: fine
  CHECK(probe_with(WX_JOIN_UNIQUE, 0xFFFFFFFFu) == WX_OK);  // not found: fine
  CHECK(probe_with(WX_JOIN_UNIQUE, 3) == WX_ERR_INTERNAL);  // row 3 of 3 rows does not exist
  CHECK(probe_with(WX_JOIN_MULTI, 1000) == WX_ERR_INTERNAL);
  std::printf("test_join_faults passed\n");
  return 0;
}
