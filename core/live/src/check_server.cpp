#include "mcp_hints/live/check_server.hpp"

#include "mcp_hints/checks/server_checks.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "mcp_hints/wire/protocol_schema.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

std::string tool_name(const json& tool) {
  return tool.is_object() && tool.contains("name") && tool["name"].is_string() ? tool["name"].get<std::string>() : "";
}

std::map<std::string, const json*> by_name(const std::vector<json>& tools) {
  std::map<std::string, const json*> out;
  for (const auto& t : tools) out.emplace(tool_name(t), &t);
  return out;
}

// The text content of a tool result, on one line: what the tool said, e.g. why it failed.
std::string result_text(const json& result) {
  std::vector<std::string> texts;
  if (result.contains("content") && result["content"].is_array())
    for (const auto& block : result["content"])
      if (block.is_object() && block.value("type", json()) == "text" && block.contains("text") &&
          block["text"].is_string())
        texts.push_back(block["text"].get<std::string>());
  if (texts.empty()) return "(no text content)";
  std::string text = join(texts, " ");
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return shorten(text, 300);
}

std::string shown(const json* value) { return value ? mcp_hints::shown(*value, 60) : "absent"; }

// What differs in a tool's hints between two listings: every crosswalk field of a tool
// vocabulary, then any other annotation.
std::vector<std::string> hint_differences(const json& before, const json& after, const Vocabulary& vocabulary) {
  std::vector<std::string> out;
  for (const auto& field : vocabulary.fields()) {
    if (field.is_message_field) continue;
    const json* b = find_member(before, field.tokens);
    const json* a = find_member(after, field.tokens);
    if ((b == nullptr) != (a == nullptr) || (b && *b != *a))
      out.push_back(field.key + " " + shown(b) + " -> " + shown(a));
  }
  const json* ab = find_member(before, {"annotations"});
  const json* aa = find_member(after, {"annotations"});
  if (out.empty() && ((ab == nullptr) != (aa == nullptr) || (ab && *ab != *aa)))
    out.push_back("annotations " + shown(ab) + " -> " + shown(aa));
  return out;
}

static_assert(std::ranges::all_of(protocol_check::all,
                                  [](std::string_view id) { return find_server_check(id) != nullptr; }),
              "every protocol schema check is a server check (server_checks.hpp)");

class Run {
 public:
  Run(const ServerTarget& target, const CheckServerOptions& options, LintReport& report)
      : target_(target),
        options_(options),
        report_(report),
        linter_(options.lint),
        deadline_(Clock::now() + options.timeout),
        file_(target.describe()) {}

  void execute() {
    report_.server_checks_ran = true;
    report_.files.push_back(FileResult{file_, 0, std::nullopt, {}, {}});
    std::vector<json> first;
    if (!first_session(first)) return;
    second_session(first);
  }

 private:
  void step(const std::string& what) {
    if (options_.progress) options_.progress(what);
  }

  // The check comes from server_check(), which finds it at compile time.
  void emit(const CheckInfo& check, const std::string& pointer, const std::string& message,
            const std::string& tool = "") {
    report_.findings.push_back(
        Finding{std::string(check.id), check.level, file_, tool, pointer, 0, message, std::string(check.proposal)});
  }

  // Why the run is incomplete; a second reason (a failed call, then another) is added to the first.
  void incomplete(const std::string& why, Transport* transport) {
    report_.incomplete = report_.incomplete ? *report_.incomplete + "; " + why : why;
    if (transport) report_.diagnostics = transport->diagnostics();
  }

  ClientOptions client_options() const {
    ClientOptions c;
    c.request_timeout = options_.request_timeout;
    c.run_deadline = deadline_;
    c.protocol = options_.protocol;
    return c;
  }

