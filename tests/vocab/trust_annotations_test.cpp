// The trust-annotations extension: the interest group's worked cases (their digests re-derived
// from the records under both canonicalizations, and the union of result and content-block
// claims), and the canonical forms on values the cases do not cover.
#include "mcp_hints/vocab/trust_annotations.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

// The interest group's worked cases, kept as a fixture so the check runs wherever the tests do;
// a test below says when the reference copy beside the project has moved on.
json worked_cases() {
  return test_support::read_json(test_support::fixture("ext-tool-annotations/trust-annotations-examples.json"));
}

TEST(TrustAnnotations, TheFixtureIsTheReferenceCopy) {
  const auto reference =
      test_support::shared_dir() / "reference" / "ext-tool-annotations" / "trust-annotations-examples.json";
  if (!std::filesystem::exists(reference)) GTEST_SKIP() << "no ../shared/reference beside the project";
  EXPECT_EQ(worked_cases(), test_support::read_json(reference));
}

TEST(TrustAnnotations, EveryWorkedCaseDigestIsReDerivedFromItsRecord) {
  const json doc = worked_cases();
  std::size_t verified = 0;
  for (const auto& c : doc["cases"]) {
    for (const char* wire : {"wire", "wire_cbor", "wire_jcs"}) {
      if (!c.contains(wire)) continue;
      for (const char* holder : {"_meta", "content_block_meta"}) {
        if (!c[wire].contains(holder)) continue;
        const json& annotation = c[wire][holder][std::string(kTrustAnnotationsExtension)];
        if (!annotation.contains("evidenceRef")) continue;
        const json& ref = annotation["evidenceRef"];
        EXPECT_EQ(evidence_digest(c["record"], ref["canonicalization"].get<std::string>()),
                  ref["digest"].get<std::string>())
            << c["id"] << " " << wire;
        EXPECT_TRUE(evidence_matches(c["record"], ref)) << c["id"];
        // Any change to the record breaks the match.
        json changed = c["record"];
        changed["tampered"] = true;
        EXPECT_FALSE(evidence_matches(changed, ref)) << c["id"];
        ++verified;
      }
    }
  }
  EXPECT_EQ(verified, 9u);  // eight cases, one of them under both canonicalizations
}

TEST(TrustAnnotations, ClaimsUnionResultAndContentBlocksAndAbsenceIsNoClaim) {
  const json doc = worked_cases();
  for (const auto& c : doc["cases"]) {
    if (!c.contains("wire")) continue;
    json result = {{"content", json::array({{{"type", "text"}, {"text", "x"}}})}};
    if (c["wire"].contains("_meta")) result["_meta"] = c["wire"]["_meta"];
    if (c["wire"].contains("result_meta")) result["_meta"] = c["wire"]["result_meta"];
    if (c["wire"].contains("content_block_meta")) result["content"][0]["_meta"] = c["wire"]["content_block_meta"];
    const auto trust = read_result_trust(result);
    const std::string id = c["id"];
    if (c.contains("effective_sensitive")) {
      EXPECT_EQ(trust.sensitive, c["effective_sensitive"].get<bool>()) << id;
    }
    if (id == "A2_public_repo_readme" || id.starts_with("B")) {
      EXPECT_FALSE(trust.sensitive.has_value()) << id;  // no claim
    }
    if (id == "A1_public_repo_draft_advisory" || id == "A3_public_repo_collaborator_roster" ||
        id == "A4_unknown_or_mixed_provenance") {
      EXPECT_EQ(trust.sensitive, true) << id;
    }
    EXPECT_FALSE(trust.evidence.empty()) << id;
  }
  // A block may strengthen, never weaken.
  const std::string K(kTrustAnnotationsExtension);
  const json weaker = {
      {"_meta", {{K, {{"sensitive", true}}}}},
      {"content", {{{"type", "text"}, {"_meta", {{K, {{"sensitive", false}, {"untrusted", false}}}}}}}}};
  EXPECT_EQ(read_result_trust(weaker).sensitive, true);
  EXPECT_EQ(read_result_trust(weaker).untrusted, false);
  EXPECT_FALSE(read_result_trust(json::array()).sensitive.has_value());
  EXPECT_FALSE(
      read_result_trust({{"_meta", {{K, {{"sensitive", "yes"}}}}}}).sensitive.has_value());  // malformed: no claim
}

TEST(TrustAnnotations, CanonicalFormsFollowTheirRfcs) {
  // JCS: members by UTF-16 code units (U+10000 sorts before U+E000 there, after it in UTF-8).
  const json members = {{"\xee\x80\x80", 1}, {"\xf0\x90\x80\x80", 2}, {"b", true}, {"a", nullptr}};
  EXPECT_EQ(canonical_bytes(members, "jcs/rfc8785"),
            "{\"a\":null,\"b\":true,\"\xf0\x90\x80\x80\":2,\"\xee\x80\x80\":1}");
  EXPECT_EQ(canonical_bytes(json("tab\there \"q\" \x01"), "jcs/rfc8785"), "\"tab\\there \\\"q\\\" \\u0001\"");
  EXPECT_EQ(canonical_bytes(json::array({1, -2, "x"}), "jcs/rfc8785"), "[1,-2,\"x\"]");
  // CBOR: shortest heads, keys by encoded bytes (a shorter key first).
  EXPECT_EQ(canonical_bytes(json(23), "cbor/rfc8949"), std::string("\x17"));
  EXPECT_EQ(canonical_bytes(json(24), "cbor/rfc8949"), std::string("\x18\x18"));
  EXPECT_EQ(canonical_bytes(json(1000), "cbor/rfc8949"), std::string("\x19\x03\xe8"));
  EXPECT_EQ(canonical_bytes(json(-1), "cbor/rfc8949"), std::string("\x20"));
  EXPECT_EQ(canonical_bytes(json::parse(R"({"bb":1,"c":2})"), "cbor/rfc8949"), std::string("\xa2\x61"
                                                                                           "c"
                                                                                           "\x02\x62"
                                                                                           "bb"
                                                                                           "\x01"));
  EXPECT_EQ(canonical_bytes(json::parse("[true,false,null]"), "cbor/rfc8949"), std::string("\x83\xf5\xf4\xf6"));
  // Outside the profile, or an unknown canonicalization: refused.
  EXPECT_THROW(canonical_bytes(json(1.5), "jcs/rfc8785"), CanonicalizationError);
  EXPECT_THROW(canonical_bytes(json(1.5), "cbor/rfc8949"), CanonicalizationError);
  EXPECT_THROW(canonical_bytes(json(1), "json/sorted"), CanonicalizationError);
  EXPECT_FALSE(evidence_matches(json(1), json::object()));
}

}  // namespace
