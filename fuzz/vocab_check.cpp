// A draft schema of any bytes, as `vocab check` reads it: parse_json within its 64 MiB limit, then
// check_draft_schema against the built-in vocabularies.
#include "fuzz_support.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/vocab/crosswalk.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  try {
    InputLimits limits;
    limits.max_bytes = std::size_t{64} << 20;
    const auto draft = parse_json(fuzz::text_of(data, size), limits);
    for (const auto& finding : check_draft_schema(Vocabulary::builtin(), draft))
      (void)nlohmann::json{{"kind", finding.kind}, {"pointer", finding.pointer}, {"message", finding.message}}.dump(
          -1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const Error&) {
  }
  return 0;
}