  // Connects and initializes; false (with the reason recorded) when the run cannot go on.
  bool open_session(std::unique_ptr<Transport>& transport, std::unique_ptr<McpClientSession>& session,
                    const std::string& which) {
    try {
      transport = connect(target_, options_.transport);
    } catch (const std::exception& e) {
      incomplete("the server could not be started: " + std::string(e.what()), nullptr);
      return false;
    }
    session = std::make_unique<McpClientSession>(*transport, client_options());
    watch_schema(*session, which);
    step(which + (options_.protocol.era == EraChoice::legacy ? ": initialize" : ": server/discover or initialize"));
    try {
      init_ = session->connect();
      report_.protocol_version = init_.protocol_version;
      report_.protocol_era = to_string(init_.era);
    } catch (const ProtocolError& e) {
      const std::string what = e.what();
      const bool version = what.find("protocol version") != std::string::npos;
      const CheckInfo& check = version ? server_check("server.protocol-version") : server_check("server.initialize");
      emit(check, "", which + ": " + what);
      report_.diagnostics = transport->diagnostics();
      return false;
    } catch (const TransportError& e) {
      incomplete(which + ": " + (session->era() == ProtocolEra::stateless ? "server/discover" : "initialize") + ": " +
                     e.what(),
                 transport.get());
      return false;
    }
    if (!init_.capabilities.contains("tools"))
      emit(server_check("server.tools-capability"), "",
           which + ": the initialize result declares capabilities " + shown(&init_.capabilities) +
               " without tools, yet mcp-hints is to list its tools");
    return true;
  }

  // Lists tools; false when the run cannot go on.
  bool list(McpClientSession& session, Transport& transport, ToolListing& listing, const std::string& which) {
    step(which + ": tools/list");
    try {
      listing = session.list_tools();
    } catch (const ProtocolError& e) {
      // An error answer is the server declining to list, which the protocol allows: there is no
      // catalog to check, but no page was malformed either.
      if (e.error.is_object()) {
        incomplete(which + ": " + e.what() + " (no catalog to check)", &transport);
        return false;
      }
      emit(server_check("server.list-page"), "", which + ": " + e.what());
      report_.diagnostics = transport.diagnostics();
      return false;
    } catch (const TransportError& e) {
      incomplete(which + ": tools/list: " + e.what(), &transport);
      return false;
    }
    for (const auto& error : listing.page_errors)
      emit(server_check("server.list-page"), "", which + ": tools/list " + error);
    if (listing.over_size_limit) {
      incomplete(which + ": " + listing.incomplete_reason, &transport);
      return false;
    }
    if (!listing.complete) emit(server_check("server.cursor-terminates"), "", which + ": " + listing.incomplete_reason);
    return true;
  }

  bool first_session(std::vector<json>& tools) {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<McpClientSession> session;
    if (!open_session(transport, session, "session 1")) return false;
    bool ok = first_session_steps(*transport, *session, tools);
    if (transport->noise_count() > 0)
      emit(server_check("server.stdout-protocol-only"), "",
           std::to_string(transport->noise_count()) + " line(s) on stdout were not JSON-RPC messages; first, " +
               transport->first_noise());
    if (!report_.findings.empty() && report_.diagnostics.empty()) report_.diagnostics = transport->diagnostics();
    transport->close();
    return ok;
  }

  bool first_session_steps(Transport& transport, McpClientSession& session, std::vector<json>& tools) {
    ToolListing listing;
    if (!list(session, transport, listing, "session 1")) return false;
    tools = std::move(listing.tools);
    auto& file = report_.files.front();
    for (std::size_t i = 0; i < tools.size(); ++i) {
      file.tool_revisions.push_back(
          linter_.lint_tool(tools[i], file_, "/tools/" + std::to_string(i), 0, report_.findings));
      file.tool_names.push_back(tool_name(tools[i]));
    }
    file.tool_count = tools.size();

    // The same session, listed again.
    ToolListing again;
    if (!list(session, transport, again, "session 1, second listing")) return false;
    compare(tools, again.tools, server_check("stability.relist"), "a second tools/list in the same session");

    // Notifications the server sends on its own within the window.
    step("session 1: waiting " + std::to_string(options_.observe_window.count()) + " ms for notifications");
    try {
      session.observe(options_.observe_window);
    } catch (const TransportError& e) {
      incomplete("session 1: while waiting for notifications: " + std::string(e.what()), &transport);
      return false;
    }
    if (session.notification_count("notifications/tools/list_changed") > 0) {
      ToolListing changed;
      if (!list(session, transport, changed, "session 1, after tools/list_changed")) return false;
      judge_list_changed(tools, changed.tools);
    }
    return call_tools(session, transport, tools);
  }

