#pragma once
// Scenario files (schemas/scenario.schema.json): metadata, named mock servers with catalogs and
// scripted results, and the client-side fields the mock server only carries through.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints::mock {

// A scenario that cannot be used: says which file and, where it can, which JSON pointer.
class ScenarioError : public Error {
 public:
  explicit ScenarioError(const std::string& what) : Error(Category::bad_input, what) {}
};

// One scripted answer to one call.
struct Step {
  enum class Kind { result, error, transient_failure, close, input_required };
  Kind kind = Kind::result;
  std::chrono::milliseconds delay{0};
  // the result, the error object, a transient failure's error data, or an InputRequiredResult's
  // inputRequests and requestState
  nlohmann::json payload;
  std::optional<std::vector<nlohmann::json>> list_changed;  // the catalog after list_changed
  int progress = 0;                                         // notifications/progress before the answer
  // Stateless era: the client capabilities the step needs (a ClientCapabilities object; empty:
  // none): those its requiresClientCapabilities names and those its inputRequired asks for.
  nlohmann::json required_capabilities = nlohmann::json::object();
};

// The client capabilities an InputRequiredResult's inputRequests ask for, as a ClientCapabilities
// object: elicitation/create the elicitation capability with the request's mode (form when it
// names none), sampling/createMessage sampling (with tools when the request offers tools),
// roots/list roots. "Servers MUST NOT send an inputRequests that the client has not declared
// support for in its capabilities" (SEP-2322).
nlohmann::json capabilities_asked_by(const nlohmann::json& input_required);

struct ServerSpec {
  std::string key;            // its name in the scenario
  std::string name;           // serverInfo.name
  std::size_t page_size = 0;  // 0: one page
  // The revisions it speaks, newest first; empty: the legacy ones. A scenario's server speaks those
  // it lists in protocolVersions, else every revision of the eras the scenario applies to.
  std::vector<std::string> protocol_versions;
  std::optional<long long> ttl_ms;      // stateless era: ttlMs of its listings (default by catalog)
  std::string cache_scope = "private";  // stateless era: cacheScope of its listings
  // Stateless era: whether it declares tools.listChanged and announces a changed catalog on the
  // subscriptions/listen streams that ask for it (else a client learns of it once ttlMs runs out).
  bool announces_changes = true;
  std::vector<nlohmann::json> tools;
  // Authorization contexts: the scenario's, name -> bearer token (empty: requests need none), and
  // the catalog served under a context instead of tools.
  std::map<std::string, std::string> authorizations;
  std::map<std::string, std::vector<nlohmann::json>> tools_by_authorization;
  std::map<std::string, std::vector<Step>> scripts;  // by tool name
  nlohmann::json default_result;
  // Prompts ({prompt, messages}), resources ({resource, contents}) and resource templates
  // ({resourceTemplate, contents}) as the scenario gives them; absent, the capability is not declared.
  std::optional<std::vector<nlohmann::json>> prompts, resources, resource_templates;
};

struct Scenario {
  std::string id, title, checks, level;
  std::string source;  // the file, or "built-in ID"
  std::map<std::string, ServerSpec> servers;
  std::vector<std::string> eras;  // the protocol eras it applies to ("legacy", "stateless"); empty: both
  nlohmann::json document;        // the whole file, for the fields carried through

  bool applies_to_era(const std::string& era) const {
    return eras.empty() || std::find(eras.begin(), eras.end(), era) != eras.end();
  }
};

// The waits a scenario's script asks for (delayMs, retryAfterMs, ttlMs, wherever they stand), in
// milliseconds summed: a run of it lasts at least about that long. Certify starts the longest first.
double scripted_wait_ms(const Scenario& scenario);

// Reads a scenario from a file, or a built-in one by id; validates it against its schema.
Scenario load_scenario(const std::string& file_or_id);
Scenario parse_scenario(const nlohmann::json& document, const std::string& source);
// The scenario with every server speaking `protocol` alone (as certify serves one run); unchanged
// when `protocol` is empty.
Scenario pinned_to(Scenario scenario, const std::string& protocol);
// The ids of the built-in scenarios (scenarios/*.json), sorted.
std::vector<std::string> builtin_scenario_ids();

}  // namespace mcp_hints::mock
