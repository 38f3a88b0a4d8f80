#pragma once
// A registered schema compiled for a first look at instances: it says "valid" or "invalid" only
// where it reads the schema exactly as valijson does, and "undecided" anywhere else (an unknown
// keyword, a reference to another document, a number compared across kinds), so that valijson,
// which decides every failure and its words, is asked only about what the first look could not
// settle. Most instances are valid and are settled here without valijson's visitor. Private to the
// json role (schema_registry.cpp).
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints::detail {

enum class Verdict : std::uint8_t { valid, invalid, undecided };

// std::regex, here and in valijson, reads characters through a table libstdc++ fills as they are
// met; this fills it whole, before threads compile patterns at once.
void fill_regex_narrow_table();

class SchemaFirstLook {
 public:
  // `document`: a registered document as the registry keeps it (patterns and formats guarded, no $id);
  // `fragment`: the JSON pointer in it of the schema validated, empty for the whole document.
  SchemaFirstLook(const nlohmann::json& document, const std::string& fragment);
  ~SchemaFirstLook();
  SchemaFirstLook(const SchemaFirstLook&) = delete;
  SchemaFirstLook& operator=(const SchemaFirstLook&) = delete;

  Verdict judge(const nlohmann::json& instance) const;

  // How instances have been judged so far (tests and benchmarks read them).
  struct Counts {
    std::uint64_t valid = 0, invalid = 0, undecided = 0;
  };
  Counts counts() const;

 private:
  struct Node;
  struct Pattern;
  const Node* compile(const nlohmann::json& schema, int depth);
  // The schema a reference inside the document names; nullptr for any other reference.
  const nlohmann::json* referred_node(const std::string& reference) const;
  void find_referred(const nlohmann::json& node, int depth);
  Verdict judge(const Node& node, const nlohmann::json& value, int depth) const;
  Verdict judge_object(const Node& node, const nlohmann::json::object_t& object, int depth) const;
  Verdict judge_array(const Node& node, const nlohmann::json::array_t& array, int depth) const;
  Verdict judge_string(const Node& node, const std::string& text) const;
  Verdict judge_names(const Node& node, const nlohmann::json::object_t& object, int depth) const;
  Verdict judge_dependencies(const Node& node, const nlohmann::json& object, int depth) const;

  const nlohmann::json& document_;
  const bool whole_document_;
  const nlohmann::json* root_schema_ = nullptr;
  std::deque<Node> nodes_;
  std::unordered_map<const nlohmann::json*, const Node*> compiled_;
  std::unordered_set<const nlohmann::json*> referred_;  // the root, and every target of a reference
  const Node* root_ = nullptr;
  mutable std::atomic<std::uint64_t> valid_{0}, invalid_{0}, undecided_{0};
};

}  // namespace mcp_hints::detail
