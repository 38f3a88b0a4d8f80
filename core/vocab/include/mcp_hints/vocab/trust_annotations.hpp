#pragma once
// The interest group's trust-annotations extension on results
// (_meta["io.modelcontextprotocol/trust-annotations"]): what a result claims once its content
// blocks are folded in, and re-deriving an evidenceRef's digest from the record it points to.
// Knows nothing of the wire.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/canonical.hpp"

namespace mcp_hints {

inline constexpr std::string_view kTrustAnnotationsExtension = "io.modelcontextprotocol/trust-annotations";

// What a result claims. Absence is no claim (nullopt), never an asserted false; a content
// block's claim may strengthen the result's, never weaken it.
struct ResultTrust {
  std::optional<bool> sensitive, untrusted;
  std::vector<nlohmann::json> evidence;  // every evidenceRef, result first
};
ResultTrust read_result_trust(const nlohmann::json& result);

// "sha256:" and the lowercase hex SHA-256 of the canonical bytes.
std::string evidence_digest(const nlohmann::json& record, std::string_view canonicalization);
// Whether an evidenceRef ({digest, canonicalization, ...}) matches the record.
bool evidence_matches(const nlohmann::json& record, const nlohmann::json& evidence_ref);

}  // namespace mcp_hints
