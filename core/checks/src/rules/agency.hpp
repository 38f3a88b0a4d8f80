#pragma once
// SEP-1938 agencyHint: an agentic, destructive tool declares a confirmation; a tool that says it
// runs an agent loop declares agencyHint true.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/json/member.hpp"
#include "support.hpp"

namespace mcp_hints::rules::agency {

inline void agency_destructive_unconfirmed(const ToolContext& ctx, const FindingSink& sink) {
  const Claim* agency = ctx.hints.asserting("agency", true);
  const Claim* destructive = ctx.hints.asserting("effect", "delete");
  if (!agency || !destructive || first_of(ctx.hints, "confirmation", {"single", "multi"})) return;
  sink.report(agency->source.pointer(), "agencyHint is true and " + said(*destructive) +
                                            ": an agentic, destructive tool is a candidate for stricter "
                                            "human-in-the-loop control, yet no confirmation is declared");
}

// The words of a name, split at separators and camelCase humps, lower case ("ResearchAgent",
// "research_agent" -> research, agent).
inline std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    const bool hump = std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]));
    if (!std::isalnum(c) || hump) words.emplace_back();
    if (std::isalnum(c)) words.back() += static_cast<char>(std::tolower(c));
  }
  std::erase(words, std::string());
  return words;
}

// Whether text holds one of a few stems (lower-case letters, two or more), in any case. Most
// tools say none of them: a table of the stems' first two letters, lower-cased, rules out almost
// every place in one look, and only where it does not are the stems compared.
class StemSearch {
 public:
  StemSearch(std::initializer_list<std::string_view> stems) : stems_(stems) {
    for (std::size_t i = 0; i < stems_.size(); ++i) {
      const std::string_view stem = stems_[i];
      for (char c : {stem[0], static_cast<char>(stem[0] - 'a' + 'A')}) first_[static_cast<unsigned char>(c)] = true;
      pairs_[pair(stem[0], stem[1])] = true;
#if defined(__SSE2__)
      // Each pair of first letters once.
      const auto same_lead = [&](std::string_view earlier) { return earlier.substr(0, 2) == stem.substr(0, 2); };
      if (std::none_of(stems_.begin(), stems_.begin() + static_cast<std::ptrdiff_t>(i), same_lead))
        lead_bytes_.push_back(LeadBytes{_mm_set1_epi8(stem[0]), _mm_set1_epi8(stem[1])});
#endif
    }
  }
  bool in(std::string_view text) const {
    std::size_t i = 0;
#if defined(__SSE2__)
    // Sixteen places at a time: a letter ORed with 0x20 is its lower case (and only a letter
    // becomes a lower-case letter so), so two comparisons per stem, of a place and of the byte
    // after it, find every place either case of its first two letters stands; only those places
    // are looked at.
    const __m128i fold = _mm_set1_epi8(0x20);
    while (i + 17 <= text.size()) {  // the bytes after sixteen places
      const char* const bytes = text.data() + i;
      const __m128i first = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes)), fold);
      const __m128i second = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 1)), fold);
      __m128i hit = _mm_setzero_si128();
      for (const LeadBytes& lead : lead_bytes_)
        hit = _mm_or_si128(hit, _mm_and_si128(_mm_cmpeq_epi8(first, lead.first), _mm_cmpeq_epi8(second, lead.second)));
      for (auto places = static_cast<unsigned>(_mm_movemask_epi8(hit)); places != 0; places &= places - 1)
        if (at(text, i + static_cast<std::size_t>(__builtin_ctz(places)))) return true;
      i += 16;
    }
#endif
    for (; i + 1 < text.size(); ++i)
      if (at(text, i)) return true;
    return false;
  }

 private:
  // Whether a stem starts at text[i] (i + 1 < text.size()).
  bool at(std::string_view text, std::size_t i) const {
    if (!first_[static_cast<unsigned char>(text[i])] || !pairs_[pair(text[i], text[i + 1])]) return false;
    for (std::string_view stem : stems_)
      if (text.size() - i >= stem.size() &&
          std::equal(stem.begin(), stem.end(), text.begin() + static_cast<std::ptrdiff_t>(i),
                     [](char s, char c) { return s == lower(c); }))
        return true;
    return false;
  }
  static char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
  static std::size_t pair(char a, char b) {
    return static_cast<unsigned char>(lower(a)) * 256u + static_cast<unsigned char>(lower(b));
  }
  std::vector<std::string_view> stems_;
