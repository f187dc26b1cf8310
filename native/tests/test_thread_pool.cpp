// The copy and worker thread pool: every participant runs each job exactly once, whether jobs come
// back to back or after the threads went idle; parallel_for covers a range exactly once; a job's
// exception reaches the caller and the pool stays usable.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "check.hpp"
#include "cpu/thread_pool.hpp"

namespace {

// Runs `jobs` jobs with `pause` between them; each participant counts its runs per job.
void every_participant_once(wx::cpu::ThreadPool& pool, int jobs, std::chrono::microseconds pause) {
  const unsigned n = pool.size();
  std::vector<std::atomic<int>> runs(n);
  for (int j = 0; j < jobs; ++j) {
    for (auto& r : runs) r.store(0);
    pool.run([&](unsigned p) {
      CHECK(p < n);
      runs[p].fetch_add(1);
    });
    for (unsigned p = 0; p < n; ++p) CHECK_MSG(runs[p].load() == 1, "job %d: participant %u ran %d times", j, p, runs[p].load());
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
  }
}

void parallel_for_covers_once(wx::cpu::ThreadPool& pool) {
  for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(7), uint64_t(100000)}) {
    for (uint64_t grain : {uint64_t(1), uint64_t(3), uint64_t(4096)}) {
      std::vector<std::atomic<int>> hit(n);
      pool.parallel_for(n, grain, [&](uint64_t b, uint64_t e, unsigned) {
        CHECK(b < e && e <= n);
        for (uint64_t i = b; i < e; ++i) hit[i].fetch_add(1);
      });
      for (uint64_t i = 0; i < n; ++i) CHECK_MSG(hit[i].load() == 1, "n %llu grain %llu: element %llu hit %d times",
                                                  (unsigned long long)n, (unsigned long long)grain,
                                                  (unsigned long long)i, hit[i].load());
    }
  }
}

void errors_reach_the_caller(wx::cpu::ThreadPool& pool) {
  bool thrown = false;
  try {
    pool.run([&](unsigned p) {
      if (p == pool.size() - 1) throw std::runtime_error("worker failed");
    });
  } catch (const std::runtime_error&) {
    thrown = true;
  }
  CHECK(thrown);
  every_participant_once(pool, 10, std::chrono::microseconds(0));  // still usable
}

}  // namespace

int main() {
  for (unsigned participants : {1u, 2u, 5u, 16u}) {
    wx::cpu::ThreadPool pool(participants);
    CHECK(pool.size() >= 1 && pool.size() <= participants);
    every_participant_once(pool, 2000, std::chrono::microseconds(0));   // back to back
    every_participant_once(pool, 20, std::chrono::microseconds(2000));  // threads idle between jobs
    every_participant_once(pool, 200, std::chrono::microseconds(250));  // short gaps
    parallel_for_covers_once(pool);
    errors_reach_the_caller(pool);
  }
  std::printf("test_thread_pool: ok\n");
  return 0;
}
