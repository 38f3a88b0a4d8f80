#include "mcp_hints/vocab/traceability.hpp"

#include <algorithm>
#include <set>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"

namespace mcp_hints {
using json = nlohmann::json;

TraceSentence::Status TraceSentence::status() const {
  if (!checks.empty() || !scenarios.empty()) return Status::covered;
  return reason.empty() ? Status::gap : Status::not_observable;
}

std::optional<int> TraceCoverage::percent() const {
  if (!observable) return std::nullopt;
  return static_cast<int>(covered * 100 / observable);
}

std::string TraceCoverage::percent_text() const {
  const auto p = percent();
  return p ? std::to_string(*p) + "%" : "no observable sentence";
}

std::string TraceCoverage::figure() const { return std::to_string(covered) + "/" + std::to_string(observable); }

const Traceability& Traceability::builtin() {
  static const Traceability trace(parse_json(*embedded_schema("traceability.json")));
  return trace;
}

Traceability::Traceability(const json& doc) {
  const auto violations = published_schemas().validate("traceability.schema.json", doc);
  if (!violations.empty())
    throw InputError("traceability data: " + violations.front().message + " at " + violations.front().pointer);
  std::set<std::string> documents;
  for (const auto& d : doc.at("documents")) {
    TraceDocument document{d.at("id"),
                           d.at("title"),
                           d.at("kind"),
                           d.at("file"),
                           d.value("note", ""),
                           d.at("citedAs"),
                           d.value("textScope", std::vector<std::string>{}),
                           {},
                           {}};
    if (!documents.insert(document.id).second)
      throw InputError("traceability data: document " + document.id + " given twice");
    std::set<std::string> ids;
    for (const auto& s : d.at("sentences")) {
      TraceSentence sentence{s.at("id"),
                             s.at("section"),
                             s.at("level"),
                             s.at("keyword"),
                             s.at("text"),
                             s.value("party", ""),
                             s.value("file", document.file),
                             s.value("note", ""),
                             s.value("checks", std::vector<std::string>{}),
                             s.value("scenarios", std::vector<std::string>{}),
                             s.value("basisOf", std::vector<std::string>{}),
                             s.value("reason", ""),
                             s.value("gap", "")};
      if (!ids.insert(sentence.id).second)
        throw InputError("traceability data: sentence " + document.id + "/" + sentence.id + " given twice");
      document.sentences.push_back(std::move(sentence));
    }
    for (const auto& x : d.at("notNormative")) document.not_normative.push_back({x.at("text"), x.at("reason")});
    documents_.push_back(std::move(document));
  }
}

TraceCoverage Traceability::coverage(const TraceDocument& document) {
  TraceCoverage c;
  for (const auto& s : document.sentences) {
    if (!s.normative()) {
      ++c.definitions;
      continue;
    }
    ++c.normative;
    switch (s.status()) {
      case TraceSentence::Status::covered: ++c.covered, ++c.observable; break;
      case TraceSentence::Status::gap: ++c.gaps, ++c.observable; break;
      case TraceSentence::Status::not_observable: ++c.not_observable; break;
    }
  }
  return c;
}

std::vector<TraceRef> Traceability::enforcing(std::string_view id) const {
  std::vector<TraceRef> out;
  for (const auto& d : documents_)
    for (const auto& s : d.sentences)
      if (std::find(s.checks.begin(), s.checks.end(), id) != s.checks.end() ||
          std::find(s.scenarios.begin(), s.scenarios.end(), id) != s.scenarios.end())
        out.push_back({&d, &s});
  return out;
}

std::optional<TraceRef> Traceability::sentence_for(std::string_view id, std::string_view cited) const {
  const auto refs = enforcing(id);
  if (refs.empty()) return std::nullopt;
  // Where in the citation a document is first named, in any case (npos: not named).
  const auto citation = ascii_lower(cited);
  auto named_at = [&](const TraceDocument& d) {
    auto first = std::string::npos;
    for (const auto& name : d.cited_as) first = std::min(first, citation.find(ascii_lower(name)));
    return first;
  };
  return *std::min_element(refs.begin(), refs.end(), [&](const TraceRef& a, const TraceRef& b) {
    return named_at(*a.document) < named_at(*b.document);  // stable for equals: the first in order wins
  });
}

std::optional<TraceRef> Traceability::basis_of(std::string_view check_id) const {
  for (const auto& d : documents_)
    for (const auto& s : d.sentences)
      if (std::find(s.basis_of.begin(), s.basis_of.end(), check_id) != s.basis_of.end()) return TraceRef{&d, &s};
  return std::nullopt;
}

std::optional<TraceRef> Traceability::sentence(std::string_view full_id) const {
  for (const auto& d : documents_)
    for (const auto& s : d.sentences)
      if (full_id.size() == d.id.size() + 1 + s.id.size() && full_id.starts_with(d.id) && full_id[d.id.size()] == '/' &&
          full_id.ends_with(s.id))
        return TraceRef{&d, &s};
  return std::nullopt;
}

std::string_view basis_force(const TraceRef& ref) {
  const std::string& level = ref.sentence->level;
  const bool must = level == "MUST" || level == "MUST NOT" || level == "REQUIRED";
  const bool should = level == "SHOULD" || level == "SHOULD NOT" || level == "RECOMMENDED";
  // The suite's own rules never stand in for the specification's words.
  if (ref.document->kind == "own") return must || should ? "SHOULD" : "MAY";
  return must ? "MUST" : should ? "SHOULD" : "MAY";
}

std::string quoted(const TraceRef& ref) {
  return "“" + ref.sentence->text + "” — " + ref.document->cited_as.front() + ", " + ref.sentence->section;
}

json trace_json(const Traceability& trace) {
  json documents = json::array();
  for (const auto& d : trace.documents()) {
    json sentences = json::array();
    for (const auto& s : d.sentences) {
      const char* status = !s.normative()                                        ? "definition"
                           : s.status() == TraceSentence::Status::covered        ? "covered"
                           : s.status() == TraceSentence::Status::not_observable ? "not-observable"
                                                                                 : "gap";
      sentences.push_back({{"id", d.id + "/" + s.id},
                           {"section", s.section},
                           {"level", s.level},
                           {"text", s.text},
                           {"party", s.party.empty() ? json() : json(s.party)},
                           {"status", status},
                           {"checks", s.checks},
                           {"basisOf", s.basis_of},
                           {"scenarios", s.scenarios},
                           {"reason", s.reason.empty() ? json() : json(s.reason)},
                           {"gap", s.gap.empty() ? json() : json(s.gap)},
                           {"note", s.note.empty() ? json() : json(s.note)}});
    }
    json out = {{"id", d.id},
                {"title", d.title},
                {"kind", d.kind},
                {"note", d.note.empty() ? json() : json(d.note)},
                {"sentences", sentences}};
    if (d.is_proposal()) {
      const auto c = Traceability::coverage(d);
      out["coverage"] = {{"normative", c.normative},
                         {"observable", c.observable},
                         {"covered", c.covered},
                         {"gaps", c.gaps},
                         {"notObservable", c.not_observable},
                         {"definitions", c.definitions},
                         {"percent", c.percent() ? json(*c.percent()) : json()}};
    } else {
      out["coverage"] = nullptr;
    }
    documents.push_back(std::move(out));
  }
  return {{"documents", documents}};
}

}  // namespace mcp_hints

