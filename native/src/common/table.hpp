// The interface every table design implements. api.cpp validates arguments, serialises calls,
// stages host arrays for device tables, and dispatches here; it never knows a kernel.
#pragma once
#include <cstdint>

#include "common/error.hpp"
#include "wixlib.h"

namespace wx {

// Pointers of one bulk call. For a device table (Table::on_device() == true) every pointer is
// device memory (api.cpp has staged host arrays already); for a host table every pointer is host
// memory. Unused pointers are null: values_in may be null for insert (values = 0); outcomes may be
// null (the backend then still has to report failures by throwing after the batch).
struct Batch {
  const void* keys = nullptr;
  const void* values_in = nullptr;  // insert, insert_or_assign, batch (in/out for batch)
  void* values_out = nullptr;       // find, batch (same pointer as values_in for batch)
  const uint8_t* ops = nullptr;     // batch only: wx_op per element
  uint8_t* outcomes = nullptr;      // wx_outcome per element (contains: 1/0 found flag)
  uint64_t n = 0;
  uint64_t not_found = 0;           // find, find_hashed
  const uint64_t* hashes = nullptr; // find_hashed, insert_hashed: the keys' hashes (wx_hash_keys)
  uint64_t* hashes_out = nullptr;   // hash_keys
  void* stream = nullptr;           // cudaStream_t for device tables (never null there); all the
                                    // call's work on these arrays goes on it (staging orders its
                                    // copies against it with events)
};

// Counts a backend returns from a bulk call so api.cpp can build the status:
// invalid = elements with reserved keys, full = inserts that could not be placed.
struct BatchResult {
  uint64_t invalid = 0;
  uint64_t full = 0;
};

class Table {
 public:
  virtual ~Table() = default;
  virtual bool on_device() const = 0;
  virtual int device() const { return -1; }

  virtual BatchResult insert(const Batch& b) = 0;            // WX_OUT_INSERTED / PRESENT / FULL
  virtual BatchResult insert_or_assign(const Batch& b) = 0;  // WX_OUT_INSERTED / ASSIGNED / FULL
  virtual BatchResult find(const Batch& b) = 0;              // values_out; outcomes unused
  virtual BatchResult contains(const Batch& b) = 0;          // outcomes[i] = 1 present / 0 absent
  virtual BatchResult erase(const Batch& b) = 0;             // WX_OUT_ERASED / NOT_FOUND
  virtual BatchResult batch(const Batch& b) = 0;             // mixed ops, values in/out

  virtual uint64_t size() = 0;
  virtual uint64_t capacity() = 0;
  virtual void stats(wx_stats* s) = 0;
  virtual void clear() = 0;
  virtual void resize(uint64_t capacity) = 0;  // room for `capacity` keys at max load factor
  // Writes all pairs into keys/values (device memory for device tables); returns the count.
  // Caller guarantees room for size() pairs.
  virtual uint64_t retrieve_all(void* keys, void* values, void* stream) = 0;

  // Pre-hashed calls (wx_hash_keys / wx_find_hashed / wx_insert_hashed). hashes[i] is the table's
  // size-independent 64-bit hash of keys[i]; arrays live where the table's do. Kinds without them
  // keep these defaults.
  virtual void hash_keys(const void* /*keys*/, uint64_t* /*hashes*/, uint64_t /*n*/, void* /*stream*/) {
    fail(WX_ERR_UNSUPPORTED, "this table kind has no pre-hashed calls");
  }
  // As find(b), the home of element i taken from hashes[i].
  virtual BatchResult find_hashed(const Batch& /*b*/, const uint64_t* /*hashes*/) {
    fail(WX_ERR_UNSUPPORTED, "this table kind has no pre-hashed find");
  }
  // As insert(b), the home of element i taken from hashes[i].
  virtual BatchResult insert_hashed(const Batch& /*b*/, const uint64_t* /*hashes*/) {
    fail(WX_ERR_UNSUPPORTED, "this table kind has no pre-hashed insert");
  }
};

// Which bulk call a Batch is for, and the one place that dispatches it.
enum class Call { insert, insert_or_assign, find, contains, erase, batch, hash_keys, find_hashed, insert_hashed };

inline BatchResult run_call(Table& t, Call call, const Batch& b) {
  switch (call) {
    case Call::insert: return t.insert(b);
    case Call::insert_or_assign: return t.insert_or_assign(b);
    case Call::find: return t.find(b);
    case Call::contains: return t.contains(b);
    case Call::erase: return t.erase(b);
    case Call::batch: return t.batch(b);
    case Call::hash_keys: t.hash_keys(b.keys, b.hashes_out, b.n, b.stream); return {};
    case Call::find_hashed: return t.find_hashed(b, b.hashes);
    case Call::insert_hashed: return t.insert_hashed(b, b.hashes);
  }
  return {};
}

// Factories; each lives in its design's folder. GPU factories exist only in CUDA builds.
Table* make_cpu_table(const wx_config& config);
Table* make_glht_table(const wx_config& config);
Table* make_hive_table(const wx_config& config);

}  // namespace wx
