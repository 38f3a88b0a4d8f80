#pragma once
// Bounds on wall-clock time in tests are multiplied by kSlowdown: a sanitizer build (make sanitize,
// make sanitize-thread) runs every program several times slower, so a bound a plain build keeps
// with room to spare it may not.

#include <chrono>

namespace test_support {

// gcc says which sanitizer it builds with by a macro, clang by __has_feature.
#if defined(__has_feature)
#define MCP_HINTS_HAS_FEATURE(feature) __has_feature(feature)
#else
#define MCP_HINTS_HAS_FEATURE(feature) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || MCP_HINTS_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#if defined(__SANITIZE_THREAD__) || MCP_HINTS_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
inline constexpr bool kUnderSanitizers = kAddressSanitizer || kThreadSanitizer;
inline constexpr double kSlowdown = kUnderSanitizers ? 4 : 1;
// Bounds on memory hold in the plain build only: AddressSanitizer's allocator keeps freed memory in
// quarantine and pads every block, and ThreadSanitizer shadows every byte, so their peaks say
// nothing of ours.
inline constexpr bool kMemoryMeasurable = !kUnderSanitizers;

inline constexpr double bound_seconds(double seconds) { return seconds * kSlowdown; }
// The same for a window or a wait given as a duration.
inline constexpr std::chrono::milliseconds bound(std::chrono::milliseconds window) {
  return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(window.count() * kSlowdown));
}

}  // namespace test_support

// A sweep runs code that other tests run under the sanitizers too, over and over, to check logic
// (every broken variant, every scenario): that logic is checked by make test, and under the
// sanitizers the sweep would only repeat the same paths for minutes. Skipped there, with its reason
// (the empty branch keeps an `else` after it from binding to the macro's `if`).
#define MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(reason) \
  if (!test_support::kUnderSanitizers) {              \
  } else                                              \
    GTEST_SKIP() << "a sweep of logic, run by make test; under the sanitizers " << reason

// A sweep whose code runs on one thread (the catalog reader's, over thousands of generated and
// damaged catalogs) gives ThreadSanitizer nothing to see: it would only repeat, minutes long under
// its slowdown, what make test and make sanitize run. Skipped there, with its reason.
#define MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER(reason) \
  if (!test_support::kThreadSanitizer) {                               \
  } else                                                               \
    GTEST_SKIP() << "a sweep on one thread, run by make test and make sanitize; under ThreadSanitizer " << reason
