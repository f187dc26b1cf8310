// A persistent pool of worker threads owned by one CPU table, so bulk calls do not pay for thread
// creation. The calling thread takes part as participant 0.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wx::cpu {

class ThreadPool {
 public:
  // `participants` counts the caller too (1 = no worker threads). If the OS refuses threads the pool
  // runs with the ones it got.
  explicit ThreadPool(unsigned participants);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return unsigned(workers_.size()) + 1; }

  // Runs fn(participant) once on every participant and returns when all are done. An exception
  // thrown by fn is rethrown here (the first one).
  void run(const std::function<void(unsigned)>& fn);

  // Splits [0, n) into blocks of `grain` handed out dynamically; fn(begin, end, participant).
  void parallel_for(uint64_t n, uint64_t grain, const std::function<void(uint64_t, uint64_t, unsigned)>& fn);

 private:
  void worker_loop(unsigned index);
  void call(unsigned index);

  std::mutex mu_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void(unsigned)>* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

}  // namespace wx::cpu
