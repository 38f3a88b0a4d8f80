#pragma once
// The interest group's trust-annotations extension on results
// (_meta["io.modelcontextprotocol/trust-annotations"]): what a result claims once its content
// blocks are folded in, and re-deriving an evidenceRef's digest from the record it points to.
// Also: every claim a message's trust annotations make, read with the crosswalk's message fields.
// Knows nothing of the wire.
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/canonical.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

inline constexpr std::string_view kTrustAnnotationsExtension = "io.modelcontextprotocol/trust-annotations";

// What a result claims. Absence is no claim (nullopt), never an asserted false; a content
// block's claim may strengthen the result's, never weaken it.
struct ResultTrust {
  std::optional<bool> sensitive, untrusted;
  std::vector<nlohmann::json> evidence;  // every evidenceRef, result first
};
ResultTrust read_result_trust(const nlohmann::json& result);

// One claim of a message's trust annotations, as the crosswalk reads it.
struct MessageClaim {
  const Field* field = nullptr;
  std::string pointer;                  // where it stands in the message ("/content/0/_meta/...")
  const nlohmann::json* raw = nullptr;  // the value as written (one element of a set)
  FacetValue claim;
};
// Every claim the message fields of `revisions` make in a result or request: each field at its
// pointer and, for a field carried on content blocks, in each block too. A value the crosswalk
// does not know is no claim (the schema check reports it), nor is one that claims nothing.
std::vector<MessageClaim> read_message_claims(const nlohmann::json& message, const Vocabulary& vocabulary,
                                              std::span<const VocabularyRevision* const> revisions);

// The crosswalk's field of a trust annotation requests and results carry in
// `_meta.annotations` (#711, SEP-1913: sensitiveHint, openWorldHint...), or nullptr.
const Field* annotation_field(const Vocabulary& vocabulary, std::string_view key);
// How cautious a claim a message field's value makes: the rank, on its facet's scale, of the most
// cautious facet value it asserts; -1 when it claims nothing or is unknown (never a downgrade).
int claim_rank(const Vocabulary& vocabulary, const Field& field, const nlohmann::json& value);

// "sha256:" and the lowercase hex SHA-256 of the canonical bytes.
std::string evidence_digest(const nlohmann::json& record, std::string_view canonicalization);
// Whether an evidenceRef ({digest, canonicalization, ...}) matches the record.
bool evidence_matches(const nlohmann::json& record, const nlohmann::json& evidence_ref);

}  // namespace mcp_hints
