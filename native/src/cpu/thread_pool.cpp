#include "cpu/thread_pool.hpp"

#include <algorithm>
#include <system_error>

namespace wx::cpu {

ThreadPool::ThreadPool(unsigned participants) {
  for (unsigned i = 1; i < participants; ++i) {
    try {
      workers_.emplace_back([this, i] { worker_loop(i); });
    } catch (const std::system_error&) {
      break;  // fewer threads than asked for: still correct, only slower
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::call(unsigned index) {
  try {
    (*job_)(index);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_) error_ = std::current_exception();
  }
}

void ThreadPool::worker_loop(unsigned index) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      start_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    call(index);
    std::lock_guard<std::mutex> lock(mu_);
    if (--pending_ == 0) done_cv_.notify_one();
  }
}

void ThreadPool::run(const std::function<void(unsigned)>& fn) {
  if (workers_.empty()) {
    fn(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    job_ = &fn;
    pending_ = unsigned(workers_.size());
    error_ = nullptr;
    ++generation_;
  }
  start_cv_.notify_all();
  call(0);
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return pending_ == 0; });
  job_ = nullptr;
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void ThreadPool::parallel_for(uint64_t n, uint64_t grain, const std::function<void(uint64_t, uint64_t, unsigned)>& fn) {
  if (n == 0) return;
  grain = std::max<uint64_t>(grain, 1);
  if (n <= grain || workers_.empty()) {
    fn(0, n, 0);
    return;
  }
  std::atomic<uint64_t> next{0};
  run([&](unsigned p) {
    for (;;) {
      uint64_t b = next.fetch_add(grain, std::memory_order_relaxed);
      if (b >= n) return;
      fn(b, std::min(n, b + grain), p);
    }
  });
}

}  // namespace wx::cpu