#if defined(__SSE2__)
  struct LeadBytes {
    __m128i first, second;
  };
  std::vector<LeadBytes> lead_bytes_;  // the stems' first two letters, each pair once, sixteen times
#endif
  std::array<bool, 256> first_{};
  std::vector<bool> pairs_ = std::vector<bool>(256 * 256);
};

// What in a tool's name or description says it runs its own agent loop (SEP-1938: "an internal
// 'agent loop' (e.g., plan-act-observe cycles, tool-chaining, or autonomous retries)"), with the
// pointer it stands at; empty when nothing does. A name says it when it ends in "agent" (not
// "user agent"); a description, with one of a few phrases that describe the tool itself.
inline std::pair<std::string, std::string> agent_loop_evidence(const nlohmann::json& tool) {
  if (!tool.is_object()) return {};
  static const StemSearch agent{"agent"}, loop_words{"agent", "autonom", "plan", "chain"};
  const nlohmann::json* name = member(tool, "name");
  if (name && name->is_string() && agent.in(name->get_ref<const std::string&>())) {
    const auto words = name_words(name->get_ref<const std::string&>());
    if (words.size() >= 2 && words.back() == "agent" && words[words.size() - 2] != "user")
      return {"/name", "its name " + shown(*name) + " ends in agent"};
  }
  const std::string* description = string_member(tool, "description");
  if (!description || !loop_words.in(*description)) return {};
  // The description in lower case, each run of other characters one space, and a space at each
  // end: a phrase is then found with its word boundaries as spaces.
  std::string squeezed;
  squeezed.reserve(description->size() + 2);
  squeezed += ' ';
  for (const char c : *description) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte))
      squeezed += static_cast<char>(std::tolower(byte));
    else if (squeezed.back() != ' ')
      squeezed += ' ';
  }
  if (squeezed.back() != ' ') squeezed += ' ';
  // Phrases that describe the tool itself: anywhere, or only where the description starts ("An
  // agent that ..."); "agentic" alone is not one ("Sentry's agentic onboarding UI", "designed for
  // agentic tools" describe something else).
  auto quoted = [](std::string_view phrase) {
    return "its description says \"" + std::string(phrase.substr(1, phrase.size() - 2)) + "\"";
  };
  static constexpr std::string_view anywhere[] = {" agent loop ",       " autonomously ",       " autonomous retries ",
                                                  " plan act observe ", " plans and executes ", " tool chaining "};
  static constexpr std::string_view openings[] = {" an agent ", " agent that ", " an ai agent ", " ai agent that ",
                                                  " an agentic "};
  for (const std::string_view phrase : anywhere)
    if (squeezed.find(phrase) != std::string::npos) return {"/description", quoted(phrase)};
  for (const std::string_view opening : openings)
    if (squeezed.starts_with(opening)) return {"/description", quoted(opening)};
  return {};
}

inline void agency_undeclared(const ToolContext& ctx, const FindingSink& sink) {
  if (ctx.hints.asserting("agency", true)) return;
  const auto [pointer, evidence] = agent_loop_evidence(ctx.tool);
  if (evidence.empty()) return;
  const Claim* denied = ctx.hints.asserting("agency", false);
  sink.report(denied ? denied->source.pointer() : pointer,
              evidence + " but " + (denied ? said(*denied) + " says it is not agentic" : "it declares no agencyHint") +
                  ": a tool with an internal agent loop is expected to declare agencyHint true");
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"agency.destructive-unconfirmed", Level::info, "SEP-1938: Guidance for clients",
      "an agentic tool with a destructive effect declares a confirmation"},
     &agency_destructive_unconfirmed},
    {{"agency.undeclared", Level::warning, "SEP-1938: Guidance for tool authors",
      "a tool whose name or description says it runs its own agent loop (a name ending in agent; a description "
      "opening with \"An agent that\", or saying autonomously, plan-act-observe, tool-chaining...) declares "
      "agencyHint true"},
     &agency_undeclared},
});

}  // namespace mcp_hints::rules::agency
