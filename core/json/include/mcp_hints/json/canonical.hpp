#pragma once
// Canonical encodings of a JSON value, so that a digest of a record is the same wherever it is
// taken: JCS (RFC 8785) and CBOR core deterministic encoding (RFC 8949).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

// A record that cannot be canonicalized: outside the value profile (floats), or an unknown
// canonicalization.
class CanonicalizationError : public Error {
 public:
  explicit CanonicalizationError(const std::string& what) : Error(Category::bad_input, what) {}
};

// The canonical bytes of a record: "jcs/rfc8785" (JSON Canonicalization Scheme) or
// "cbor/rfc8949" (CBOR core deterministic encoding). The profile is the extension's: strings,
// arrays, string-keyed maps, booleans, null and integers.
std::string canonical_bytes(const nlohmann::json& record, std::string_view canonicalization);

}  // namespace mcp_hints
