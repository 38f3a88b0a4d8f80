#include "mcp_hints/conformance/traceability.hpp"

#include <set>

#include "mcp_hints/json/text.hpp"

namespace mcp_hints::conformance {

std::vector<std::string> scenario_trace_problems(const Traceability& trace,
                                                 const std::vector<mock::Scenario>& scenarios) {
  std::vector<std::string> out;
  std::set<std::string> ids, sentences;
  for (const auto& d : trace.documents())
    for (const auto& s : d.sentences) sentences.insert(collapse_space(s.text));
  for (const auto& scenario : scenarios) {
    ids.insert(scenario.id);
    const auto refs = trace.enforcing(scenario.id);
    if (refs.empty()) out.push_back("scenario " + scenario.id + " names no sentence: no sentence of the data lists it");
    std::string cited;
    for (const auto& p : scenario.document.value("proposals", nlohmann::json::array()))
      cited += ascii_lower(p.value("proposal", "")) + "\n";
    for (const auto& ref : refs) {
      bool named = false;
      for (const auto& name : ref.document->cited_as)
        named = named || cited.find(ascii_lower(name)) != std::string::npos;
      if (!named)
        out.push_back("scenario " + scenario.id + " is listed by " + ref.document->id + "/" + ref.sentence->id +
                      ", a document its proposals do not cite");
    }
    // Each basis the scenario declares (its own and its checks') is a sentence that lists it.
    std::set<std::string> bases;
    if (scenario.document.contains("basis")) bases.insert(scenario.document.value("basis", ""));
    for (const auto& check : scenario.document.value("expect", nlohmann::json::array()))
      if (check.contains("basis")) bases.insert(check.value("basis", ""));
    for (const auto& basis : bases) {
      const auto ref = trace.sentence(basis);
      if (!ref)
        out.push_back("scenario " + scenario.id + " rests on " + basis + ", which is no sentence of the data");
      else if (std::find(ref->sentence->scenarios.begin(), ref->sentence->scenarios.end(), scenario.id) ==
               ref->sentence->scenarios.end())
        out.push_back("scenario " + scenario.id + " rests on " + basis + ", which does not list it in scenarios");
    }
    for (const auto& quote : scenario.document.value("quotes", nlohmann::json::array()))
      if (!sentences.count(collapse_space(quote.value("text", ""))))
        out.push_back("scenario " + scenario.id +
                      " quotes a sentence the data does not hold: " + quote.value("text", ""));
  }
  std::set<std::string> unknown;
  for (const auto& d : trace.documents())
    for (const auto& s : d.sentences)
      for (const auto& id : s.scenarios)
        if (!ids.count(id) && unknown.insert(id).second)
          out.push_back(d.id + "/" + s.id + " names scenario " + id + ", which no certification scenario has");
  return out;
}

std::string basis_sentence_text(const std::string& basis, const Traceability& trace) {
  const auto ref = trace.sentence(basis);
  return ref ? quoted(*ref) : std::string();
}

}  // namespace mcp_hints::conformance