  void second_session(const std::vector<json>& first) {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<McpClientSession> session;
    const std::string which = target_.url.empty() ? "session 2 (restarted server)" : "session 2";
    if (!open_session(transport, session, which)) return;
    ToolListing listing;
    if (list(*session, *transport, listing, which))
      compare(first, listing.tools, server_check("stability.restart"),
              target_.url.empty() ? "a restart of the server" : "a second session");
    transport->close();
  }

  void compare(const std::vector<json>& before, const std::vector<json>& after, const CheckInfo& check,
               const std::string& what) {
    const auto then = by_name(after);
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string name = tool_name(before[i]);
      auto it = then.find(name);
      if (it == then.end()) continue;
      auto diffs = hint_differences(before[i], *it->second, Vocabulary::builtin());
      if (!diffs.empty())
        emit(check, "/tools/" + std::to_string(i), "the hints changed across " + what + ": " + join(diffs, "; "), name);
    }
  }

  void judge_list_changed(const std::vector<json>& before, const std::vector<json>& after) {
    const auto& vocabulary = Vocabulary::builtin();
    const auto then = by_name(after);
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string name = tool_name(before[i]);
      auto it = then.find(name);
      if (it == then.end()) continue;
      const auto old_hints = read_tool_hints(before[i], vocabulary, options_.lint.spec_revision);
      const auto new_hints = read_tool_hints(*it->second, vocabulary, options_.lint.spec_revision);
      std::vector<std::string> weakened, changed;
      for (const auto& c : hint_changes(old_hints, new_hints, vocabulary)) {
        const std::string text = c.facet + " " + (c.before ? c.before->dump() : "no claim") + " -> " +
                                 (c.after ? c.after->dump() : "no claim");
        (c.weakened ? weakened : changed).push_back(text);
      }
      const std::string pointer = "/tools/" + std::to_string(i);
      if (!weakened.empty())
        emit(server_check("list-changed.weakened"), pointer,
             "after notifications/tools/list_changed the tool became less cautious: " + join(weakened, "; ") +
                 (changed.empty() ? "" : " (also " + join(changed, "; ") + ")"),
             name);
      else if (!changed.empty())
        emit(server_check("list-changed.changed"), pointer,
             "after notifications/tools/list_changed: " + join(changed, "; "), name);
    }
  }

  // Refuses up front, before anything is called, a call of a tool the server does not list
  // and, unless side effects are allowed, of a tool whose hints do not say read-only. Reading
  // the open world changes nothing in it, so open-world hints alone refuse nothing.
  std::vector<std::pair<const ToolCallRequest*, const json*>> vet_calls(const std::vector<json>& tools) const {
    std::vector<std::pair<const ToolCallRequest*, const json*>> out;
    const auto listed = by_name(tools);
    for (const auto& call : options_.calls) {
      auto it = listed.find(call.tool);
      if (it == listed.end() || call.tool.empty())
        throw CallRefused(call.tool, "the server lists no tool of that name", false);
      if (!options_.allow_side_effects)
        if (auto why = not_read_only(call.tool, *it->second); !why.empty()) throw CallRefused(call.tool, why, true);
      out.emplace_back(&call, it->second);
    }
    return out;
  }

  // Why the tool's hints do not let it be called as read-only, in its own terms: the hints that
  // say otherwise, or their absence and the specification's default; empty when they say read-only.
  std::string not_read_only(const std::string& name, const json& tool) const {
    const auto& vocabulary = Vocabulary::builtin();
    const auto hints = read_tool_hints(tool, vocabulary, options_.lint.spec_revision);
    const auto effect = hints.resolved("effect", vocabulary);
    if (effect && *effect == "read") return "";
    // What the specification assumes of a tool that says nothing, read from the crosswalk.
    const auto bare = read_tool_hints(json::object(), vocabulary, options_.lint.spec_revision);
    std::vector<std::string> defaults;
    for (const auto& claim : bare.claims)
      if (claim.facet == "effect") defaults.push_back(claim.source.field->key + " " + value_text(*claim.source.raw));
    const auto bare_effect = bare.resolved("effect", vocabulary);
    const std::string by_default =
        "the specification's default for a tool without hints is " +
        (bare_effect && *bare_effect == "delete" ? std::string("destructive")
                                                 : "effect " + value_text(bare_effect.value_or(json()))) +
        " (" + join(defaults) + ")";
    const auto said = hints.asserted("effect");
    if (said.empty()) {
      const bool no_hints =
          std::none_of(hints.claims.begin(), hints.claims.end(), [](const Claim& c) { return !c.defaulted; });
      return name + (no_hints ? " declares no hints; " : " declares no hint of its effect; ") + by_default;
    }
    std::vector<std::string> not_read;
    for (const Claim* claim : said)
      if (claim->value != "read")
        not_read.push_back(claim->source.field->key + " " + mcp_hints::shown(*claim->source.raw, 60) + " (effect " +
                           value_text(claim->value) + ")");
    return name + "'s hints say it is not read-only: " + join(not_read) + "; " + by_default +
           ", so only hints that say read-only let a call through";
  }

  bool call_tools(McpClientSession& session, Transport& transport, const std::vector<json>& tools) {
    const auto vetted = vet_calls(tools);
    const auto& vocabulary = Vocabulary::builtin();
    const auto& levels = vocabulary.facet("result-sensitivity");
    for (std::size_t i = 0; i < vetted.size(); ++i) {
      const auto& [call, tool] = vetted[i];
      step("session 1: tools/call " + call->tool);
      auto& record = report_.calls.emplace_back(ToolCallRecord{call->tool, call->arguments, {}, {}});
      json result;
      try {
        result = session.call_tool(call->tool, call->arguments);
      } catch (const ProtocolError& e) {
        // The session goes on: the other calls and the second session can still be checked.
        record.outcome = ToolCallRecord::Outcome::failed;
        record.detail = e.what();
        incomplete("tools/call " + call->tool + ": " + e.what(), &transport);
        continue;
      } catch (const TransportError& e) {
        record.outcome = ToolCallRecord::Outcome::failed;
        record.detail = e.what();
        incomplete("tools/call " + call->tool + ": " + e.what(), &transport);
        return false;
      }
      // A tool's own failure comes back as a result with isError (the specification asks tools to
      // report errors so): not the server breaking a rule, but the call did not do what the run
      // was asked to check, so the run is incomplete, with the tool's words.
      if (result.is_object() && result.contains("isError") && result["isError"] == true) {
        record.outcome = ToolCallRecord::Outcome::tool_error;
        record.detail = result_text(result);
        incomplete("tools/call " + call->tool + " answered isError true: " + record.detail, &transport);
      }
      const std::string base = "/calls/" + std::to_string(i);
      // The result's trust annotations under the revision pinned with --vocab (#711 otherwise),
      // and the interest group's extension wherever the result or a content block carries it.
      const VocabularyRevision* annotations_revision = vocabulary.find("trust-annotations@issue-711");
      for (const auto& pin : options_.lint.pinned)
        if (const auto* r = vocabulary.find(pin); r && r->id == "trust-annotations") annotations_revision = r;
      std::vector<const VocabularyRevision*> revisions = {annotations_revision};
      const ResultTrust trust = read_result_trust(result);
      if (result.dump().find(std::string(kTrustAnnotationsExtension)) != std::string::npos || trust.sensitive ||
          trust.untrusted)
        revisions.push_back(vocabulary.find("trust-annotations@ext-2026-06"));
      for (const auto* revision : revisions)
        for (const auto& v : published_schemas().validate(revision->schema, result))
          emit(server_check("result.trust-annotations"), base + v.pointer,
               "the result of " + call->tool + " at " + (v.pointer.empty() ? "/" : v.pointer) + " does not match " +
                   revision->ref() + ": " + v.message,
               call->tool);
      const json* annotations = find_member(result, {"_meta", "annotations"});
      if (!annotations || !annotations->is_object()) continue;
      const auto hints = read_tool_hints(*tool, vocabulary, options_.lint.spec_revision);
      const Claim* declared = hints.claim_of("policy-hints", "mcp.dev/resultSensitivity");
      if (!declared) continue;
      for (const auto& [key, value] : annotations->items()) {
        auto minimum = vocabulary.minimum_result_sensitivity(key, value);
        if (minimum && levels.rank(declared->value) < levels.rank(*minimum))
          emit(server_check("result.sensitivity-understated"), base + "/_meta/annotations/" + key,
               "the tool declares mcp.dev/resultSensitivity " + declared->value.dump() + " but its result says " + key +
                   " " + value.dump() + ", which is at least " + *minimum,
               call->tool);
      }
    }
    return true;
  }

  // Every message the server sends is held to the schema.json of the revision spoken (before a
  // revision is agreed: the one offered). At most kShownPerCheck findings per check are written.
  void watch_schema(McpClientSession& session, const std::string& which) {
    session.set_message_observer([this, &session, which](const json& message, Direction direction) {
      const std::string id = message.is_object() && message.contains("id") ? message["id"].dump() : "";
      if (direction == Direction::client_to_server) {
        if (!id.empty() && message.contains("method")) asked_[which + id] = message.value("method", "");
        return;
      }
      const std::string revision =
          session.protocol_version().empty() ? supported_protocol_versions().front() : session.protocol_version();
      std::string answered;
      if (auto it = asked_.find(which + id); !id.empty() && it != asked_.end() && !message.contains("method"))
        answered = it->second;
      std::vector<ProtocolViolation> violations;
      try {
        violations = schemas_.validate_message(revision, message, direction, answered);
      } catch (const UnknownProtocolSchema&) {
        return;  // a revision without a bundled schema: the era's other checks still apply
      }
      for (const auto& v : violations) {
        // The same violation in every listing or session is one finding.
        if (!schema_seen_.insert(std::string(v.check_id) + v.definition + v.pointer + v.message).second) continue;
        const std::size_t n = ++schema_findings_[std::string(v.check_id)];
        if (n > kShownPerCheck) continue;
        emit(*find_server_check(v.check_id), v.pointer,
             which + ": " + std::string(to_string(v.direction)) + (v.method.empty() ? "" : " " + v.method) + " (" +
                 revision + " " + v.definition + "): " + v.message +
                 (n == kShownPerCheck ? " (further violations of this check are counted, not shown)" : ""));
      }
    });
  }

  const ServerTarget& target_;
  const CheckServerOptions& options_;
  LintReport& report_;
  Linter linter_;
  Deadline deadline_;
  std::string file_;
  InitializeResult init_;
  static constexpr std::size_t kShownPerCheck = 20;
  ProtocolSchemas schemas_;
  std::map<std::string, std::string> asked_;  // session + request id -> method
  std::map<std::string, std::size_t> schema_findings_;
  std::set<std::string> schema_seen_;
};

}  // namespace

LintReport check_server(const ServerTarget& target, const CheckServerOptions& options) {
  LintReport report;
  report.spec_revision = options.lint.spec_revision;
  Run(target, options, report).execute();
  return report;
}

}  // namespace mcp_hints
