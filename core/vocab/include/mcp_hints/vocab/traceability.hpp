#pragma once
// Traceability (schemas/traceability.json): each proposal's normative sentences, quoted with their
// section, each mapped to the checks and scenarios that enforce it (and the checks whose basis it is), to the reason it
// is not observable from outside, or marked as a gap; and the coverage figure of each proposal. The data names check
// and scenario ids as text: the roles that own them hold the names to what exists (tests/checks, tests/conformance).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints {

struct TraceSentence {
  enum class Status { covered, not_observable, gap };
  std::string id;  // unique in its document
  std::string section, level, keyword, text, party, file, note;
  std::vector<std::string> checks, scenarios;
  std::vector<std::string> basis_of;  // the checks (of `checks`) whose level this sentence sets
  std::string reason;                 // not observable from outside: why
  std::string gap;                    // observable, not yet checked: what a check would do

  bool normative() const { return level != "definition"; }
  Status status() const;
};

struct TraceExclusion {
  std::string text, reason;  // a sentence with a keyword that puts no requirement on anyone
};

struct TraceDocument {
  std::string id, title, kind, file, note;  // kind: proposal, cited or own
  std::vector<std::string> cited_as;
  std::vector<std::string> text_scope;  // empty, or where the document's text starts and what ends it
  std::vector<TraceSentence> sentences;
  std::vector<TraceExclusion> not_normative;

  bool is_proposal() const { return kind == "proposal"; }
};

// The coverage figure of one document: of its normative sentences, those observable from outside
// (no reason given), and of those, the ones a check or scenario enforces. A gap counts as observable
// and not covered.
struct TraceCoverage {
  std::size_t normative = 0, observable = 0, covered = 0, gaps = 0, not_observable = 0, definitions = 0;
  // "covered/observable", e.g. "5/7"; percent of observable, rounded down (none when no sentence
  // is observable), and that as words ("71%", "no observable sentence").
  std::string figure() const;
  std::optional<int> percent() const;
  std::string percent_text() const;
};

// A sentence together with the document it is in.
struct TraceRef {
  const TraceDocument* document;
  const TraceSentence* sentence;
};

// The strongest level a sentence grounds when it is a check's basis: "MUST" (MUST, MUST NOT,
// REQUIRED), "SHOULD" (SHOULD, SHOULD NOT, RECOMMENDED) or "MAY" (MAY, a definition: what a value
// means obliges no one). The suite's own rules ground at most "SHOULD", however they are worded.
std::string_view basis_force(const TraceRef& ref);

class Traceability {
 public:
  // schemas/traceability.json, compiled in.
  static const Traceability& builtin();
  // Validates the document against traceability.schema.json and holds its ids unique; a bad one is
  // an InputError naming where.
  explicit Traceability(const nlohmann::json& doc);

  const std::vector<TraceDocument>& documents() const { return documents_; }
  static TraceCoverage coverage(const TraceDocument& document);
  // Every sentence that names this check (or scenario) id, in document order.
  std::vector<TraceRef> enforcing(std::string_view id) const;
  // The sentence a check's findings quote (or a scenario's failed checks): of those naming the id,
  // the one whose document the id's own citation (`cited`, its proposal and section) names first,
  // in any case; none when no sentence names it.
  std::optional<TraceRef> sentence_for(std::string_view id, std::string_view cited) const;
  // The sentence that is this check's basis (lists it in basisOf): the one its findings quote and
  // its level is held to; none when no sentence is.
  std::optional<TraceRef> basis_of(std::string_view check_id) const;
  // The sentence named DOCUMENT/ID (e.g. "spec/prompt-sensitive"); none when the data has none.
  std::optional<TraceRef> sentence(std::string_view full_id) const;

 private:
  std::vector<TraceDocument> documents_;
};

// A sentence as a finding ends with it: “text” — document name, section.
std::string quoted(const TraceRef& ref);

// The matrix as JSON (vocab-trace.schema.json): every document with its coverage and sentences.
nlohmann::json trace_json(const Traceability& trace);

}  // namespace mcp_hints

namespace mcp_hints {

// Runs of whitespace made one space, the ends trimmed: a quote is held to its source whatever the
// source's line breaks.
std::string collapse_space(std::string_view text);

// Holding the data to a document's source text (`text`: the file's content, whitespace as it is).
// The quotes of the data that `file`'s text does not hold word for word, each as "ID: text".
std::vector<std::string> quotes_not_in(const Traceability& trace, std::string_view file, std::string_view text);
// The normative keywords (must, should, may, required, recommended, shall, never, always; in any
// case, `_may_` too) in the document's part of the text that no quote of the data spans, neither
// a sentence nor a notNormative entry: each as "keyword in: …context…". Empty when every one is
// accounted for.
std::vector<std::string> unaccounted_keywords(const Traceability& trace, const TraceDocument& document,
                                              std::string_view text);

}  // namespace mcp_hints