namespace mcp_hints {

std::string collapse_space(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

namespace {

// Every quote of the data whose source is `file`, each with a name for messages.
std::vector<std::pair<std::string, std::string>> quotes_of(const Traceability& trace, std::string_view file) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& d : trace.documents()) {
    for (const auto& s : d.sentences)
      if (s.file == file) out.emplace_back(d.id + "/" + s.id, collapse_space(s.text));
    if (d.file == file)
      for (const auto& x : d.not_normative) out.emplace_back(d.id + " (not normative)", collapse_space(x.text));
  }
  return out;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::vector<std::string> quotes_not_in(const Traceability& trace, std::string_view file, std::string_view text) {
  const auto source = collapse_space(text);
  std::vector<std::string> out;
  for (const auto& [name, quote] : quotes_of(trace, file))
    if (source.find(quote) == std::string::npos) out.push_back(name + ": " + quote);
  return out;
}

std::vector<std::string> unaccounted_keywords(const Traceability& trace, const TraceDocument& document,
                                              std::string_view text) {
  std::string source = collapse_space(text);
  if (document.text_scope.size() == 2) {
    const auto begin = source.find(collapse_space(document.text_scope[0]));
    const auto end =
        begin == std::string::npos ? begin : source.find(collapse_space(document.text_scope[1]), begin + 1);
    if (begin == std::string::npos || end == std::string::npos)
      return {"the text scope of " + document.id + " is not in its file"};
    source = source.substr(begin, end - begin);
  }
  std::vector<bool> spanned(source.size(), false);
  for (const auto& [name, quote] : quotes_of(trace, document.file))
    for (auto at = source.find(quote); at != std::string::npos; at = source.find(quote, at + 1))
      std::fill(spanned.begin() + static_cast<std::ptrdiff_t>(at),
                spanned.begin() + static_cast<std::ptrdiff_t>(at + quote.size()), true);
  const std::string lower = ascii_lower(source);
  std::vector<std::string> out;
  for (const char* keyword : {"must", "should", "may", "required", "recommended", "shall", "never", "always"}) {
    const std::string_view word = keyword;
    for (auto at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
      const bool whole = (at == 0 || !is_letter(lower[at - 1])) &&
                         (at + word.size() >= lower.size() || !is_letter(lower[at + word.size()]));
      if (!whole || spanned[at]) continue;
      const auto from = at < 60 ? 0 : at - 60;
      out.push_back(std::string(word) + " in: …" + source.substr(from, at - from + word.size() + 40) + "…");
    }
  }
  return out;
}

}  // namespace mcp_hints
