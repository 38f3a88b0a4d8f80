#include "mcp_hints/wire/protocol.hpp"

#include "mcp_hints/json/member.hpp"

#include <algorithm>

namespace mcp_hints {

using json = nlohmann::json;

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
  return versions;
}

const std::vector<std::string>& stateless_protocol_versions() {
  static const std::vector<std::string> versions = {"2026-07-28"};
  return versions;
}

std::vector<std::string> all_protocol_versions() {
  std::vector<std::string> all = stateless_protocol_versions();
  const auto& legacy = supported_protocol_versions();
  all.insert(all.end(), legacy.begin(), legacy.end());
  return all;
}

// Revisions are dates; every one from the first stateless revision on is stateless.
bool is_stateless_revision(const std::string& version) { return version >= stateless_protocol_versions().back(); }

std::string to_string(ProtocolEra era) { return era == ProtocolEra::stateless ? "stateless" : "legacy"; }

bool names_protocol_version(const json& params) {
  const json* meta = member(params, "_meta");
  return meta && member(*meta, kProtocolVersionMeta);
}

std::string result_type(const json& result) {
  if (result.is_object() && result.contains("resultType") && result["resultType"].is_string())
    return result["resultType"].get<std::string>();
  return "complete";
}

std::optional<ProtocolChoice> parse_protocol_choice(const std::string& text) {
  if (text == "auto") return ProtocolChoice{EraChoice::automatic, ""};
  if (text == "legacy") return ProtocolChoice{EraChoice::legacy, ""};
  if (text == "stateless") return ProtocolChoice{EraChoice::stateless, ""};
  const auto all = all_protocol_versions();
  if (std::find(all.begin(), all.end(), text) == all.end()) return std::nullopt;
  return ProtocolChoice{is_stateless_revision(text) ? EraChoice::stateless : EraChoice::legacy, text};
}

std::string protocol_choice_words() {
  std::string words = "auto, legacy, stateless";
  for (const auto& v : all_protocol_versions()) words += ", " + v;
  return words;
}

}  // namespace mcp_hints
