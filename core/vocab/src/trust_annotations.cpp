#include "mcp_hints/vocab/trust_annotations.hpp"

#include "mcp_hints/json/canonical.hpp"

#include <nettle/sha2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace mcp_hints {

using json = nlohmann::json;

namespace {

const json* extension_of(const json& holder) {
  if (!holder.is_object() || !holder.contains("_meta") || !holder["_meta"].is_object()) return nullptr;
  auto it = holder["_meta"].find(std::string(kTrustAnnotationsExtension));
  return it != holder["_meta"].end() && it->is_object() ? &*it : nullptr;
}

// Folds one claim in: true wins over false, and false over no claim.
void strengthen(std::optional<bool>& claim, const json& annotation, const char* key) {
  auto it = annotation.find(key);
  if (it == annotation.end() || !it->is_boolean()) return;
  claim = (claim && *claim) || it->get<bool>();
}

void fold(ResultTrust& trust, const json& annotation) {
  strengthen(trust.sensitive, annotation, "sensitive");
  strengthen(trust.untrusted, annotation, "untrusted");
  if (annotation.contains("evidenceRef") && annotation["evidenceRef"].is_object())
    trust.evidence.push_back(annotation["evidenceRef"]);
}

}  // namespace

ResultTrust read_result_trust(const json& result) {
  ResultTrust trust;
  if (const json* annotation = extension_of(result)) fold(trust, *annotation);
  if (result.is_object() && result.contains("content") && result["content"].is_array())
    for (const auto& block : result["content"])
      if (const json* annotation = extension_of(block)) fold(trust, *annotation);
  return trust;
}

std::vector<MessageClaim> read_message_claims(const json& message, const Vocabulary& vocabulary,
                                              std::span<const VocabularyRevision* const> revisions) {
  std::vector<MessageClaim> claims;
  auto read = [&](const Field& field, const json& holder, const std::string& base) {
    const json* value = find_member(holder, field.tokens);
    if (!value) return;
    const std::string pointer = base + field.pointer_text;
    const bool many = field.set_valued && value->is_array();
    for (std::size_t i = 0; i < (many ? value->size() : 1); ++i) {
      const json& element = many ? (*value)[i] : *value;
      if (const auto meant = field.facet_values(element))
        for (const auto& fv : *meant)
          claims.push_back({&field, many ? pointer + "/" + std::to_string(i) : pointer, &element, fv});
    }
  };
  for (const VocabularyRevision* revision : revisions) {
    if (!revision) continue;
    for (const Field* field : vocabulary.fields_of(*revision)) {
      if (!field->is_message_field) continue;
      read(*field, message, "");
      const auto& on = field->carried_on;
      if (std::find(on.begin(), on.end(), "content block") == on.end() || !message.is_object() ||
          !message.contains("content") || !message["content"].is_array())
        continue;
      for (std::size_t i = 0; i < message["content"].size(); ++i)
        read(*field, message["content"][i], "/content/" + std::to_string(i));
    }
  }
  return claims;
}

const Field* annotation_field(const Vocabulary& vocabulary, std::string_view key) {
  const std::string pointer = "/_meta/annotations/" + std::string(key);
  for (const auto& field : vocabulary.fields())
    if (field.is_message_field && field.pointer_text == pointer) return &field;
  return nullptr;
}

int claim_rank(const Vocabulary& vocabulary, const Field& field, const json& value) {
  int rank = -1;
  if (const auto meant = field.facet_values(value))
    for (const auto& fv : *meant) rank = std::max(rank, vocabulary.facet(fv.facet).rank(fv.value));
  return rank;
}

std::string evidence_digest(const json& record, std::string_view canonicalization) {
  const std::string bytes = canonical_bytes(record, canonicalization);
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&context, sizeof digest, digest);
  std::string out = "sha256:";
  static const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < sizeof digest; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 0xf];
  }
  return out;
}

bool evidence_matches(const json& record, const json& evidence_ref) {
  if (!evidence_ref.is_object() || !evidence_ref.contains("digest") || !evidence_ref["digest"].is_string() ||
      !evidence_ref.contains("canonicalization") || !evidence_ref["canonicalization"].is_string())
    return false;
  return evidence_digest(record, evidence_ref["canonicalization"].get<std::string>()) ==
         evidence_ref["digest"].get<std::string>();
}

}  // namespace mcp_hints
