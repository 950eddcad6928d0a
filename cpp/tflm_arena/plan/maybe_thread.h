// Internal (host): helper threads of the planners.
//
// MaybeThread runs one job on a new thread, or on the calling thread when
// no thread can be started (a job then always runs, and the caller's
// result does not depend on threads). The destructor waits for the job, so
// an early return cannot leave it running on the caller's data.
#ifndef TFLM_ARENA_PLAN_MAYBE_THREAD_H_
#define TFLM_ARENA_PLAN_MAYBE_THREAD_H_

#include <system_error>
#include <thread>

namespace tflm_arena {
namespace plan_internal {

// True on a thread that shares the cores with other planning threads (a
// worker of strategy "best"): planners there start no helper threads of
// their own. SharedWorkerScope sets it for its lifetime.
inline bool& SharedWorkerFlag() {
  thread_local bool flag = false;
  return flag;
}
inline bool OnSharedWorker() { return SharedWorkerFlag(); }
class SharedWorkerScope {
 public:
  SharedWorkerScope() : was_(SharedWorkerFlag()) { SharedWorkerFlag() = true; }
  SharedWorkerScope(const SharedWorkerScope&) = delete;
  SharedWorkerScope& operator=(const SharedWorkerScope&) = delete;
  ~SharedWorkerScope() { SharedWorkerFlag() = was_; }

 private:
  bool was_;
};

class MaybeThread {
 public:
  template <typename F>
  explicit MaybeThread(F f) {
    try {
      thread_ = std::thread(f);
    } catch (const std::system_error&) {
      f();
    }
  }
  MaybeThread(const MaybeThread&) = delete;
  MaybeThread& operator=(const MaybeThread&) = delete;
  ~MaybeThread() { Join(); }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
};

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_MAYBE_THREAD_H_
