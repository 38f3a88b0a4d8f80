// Negative control for Design.LibraryMessagesNameNoFlag: two messages that name a flag, among
// what does not count. A comment may say "--in-a-comment"; /* "--in-a-block" */ neither.
#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

void leak(bool raw) {
  const char quote = '"';                                      // a character literal starts no string
  const char* range = "2025-06-18--2025-11-25 and --- rules";  // no word starts with --
  if (raw)
    throw Error(Error::Category::bad_input, R"(raw strings count:
  --raw-flag)");
  throw Error(Error::Category::bad_input, std::string(1, quote) + range + ": give --frobnicate");
}

}  // namespace mcp_hints
