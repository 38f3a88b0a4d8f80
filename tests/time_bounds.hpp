#pragma once
// Bounds on wall-clock time in tests are multiplied by kSlowdown: a sanitizer build (make sanitize)
// runs every program several times slower, so a bound a plain build keeps with room to spare it
// may not.

namespace test_support {

#if defined(__SANITIZE_ADDRESS__)  // gcc
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // clang
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif
inline constexpr double kSlowdown = kAddressSanitizer ? 4 : 1;
// Bounds on memory hold in the plain build only: AddressSanitizer's allocator keeps freed memory in
// quarantine and pads every block, so its peak says nothing of ours.
inline constexpr bool kMemoryMeasurable = !kAddressSanitizer;

inline constexpr double bound_seconds(double seconds) { return seconds * kSlowdown; }

}  // namespace test_support
