#pragma once
// One kind of check (gate, propagation, ...): the outcomes it can observe, how it reads its own
// members of a scenario's check, and how it judges a run record. Each kind is one file in this
// folder, listed once in the table of registry.cpp; judge.cpp knows no kind by name.
#include <any>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/conformance/run_record.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::conformance {

// What a check saw in a run: the outcome (one of its kind's), what was seen, in words, and the
// wire line or client event that decided it, when one did (pointers into the judged record).
struct Observation {
  std::string outcome;
  std::string detail;
  const WireLine* line = nullptr;
  const ClientEvent* event = nullptr;
};

// Reads the members of one check that belong to its kind, against the scenario. A path names a
// member ("tool") or a member's member ("requires/tool"). Every refusal is a mock::ScenarioError
// naming the file and the pointer. It remembers which members were read (the common ones by
// read_checks, the rest by the kind), so that read_checks can refuse the others.
class CheckReader {
 public:
  CheckReader(const mock::Scenario& scenario, const nlohmann::json& check, std::size_t index);

  // The value at path, or nullptr when the check does not give it.
  const nlohmann::json* find(std::string_view path);
  // The string at path; required unless a fallback is given.
  std::string text(std::string_view path);
  std::string text_or(std::string_view path, const std::string& fallback);
  int integer_or(std::string_view path, int fallback);
  // The server named at path, which the scenario must have; without one, the scenario's only server.
  std::string server(std::string_view path);
  // The tool named at path (required), which `server` must list, at first or after list_changed.
  std::string tool(std::string_view path, const std::string& server);
  // The authorization context named at path, which the scenario must declare; empty when not given.
  std::string authorization(std::string_view path);
  // The servers named at path, each one the scenario has; empty when not given.
  std::vector<std::string> servers(std::string_view path);

  [[noreturn]] void fail(std::string_view path, const std::string& why) const;
  // The members read so far (by their first path token).
  const std::set<std::string>& read_members() const { return read_; }
  // The first tool read (tool()), with its server; empty when none was.
  const std::pair<std::string, std::string>& first_tool() const { return first_tool_; }

 private:
  const mock::Scenario& scenario_;
  const nlohmann::json& check_;
  std::size_t index_;
  std::set<std::string> read_;
  std::pair<std::string, std::string> first_tool_;
};

// The parameters of a kind that judges one tool of one server (its "server" and "tool").
struct ToolOnServer {
  std::string server, tool;
};
// Caution is never a failure: "Clients MAY apply stricter local policies regardless of hints"
// (proposal 1), and every revision's schema.json: "Clients should never make tool use decisions
// based on ToolAnnotations received from untrusted servers". Refuses a check that grades the
// outcome (a careful one: a refusal, or asking where nothing asks for it) above info, or leaves it
// out (an unlisted outcome fails).
void hold_caution_harmless(CheckReader& in, const std::string& outcome);

inline ToolOnServer read_tool_on_server(CheckReader& in) {
  ToolOnServer check;
  check.server = in.server("server");
  check.tool = in.tool("tool", check.server);
  return check;
}

struct CheckKind {
  std::string name;                                                     // the scenario's "kind"
  std::vector<Outcome> outcomes;                                        // every trace it can observe
  std::function<std::any(CheckReader&)> read;                           // its parameters
  std::function<Observation(const std::any&, const RunRecord&)> judge;  // on what read returned
  bool implicit = false;  // certify adds it to every run; no scenario declares it (nor the scenario schema)
};

// A kind whose parameters are a Parameters: `read` makes them from the check, `judge` uses them.
template <class Parameters>
CheckKind make_check_kind(std::string name, std::vector<Outcome> outcomes, Parameters (*read)(CheckReader&),
                          Observation (*judge)(const Parameters&, const RunRecord&)) {
  return {std::move(name), std::move(outcomes), [read](CheckReader& in) { return std::any(read(in)); },
          [judge](const std::any& parameters, const RunRecord& record) {
            return judge(std::any_cast<const Parameters&>(parameters), record);
          }};
}

// Every kind, in the order of the table (registry.cpp).
const std::vector<CheckKind>& check_kinds();
// The kind of that name, or nullptr.
const CheckKind* find_check_kind(std::string_view name);

}  // namespace mcp_hints::conformance
