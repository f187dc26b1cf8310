#include "shard/host_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>
#include <string>

#include "common/error.hpp"
#include "shard/scratch_layout.hpp"
#include "shard/shard_set.hpp"
#include "shard/stable_split.hpp"

namespace wx::shard {

namespace {

// Elements of one piece: bounds the scratch (about 20 bytes per element on 32-bit tables) while each
// GPU shard still gets several staging chunks per piece to overlap.
constexpr uint64_t kPiece = uint64_t(1) << 23;
constexpr uint64_t kPartGrain = uint64_t(1) << 16;  // elements per partition thread, at least

}  // namespace

HostPath::~HostPath() { release(); }

void HostPath::release() {
  std::free(scratch_);
  scratch_ = nullptr;
  bytes_ = 0;
}

char* HostPath::reserve(uint64_t bytes) {
  if (bytes <= bytes_) return scratch_;
  release();
  scratch_ = static_cast<char*>(std::aligned_alloc(64, align_up64(bytes)));
  if (!scratch_) fail(WX_ERR_OUT_OF_MEMORY, "host allocation of " + std::to_string(bytes) + " bytes of shard scratch failed");
  bytes_ = bytes;
  return scratch_;
}

BatchResult HostPath::run(ShardSet& set, Call call, const Batch& b) {
  return set.config().key_bits == 64 ? run_typed<uint64_t>(set, call, b) : run_typed<uint32_t>(set, call, b);
}

template <typename K>
BatchResult HostPath::run_typed(ShardSet& set, Call call, const Batch& b) {
  const uint32_t shards = set.count();
  const uint64_t piece = std::min(b.n, kPiece);
  const uint64_t pieces = (b.n + piece - 1) / piece;
  const ScratchLayout L(call, b, piece, sizeof(K));
  // Three pieces in flight: while the shards run piece k, the host threads split piece k + 1 and
  // gather piece k - 1, each in its own slot of the scratch.
  const unsigned slots = pieces > 1 ? 3 : 1;
  char* const scratch = reserve(L.bytes * slots);
  std::vector<std::vector<uint64_t>> bases(slots);   // each slot's shard runs: base[s] .. base[s + 1]
  std::vector<std::vector<uint64_t>> starts(slots);  // each slot's (part, shard) runs (stable_split)
  if (sid_.size() < piece) sid_.resize(piece);

  const K* keys = static_cast<const K*>(b.keys);
  const K* vin = static_cast<const K*>(b.values_in);
  K* vout = static_cast<K*>(b.values_out);
  auto slot_of = [&](uint64_t k) { return scratch + (k % slots) * L.bytes; };
  auto size_of = [&](uint64_t k) { return std::min(piece, b.n - k * piece); };
  auto parts_of = [&](uint64_t m) { return unsigned(std::clamp<uint64_t>(m / kPartGrain, 1, set.threads())); };

  auto split = [&](uint64_t k) {
    char* const s = slot_of(k);
    const uint64_t lo = k * piece, m = size_of(k);
    K* const sk = reinterpret_cast<K*>(s + L.keys);
    K* const sv = reinterpret_cast<K*>(s + L.values);
    uint8_t* const so = reinterpret_cast<uint8_t*>(s + L.op);
    uint64_t* const sh = reinterpret_cast<uint64_t*>(s + L.hashes);
    uint8_t* const sout = reinterpret_cast<uint8_t*>(s + L.outcome);
    uint32_t* const sidx = reinterpret_cast<uint32_t*>(s + L.index);
    auto for_parts = [&](uint64_t n, unsigned p, const auto& fn) { set.for_parts(n, p, fn); };
    stable_split(keys + lo, m, shards, parts_of(m), for_parts, sid_.data(), bases[k % slots], [&](uint64_t j, uint64_t d) {
      const uint64_t i = lo + j;
      sk[d] = keys[i];
      if (L.values_in) sv[d] = vin[i];
      if (L.ops) so[d] = b.ops[i];
      if (L.hashes_in) sh[d] = b.hashes[i];
      if (L.outcomes) sout[d] = WX_OUT_NONE;
      sidx[d] = uint32_t(j);
    }, &starts[k % slots]);
  };

  std::vector<BatchResult> per_shard(shards);
  auto run_shards = [&](uint64_t k) {
    char* const s = slot_of(k);
    const std::vector<uint64_t>& base = bases[k % slots];
    set.for_each_shard([&](uint32_t sh_id) {
      const uint64_t at = base[sh_id], cnt = base[sh_id + 1] - at;
      if (cnt == 0) return;
      const BatchResult r = set.unit(sh_id).run(call, L.run(s, at, cnt, sizeof(K), b.not_found), WX_MEM_HOST, nullptr);
      per_shard[sh_id].invalid += r.invalid;
      per_shard[sh_id].full += r.full;
    });
  };

  auto gather = [&](uint64_t k) {
    char* const s = slot_of(k);
    const uint64_t lo = k * piece, m = size_of(k);
    const K* const sv = reinterpret_cast<const K*>(s + L.values);
    const uint8_t* const so = reinterpret_cast<const uint8_t*>(s + L.op);
    const uint64_t* const sh = reinterpret_cast<const uint64_t*>(s + L.hashes);
    const uint8_t* const sout = reinterpret_cast<const uint8_t*>(s + L.outcome);
    const uint32_t* const sidx = reinterpret_cast<const uint32_t*>(s + L.index);
    // Each part gathers the elements it split, from its run in every shard, so its writes stay in its
    // own range of the caller's arrays (parts writing into the same cache lines would pass them back
    // and forth between cores for every element).
    const std::vector<uint64_t>& st = starts[k % slots];
    const std::vector<uint64_t>& base = bases[k % slots];
    const unsigned parts = unsigned(st.size() / shards);
    set.for_parts(m, parts, [&](unsigned p, uint64_t, uint64_t) {
      for (uint32_t sh_id = 0; sh_id < shards; ++sh_id) {
        const uint64_t from = st[uint64_t(p) * shards + sh_id];
        const uint64_t to = p + 1 < parts ? st[uint64_t(p + 1) * shards + sh_id] : base[sh_id + 1];
        for (uint64_t d = from; d < to; ++d) {
          const uint64_t i = lo + sidx[d];
          if (b.outcomes) b.outcomes[i] = sout[d];
          if (L.hashes_out) b.hashes_out[i] = sh[d];
          if (call == Call::batch) {
            if (so[d] == WX_OP_FIND && sout[d] == WX_OUT_FOUND) vout[i] = sv[d];
          } else if (L.values_out) {
            vout[i] = sv[d];
          }
        }
      }
    });
  };

  split(0);
  for (uint64_t k = 0; k < pieces; ++k) {
    std::exception_ptr failure;
    if (pieces == 1) {
      try {
        run_shards(k);
      } catch (...) {
        failure = std::current_exception();
      }
    } else {
      // The shards' calls on their own threads; this thread's host passes meanwhile.
      auto running = std::async(std::launch::async, [&, k] { run_shards(k); });
      std::exception_ptr host_failure;
      try {
        if (k + 1 < pieces) split(k + 1);
        if (k > 0) gather(k - 1);
      } catch (...) {
        host_failure = std::current_exception();
      }
      try {
        running.get();
      } catch (...) {
        failure = std::current_exception();
      }
      if (host_failure && !failure) failure = host_failure;
    }
    if (failure) {
      gather(k);  // the shards that ran still give their results back
      const uint64_t done = k * piece + size_of(k);
      if (b.outcomes && done < b.n) std::memset(b.outcomes + done, WX_OUT_NONE, b.n - done);
      set.record(per_shard);
      std::rethrow_exception(failure);
    }
  }
  gather(pieces - 1);
  return set.record(per_shard);
}

}  // namespace wx::shard
