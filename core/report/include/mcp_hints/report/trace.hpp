#pragma once
// The traceability matrix (vocab trace) as text, Markdown and HTML: per proposal its coverage
// figure, then every sentence with its section, level, and what enforces it or why nothing can.
// The JSON form is the vocab role's trace_json.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/traceability.hpp"

namespace mcp_hints {

// The coverage of every proposal as a Markdown table (docs/vocab.md's, and the head of the matrix).
std::string trace_coverage_markdown(const Traceability& trace);

void render_trace_text(std::ostream& out, const Traceability& trace);
void render_trace_markdown(std::ostream& out, const Traceability& trace);
std::string render_trace_html(const Traceability& trace);

// The words a finding of this check ends with: the sentence it enforces, quoted, with where it is
// ("… — proposal 1 (policy-hints@seed), Semantics"); empty when no sentence names the check.
std::string enforced_sentence_text(std::string_view check_id);
// The same for an HTML report: a line to append to the finding's message ("" when none).
std::string enforced_sentence_html(std::string_view check_id);
// A quoted sentence (`quoted` of the vocab role) as that HTML line; "" for "".
std::string sentence_html(std::string_view quoted_sentence);
// The same as JSON for the machine outputs: {id, document, section, level, text}, or null.
nlohmann::json enforced_sentence_json(std::string_view check_id);

}  // namespace mcp_hints
