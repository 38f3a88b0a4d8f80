#include "mcp_hints/report/trace.hpp"

#include <map>
#include <string>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/traceability.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/html.hpp"

namespace mcp_hints {
namespace {

std::string enforced_by(const TraceSentence& s) {
  std::string out;
  for (const auto& id : s.checks) out += (out.empty() ? "" : ", ") + id;
  for (const auto& id : s.scenarios) out += (out.empty() ? "" : ", ") + ("scenario " + id);
  return out;
}

// What the matrix says of a sentence beside its text: what enforces it, or why nothing does.
std::string disposition(const TraceSentence& s) {
  if (!s.checks.empty() || !s.scenarios.empty()) return enforced_by(s);
  if (!s.gap.empty()) return "GAP (planned): " + s.gap;
  return "not observable: " + s.reason;
}

std::string coverage_words(const TraceCoverage& c) {
  return c.figure() + " observable sentences covered (" + c.percent_text() +
         "); normative: " + std::to_string(c.normative) + ", not observable: " + std::to_string(c.not_observable) +
         ", gaps: " + std::to_string(c.gaps) + ", definitions: " + std::to_string(c.definitions);
}

}  // namespace

std::string trace_coverage_markdown(const Traceability& trace) {
  std::string out =
      "| proposal | normative sentences | observable | covered | gaps | coverage |\n|---|---|---|---|---|---|\n";
  for (const auto& d : trace.documents()) {
    if (!d.is_proposal()) continue;
    const auto c = Traceability::coverage(d);
    out += "| " + d.id + " | " + std::to_string(c.normative) + " | " + std::to_string(c.observable) + " | " +
           std::to_string(c.covered) + " | " + std::to_string(c.gaps) + " | " + c.figure() + " (" + c.percent_text() +
           ") |\n";
  }
  return out;
}

void render_trace_text(std::ostream& out, const Traceability& trace) {
  for (const auto& d : trace.documents()) {
    // Fits 100 columns: every line wrapped (wrap drops leading spaces, so the indent is written
    // here), continuations under their text.
    out << wrap(d.id + "  " + d.title, 100, 4) << "\n";
    if (d.is_proposal())
      out << "  " << wrap("coverage: " + coverage_words(Traceability::coverage(d)), 98, 4) << "\n";
    else
      out << "  (" << (d.kind == "own" ? "the suite's own rules" : "cited sentences only") << ": no coverage figure)\n";
    for (const auto& s : d.sentences)
      out << "  " << wrap(s.level + "  " + d.id + "/" + s.id + " [" + s.section + "] " + visible(s.text), 98, 6)
          << "\n      " << wrap("-> " + disposition(s), 94, 9) << "\n";
  }
}

void render_trace_markdown(std::ostream& out, const Traceability& trace) {
  out << "# Traceability: the proposals' normative sentences and what enforces them\n\n"
      << "A sentence is covered when a check or scenario enforces it; one that nothing outside a peer can observe "
         "says why; a gap is observable but not yet checked, and counts as not covered. Definitions (a field's "
         "meaning or values) are listed but not counted.\n\n"
      << trace_coverage_markdown(trace);
  for (const auto& d : trace.documents()) {
    out << "\n## " << d.id << ": " << markdown_cell(d.title) << "\n\n";
    if (d.is_proposal()) out << "Coverage: " << coverage_words(Traceability::coverage(d)) << ".\n\n";
    if (!d.note.empty()) out << "*" << markdown_cell(d.note) << "*\n\n";
    out << "| id | section | level | sentence | enforced by, or why not |\n|---|---|---|---|---|\n";
    for (const auto& s : d.sentences)
      out << "| " << s.id << " | " << markdown_cell(s.section) << " | " << s.level << " | "
          << markdown_cell(visible(s.text)) << " | " << markdown_cell(disposition(s)) << " |\n";
  }
}

std::string render_trace_html(const Traceability& trace) {
  std::string body = "<h1>Traceability: the proposals' normative sentences</h1>\n";
  std::vector<std::vector<std::string>> summary;
  for (const auto& d : trace.documents()) {
    if (!d.is_proposal()) continue;
    const auto c = Traceability::coverage(d);
    summary.push_back({"<a href=\"#" + html_escape(d.id) + "\">" + html_escape(d.id) + "</a>",
                       std::to_string(c.normative), std::to_string(c.observable), std::to_string(c.covered),
                       std::to_string(c.gaps), html_escape(c.figure() + " (" + c.percent_text() + ")")});
  }
  body +=
      "<p id=\"verdict\"><b>Coverage per proposal.</b> A gap is observable but not yet checked and counts as "
      "not covered; definitions are not counted.</p>\n";
  body += html_table("Coverage per proposal",
                     {"proposal", "normative sentences", "observable", "covered", "gaps", "coverage"}, summary);
  for (const auto& d : trace.documents()) {
    body += "<h2 id=\"" + html_escape(d.id) + "\">" + html_escape(d.id) + ": " + html_escape(d.title) + "</h2>\n";
    if (d.is_proposal()) body += "<p>Coverage: " + html_escape(coverage_words(Traceability::coverage(d))) + ".</p>\n";
    if (!d.note.empty()) body += "<p><i>" + html_escape(d.note) + "</i></p>\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& s : d.sentences)
      rows.push_back({html_escape(s.id), html_escape(s.section), html_escape(s.level),
                      "<q>" + markdown_inline_html(s.text) + "</q>", markdown_inline_html(disposition(s))});
    body +=
        html_table("The sentences of " + d.id, {"id", "section", "level", "sentence", "enforced by, or why not"}, rows);
  }
  return html_page("mcp-hints traceability", body, "q{quotes:\"\\201C\" \"\\201D\"}");
}

namespace {

nlohmann::json sentence_json(std::string_view check_id) {
  const auto ref = enforced_sentence(check_id);
  if (!ref) return nullptr;
  return {{"id", ref->document->id + "/" + ref->sentence->id},
          {"document", ref->document->id},
          {"section", ref->sentence->section},
          {"level", ref->sentence->level},
          {"text", ref->sentence->text}};
}

std::string sentence_text(std::string_view check_id) {
  const auto ref = enforced_sentence(check_id);
  if (!ref) return {};
  return quoted(*ref);
}

// Each registered check's sentence, found once: a report names it with every finding.
template <auto make>
auto of_check(std::string_view check_id) {
  using Value = decltype(make(check_id));
  static const auto made = [] {
    std::map<std::string, Value, std::less<>> out;
    for (const auto& info : all_checks()) out.emplace(std::string(info.id), make(info.id));
    return out;
  }();
  const auto it = made.find(check_id);
  return it != made.end() ? it->second : make(check_id);
}

}  // namespace

nlohmann::json enforced_sentence_json(std::string_view check_id) { return of_check<sentence_json>(check_id); }

std::string enforced_sentence_text(std::string_view check_id) { return of_check<sentence_text>(check_id); }

}  // namespace mcp_hints

namespace mcp_hints {
std::string sentence_html(std::string_view quoted_sentence) {
  return quoted_sentence.empty() ? std::string()
                                 : "<br><small class=\"enforces\">→ " + html_escape(quoted_sentence) + "</small>";
}

std::string enforced_sentence_html(std::string_view check_id) {
  return sentence_html(enforced_sentence_text(check_id));
}
}  // namespace mcp_hints
