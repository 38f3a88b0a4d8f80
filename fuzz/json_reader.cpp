// Any bytes, read as a document in memory by the fast reader (nlohmann's parser where it gives
// up) and by nlohmann's parser alone: the same value, of the same kinds, with the same repeated
// members at the same places, or the same error. A difference aborts, and libFuzzer keeps the input.
#include <cstdlib>
#include <string>

#include "fuzz_support.hpp"
#include "mcp_hints/json/input.hpp"

namespace {

std::string outcome(std::string_view text, mcp_hints::JsonReader reader) {
  mcp_hints::InputLimits limits;
  limits.max_depth = 32;
  limits.max_string = 64;
  try {
    const auto document = mcp_hints::parse_json_document(text, limits, reader);
    // The CBOR of a value tells an integer from a float, and a signed integer from an unsigned one.
    const auto cbor = nlohmann::json::to_cbor(document.value);
    std::string out(cbor.begin(), cbor.end());
    for (const auto& d : document.duplicates) {
      const auto earlier = nlohmann::json::to_cbor(d.earlier);
      out += "|" + d.pointer + "|" + std::string(earlier.begin(), earlier.end()) + "|" +
             std::to_string(d.later_at.line) + ":" + std::to_string(d.later_at.column);
    }
    return out;
  } catch (const mcp_hints::InputError& e) {
    return std::string("error: ") + e.what() + " " + e.pointer() + " " + std::to_string(e.line());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = mcp_hints::fuzz::text_of(data, size);
  if (outcome(text, mcp_hints::JsonReader::fastest) != outcome(text, mcp_hints::JsonReader::nlohmann_only))
    std::abort();
  return 0;
}
