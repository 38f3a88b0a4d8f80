#pragma once
// Draft-07 validation against a set of JSON Schema documents that may $ref each other by $id
// (valijson stays in one .cpp). Which documents a registry holds is its owner's business.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints {

struct SchemaViolation {
  std::string pointer;  // JSON pointer into the validated instance
  std::string message;
};

// Once its documents are added, several threads may validate at once (add and add_lazily are
// not to run beside anything else).
class SchemaRegistry {
 public:
  // Strings and object keys longer than this are not handed to a `pattern`, `patternProperties`
  // or `propertyNames` check: std::regex (used by valijson) overflows the stack on long input.
  static constexpr std::size_t pattern_length_limit = 8192;

  SchemaRegistry();
  ~SchemaRegistry();
  SchemaRegistry(const SchemaRegistry&) = delete;
  SchemaRegistry& operator=(const SchemaRegistry&) = delete;
  SchemaRegistry(SchemaRegistry&&) noexcept;

  // Adds a schema document; it is known by its file name and by its $id. Throws on a bad schema,
  // and on another document under a name or $id already registered. The registry keeps its own
  // copy (a document moved in is not copied).
  void add(std::string_view file_name, nlohmann::json schema);
  // The same, compiled when first used: a process that needs one schema of many pays for one.
  void add_lazily(std::string_view file_name, nlohmann::json schema);
  bool contains(std::string_view name_or_id) const;
  // A registered document, by file name or $id (as the registry keeps it: patterns and formats guarded, no
  // $id); nullptr if unknown.
  const nlohmann::json* document(std::string_view name_or_id) const;
  std::vector<std::string> names() const;

  // Validates against a registered schema (by file name or $id, optionally with a #fragment).
  std::vector<SchemaViolation> validate(std::string_view name_or_id, const nlohmann::json& instance) const;
  // How the first look (a registered schema compiled for valid instances, made at its first
  // validation; valijson's schema is compiled only for what it does not find valid) has judged
  // them so far: valid or invalid, or left to valijson.
  // For tests and benchmarks; all zero before it is made.
  struct FirstLookCounts {
    std::uint64_t valid = 0, invalid = 0, undecided = 0;
  };
  FirstLookCounts first_look_counts(std::string_view name_or_id_and_fragment) const;
  // Validates against a schema given inline: self-contained, or {"$ref": registered[#fragment]}.
  std::vector<SchemaViolation> validate_inline(const nlohmann::json& schema, const nlohmann::json& instance) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcp_hints
