#include "mcp_hints/mock/scenario.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <span>

#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints {
// Compiled in by mock-servers/CMakeLists.txt: scenarios/*.json and schemas/scenario.schema.json.
std::span<const EmbeddedFile> embedded_scenarios();
std::span<const EmbeddedFile> embedded_scenario_schema();
}  // namespace mcp_hints

namespace mcp_hints::mock {

using json = nlohmann::json;

namespace {

const SchemaRegistry& scenario_schema() {
  // Never destroyed: freeing its trees at exit cost a mock server's start-up a tenth of its time.
  static const SchemaRegistry& registry = *[] {
    auto r = std::make_unique<SchemaRegistry>();
    // Compiled only where a scenario needs valijson (the first look finds most valid without it);
    // the published schemas' tests compile it.
    for (const auto& file : embedded_scenario_schema()) r->add_lazily(file.name, parse_json(file.content));
    return r.release();
  }();
  return registry;
}

Step read_step(const json& s, const std::vector<json>& first_catalog) {
  Step step;
  step.delay = std::chrono::milliseconds(s.value("delayMs", 0));
  if (s.contains("result")) {
    step.payload = s["result"];
  } else if (s.contains("error")) {
    step.kind = Step::Kind::error;
    step.payload = s["error"];
  } else if (s.contains("inputRequired")) {
    step.kind = Step::Kind::input_required;
    step.payload = s["inputRequired"];
  } else if (s.contains("fail")) {
    step.kind = Step::Kind::transient_failure;
    step.payload = {{"transient", true}};
    if (s.contains("retryAfterMs")) step.payload["retryAfterMs"] = s["retryAfterMs"];
  } else {
    step.kind = Step::Kind::close;
  }
  // Without tools, the change is announced and the server's own catalog served from then on.
  if (s.contains("listChanged")) {
    const json& changed = s["listChanged"];
    step.list_changed = changed.contains("tools") ? changed["tools"].get<std::vector<json>>() : first_catalog;
  }
  step.progress = s.value("progress", 0);
  step.required_capabilities = s.value("requiresClientCapabilities", json::object());
  if (step.kind == Step::Kind::input_required) {
    const json asked = capabilities_asked_by(step.payload);   // held: items() would outlive a temporary
    for (const auto& [capability, settings] : asked.items())  // merged: a named one gains the mode asked
      step.required_capabilities[capability].update(settings);
  }
  return step;
}

}  // namespace

json capabilities_asked_by(const json& input_required) {
  json asked = json::object();
  const json* requests = member(input_required, "inputRequests");
  if (!requests || !requests->is_object()) return asked;
  for (const auto& request : *requests) {
    const json* method = request.is_object() ? member(request, "method") : nullptr;
    if (!method || !method->is_string()) continue;
    const std::string& name = method->get_ref<const std::string&>();
    const json* params = member(request, "params");
    if (params && !params->is_object()) params = nullptr;
    if (name == "elicitation/create") {
      // "Servers MUST NOT send elicitation requests with modes that are not supported by the
      // client"; a request without a mode is a form.
      const json* mode = params ? member(*params, "mode") : nullptr;
      asked["elicitation"][mode && mode->is_string() ? mode->get<std::string>() : "form"] = json::object();
    } else if (name == "sampling/createMessage") {
      if (!asked.contains("sampling")) asked["sampling"] = json::object();
      // "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared
      // support for tool use via the sampling.tools capability."
      if (params && params->contains("tools")) asked["sampling"]["tools"] = json::object();
    } else if (name == "roots/list") {
      asked["roots"] = json::object();
    }
  }
  return asked;
}

Scenario parse_scenario(const json& document, const std::string& source) {
  const auto violations = scenario_schema().validate("scenario.schema.json", document);
  if (!violations.empty()) {
    // Every violation, so one edit can fix them all (a scenario is small: the list is short).
    std::vector<std::string> problems;
    for (const auto& v : violations)
      problems.push_back((v.pointer.empty() ? std::string("/") : v.pointer) + ": " + v.message);
    throw ScenarioError(source + ": " +
                        (problems.size() > 1 ? std::to_string(problems.size()) + " problems: " : std::string()) +
                        join(problems, "; "));
  }
  Scenario scenario;
  scenario.id = document["id"];
  scenario.title = document["title"];
  scenario.checks = document["checks"];
  scenario.level = document["level"];
  scenario.source = source;
  scenario.document = document;
  scenario.eras = document.value("eras", std::vector<std::string>{});
  std::map<std::string, std::string> authorizations;
  const json declared = document.value("authorizations", json::object());
  for (const auto& [name, context] : declared.items()) authorizations[name] = context["token"].get<std::string>();
  auto require_authorization = [&](const std::string& name, const std::string& pointer) {
    if (authorizations.count(name)) return;
    std::vector<std::string> declared;
    for (const auto& [known, token] : authorizations) declared.push_back(known);
    throw ScenarioError(source + ": " + pointer + ": an authorization context the scenario does not declare ('" + name +
                        "'; declared: " + (declared.empty() ? std::string("none") : join(declared)) + ")");
  };
  const json task = document.value("task", json::array());
  for (std::size_t i = 0; i < task.size(); ++i)
    if (task[i].contains("authorization"))
      require_authorization(task[i]["authorization"], "/task/" + std::to_string(i) + "/authorization");
  for (const auto& [key, s] : document["servers"].items()) {
    ServerSpec spec;
    spec.key = key;
    spec.name = s.value("name", key);
    spec.page_size = s.value("pageSize", std::size_t{0});  // the schema bounds it: read without narrowing
    spec.protocol_versions = s.value("protocolVersions", std::vector<std::string>{});
    // Unless the server lists its revisions, it speaks every revision of the eras the scenario
    // applies to: a current server serves clients of both eras.
    if (spec.protocol_versions.empty()) {
      const json eras = document.value("eras", json::array());
      if (eras == json::array({"stateless"}))
        spec.protocol_versions = stateless_protocol_versions();
      else if (eras == json::array({"legacy"}))
        spec.protocol_versions = supported_protocol_versions();
      else
        spec.protocol_versions = all_protocol_versions();
    }
    if (s.contains("ttlMs")) spec.ttl_ms = s["ttlMs"].get<long long>();
    spec.cache_scope = s.value("cacheScope", spec.cache_scope);
    spec.announces_changes = s.value("announcesChanges", true);
    spec.tools = s["tools"].get<std::vector<json>>();
    spec.authorizations = authorizations;
    const json by_authorization = s.value("toolsByAuthorization", json::object());
    for (const auto& [name, tools] : by_authorization.items()) {
      require_authorization(
          name, "/servers/" + escape_pointer_token(key) + "/toolsByAuthorization/" + escape_pointer_token(name));
      spec.tools_by_authorization[name] = tools.get<std::vector<json>>();
    }
    spec.default_result =
        s.value("defaultResult", json{{"content", json::array({{{"type", "text"}, {"text", "ok"}}})}});
    if (s.contains("prompts")) spec.prompts = s["prompts"].get<std::vector<json>>();
    if (s.contains("resources")) spec.resources = s["resources"].get<std::vector<json>>();
    if (s.contains("resourceTemplates")) spec.resource_templates = s["resourceTemplates"].get<std::vector<json>>();
    if (s.contains("scripts")) {
      for (const auto& [tool, steps] : s["scripts"].items()) {
        const bool listed = std::any_of(spec.tools.begin(), spec.tools.end(),
                                        [&tool = tool](const json& t) { return t["name"] == tool; });
        if (!listed)
          throw ScenarioError(source + ": /servers/" + escape_pointer_token(key) + "/scripts/" +
                              escape_pointer_token(tool) + ": a script for a tool the server does not list");
        for (const auto& step : steps) spec.scripts[tool].push_back(read_step(step, spec.tools));
      }
    }
    scenario.servers.emplace(key, std::move(spec));
  }
  return scenario;
}

Scenario load_scenario(const std::string& file_or_id) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(file_or_id, ec)) {
    std::ifstream in(file_or_id, std::ios::binary);
    try {
      return parse_scenario(parse_json(read_text(in)), file_or_id);
    } catch (const InputError& e) {
      throw ScenarioError(file_or_id + ": " + e.what());
    }
  }
  for (const auto& file : embedded_scenarios()) {
    if (file.name == file_or_id + ".json") return parse_scenario(parse_json(file.content), "built-in " + file_or_id);
  }
  const auto ids = builtin_scenario_ids();
  throw ScenarioError("no scenario file or built-in scenario '" + file_or_id + "'" + did_you_mean(file_or_id, ids) +
                      " (built-in: " + join(ids) + ")");
}

std::vector<std::string> builtin_scenario_ids() {
  std::vector<std::string> ids;
  for (const auto& file : embedded_scenarios()) ids.emplace_back(file.name.substr(0, file.name.size() - 5));
  std::sort(ids.begin(), ids.end());
  return ids;
}

namespace {
double waits_in(const nlohmann::json& value) {
  double sum = 0;
  if (value.is_object()) {
    for (const auto& [key, member] : value.items())
      sum += (key == "delayMs" || key == "retryAfterMs" || key == "ttlMs") && member.is_number() && member > 0
                 ? member.get<double>()
                 : waits_in(member);
  } else if (value.is_array()) {
    for (const auto& element : value) sum += waits_in(element);
  }
  return sum;
}
}  // namespace

double scripted_wait_ms(const Scenario& scenario) { return waits_in(scenario.document); }

Scenario pinned_to(Scenario scenario, const std::string& protocol) {
  if (protocol.empty()) return scenario;
  for (auto& [key, server] : scenario.document["servers"].items()) server["protocolVersions"] = json::array({protocol});
  for (auto& [key, server] : scenario.servers) server.protocol_versions = {protocol};
  return scenario;
}

}  // namespace mcp_hints::mock
