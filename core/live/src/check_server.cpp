#include "mcp_hints/live/check_server.hpp"

#include "mcp_hints/checks/server_checks.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "mcp_hints/wire/param_headers.hpp"
#include "mcp_hints/wire/protocol_schema.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// A tool's name as it stands in the tool ("" when it has none).
std::string_view name_in(const json& tool) {
  if (!tool.is_object()) return {};
  const auto& members = tool.get_ref<const json::object_t&>();
  const auto name = members.find("name");
  return name != members.end() && name->second.is_string()
             ? std::string_view(name->second.get_ref<const std::string&>())
             : std::string_view();
}

std::string tool_name(const json& tool) { return std::string(name_in(tool)); }

// Each name's first tool; the names are viewed in `tools`, which must outlive the map.
std::unordered_map<std::string_view, const json*> by_name(const std::vector<json>& tools) {
  std::unordered_map<std::string_view, const json*> out;
  out.reserve(tools.size());
  for (const auto& t : tools) out.emplace(name_in(t), &t);
  return out;
}

// Whether two values are the same JSON to a schema: of one type (an integer and the float of its
// value are not, as valijson's strict types tell them apart) and equal, member by member.
bool same_json(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    const auto &x = a.get_ref<const json::object_t&>(), &y = b.get_ref<const json::object_t&>();
    if (x.size() != y.size()) return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
      if (i->first != j->first || !same_json(i->second, j->second)) return false;
    return true;
  }
  if (a.is_array()) {
    const auto &x = a.get_ref<const json::array_t&>(), &y = b.get_ref<const json::array_t&>();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same_json(x[i], y[i])) return false;
    return true;
  }
  if (a.is_number_float())  // -0.0 is written as such
    return a.get<double>() == b.get<double>() && std::signbit(a.get<double>()) == std::signbit(b.get<double>());
  return a == b;
}

// Whether an object's members, but those named in `left_out`, are the same JSON as `rest`'s.
bool same_json_but(const json& whole, std::initializer_list<std::string_view> left_out, const json& rest) {
  if (!whole.is_object() || !rest.is_object()) return false;
  const auto &x = whole.get_ref<const json::object_t&>(), &y = rest.get_ref<const json::object_t&>();
  auto j = y.begin();
  for (const auto& [name, value] : x) {
    if (std::find(left_out.begin(), left_out.end(), name) != left_out.end()) continue;
    if (j == y.end() || name != j->first || !same_json(value, j->second)) return false;
    ++j;
  }
  return j == y.end();
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

std::string shown_or_absent(const json* value) { return value ? mcp_hints::shown(*value, 60) : "absent"; }

// What differs in a tool's hints between two listings: every crosswalk field of a tool
// vocabulary, then any other annotation.
std::vector<std::string> hint_differences(const json& before, const json& after, const Vocabulary& vocabulary) {
  std::vector<std::string> out;
  const LocatedFields in_before = vocabulary.locate(before), in_after = vocabulary.locate(after);
  for (const auto& field : vocabulary.fields()) {
    if (field.is_message_field) continue;
    const json* b = in_before.value(field);
    const json* a = in_after.value(field);
    if ((b == nullptr) != (a == nullptr) || (b && *b != *a))
      out.push_back(field.key + " " + shown_or_absent(b) + " -> " + shown_or_absent(a));
  }
  const json* ab = find_member(before, {"annotations"});
  const json* aa = find_member(after, {"annotations"});
  if (out.empty() && ((ab == nullptr) != (aa == nullptr) || (ab && *ab != *aa)))
    out.push_back("annotations " + shown_or_absent(ab) + " -> " + shown_or_absent(aa));
  return out;
}

// A violation inside one tool of a tools/list result: that tool's name and pointer, so that the
// finding names its tool and a baseline's fingerprint follows the tool, not its place in the page.
std::pair<std::string, std::string> listed_tool(const json& message, const std::string& method,
                                                const std::string& pointer) {
  static const std::string prefix = "/result/tools/";
  if (method != "tools/list" || !pointer.starts_with(prefix)) return {};
  const auto end = pointer.find('/', prefix.size());
  const std::string index = pointer.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size());
  if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos) return {};
  const json* tools = find_member(message, {"result", "tools"});
  const std::size_t i = std::stoul(index);
  if (!tools || !tools->is_array() || i >= tools->size()) return {};
  return {tool_name((*tools)[i]), prefix + index};
}

// The target as a user of the authorization context reaches it.
ServerTarget in_context(ServerTarget target, const AuthContext& context) {
  target.headers.insert(target.headers.end(), context.headers.begin(), context.headers.end());
  target.env.insert(target.env.end(), context.env.begin(), context.env.end());
  return target;
}

static_assert(std::ranges::all_of(protocol_check::all,
                                  [](std::string_view id) { return find_server_check(id) != nullptr; }),
              "every protocol schema check is a server check (server_checks.hpp)");

class Run {
 public:
  Run(const ServerTarget& target, const CheckServerOptions& options, LintReport& report)
      : given_(target),
        target_(in_context(target, options.auth_contexts.empty() ? AuthContext{} : options.auth_contexts.front())),
        options_(options),
        report_(report),
        linter_(options.lint),
        deadline_(Clock::now() + options.timeout),
        file_(options.label.empty() ? target.describe() : options.label) {}

  void execute() {
    report_.server_checks_ran = true;
    report_.files.push_back(FileResult{file_, 0, std::nullopt, {}, {}, {}});
    // While the server starts, the protocol schemas its listing may be judged in are made ready.
    if (options_.lint.jobs > 1) try {
        prepared_ = std::jthread([this, revisions = revisions_in_reach()] {
          for (const auto& revision : revisions) try {
              schemas_.prepare_listing(revision);
            } catch (...) {
              // Judging the first answer says what is wrong, in its place.
            }
        });
      } catch (const std::system_error&) {
        // No thread to be had: the first answer judged prepares what it needs.
      }
    std::vector<json> first;
    if (!first_session(first)) return;
    // Without other authorization contexts to list, session 2 is the first catalog's last use: it
    // is freed while the restarted server goes down.
    const bool contexts_follow = options_.auth_contexts.size() > 1;
    second_session(first, !contexts_follow);
    if (contexts_follow) other_contexts(first);
  }

 private:
  void step(const std::string& what) {
    if (options_.progress) options_.progress(what);
  }

  // The first session's revision decides the revision the tools are linted against, when the run
  // follows the server's (before any tool is linted).
  void lint_in_revision_spoken() {
    if (!options_.lint_revision_spoken) return;
    const std::string revision = Vocabulary::builtin().spec_revision_spoken(init_.protocol_version);
    if (revision == linter_.options().spec_revision) return;
    LintOptions lint = options_.lint;
    lint.spec_revision = revision;
    linter_ = Linter(std::move(lint));
    report_.spec_revision = revision;
  }

  // The check comes from server_check(), which finds it at compile time. A finding of a whole
  // listed tool has its pointer as the tool's (a baseline's fingerprint takes what is below it).
  void emit(const CheckInfo& check, const std::string& pointer, const std::string& message,
            const std::string& tool = "", const std::string& tool_pointer = "") {
    Finding finding{std::string(check.id),       check.level, file_,        tool, pointer, 0, 0, message,
                    std::string(check.proposal), 0,           tool_pointer, {}};
    if (held_)
      held_->push_back(std::move(finding));
    else
      report_.findings.push_back(std::move(finding));
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
    watch_schema(*session, *transport, which);
    step(which + (options_.protocol.era == EraChoice::legacy ? ": initialize" : ": server/discover or initialize"));
    try {
      init_ = session->connect();
      if (report_.protocol_version.empty()) lint_in_revision_spoken();
      report_.protocol_version = init_.protocol_version;
      report_.protocol_era = to_string(init_.era);
      report_.protocol_fallback = init_.fallback_reason;
    } catch (const ProtocolError& e) {
      const std::string what = e.what();
      const bool version = what.find("protocol version") != std::string::npos;
      const bool discover_versions = what.find("lists no stateless revision") != std::string::npos;
      const CheckInfo& check = discover_versions ? server_check("stateless.discover-versions")
                               : version         ? server_check("server.protocol-version")
                                                 : server_check("server.initialize");
      emit(check, "", which + ": " + what);
      report_.diagnostics = transport->diagnostics();
      // A revision the server may choose but mcp-hints does not speak is no fault of the server's
      // (the client "SHOULD disconnect"): the finding informs, and the run cannot go on.
      if (version && !discover_versions)
        incomplete(which +
                       ": the server chose a protocol version mcp-hints does not speak here; nothing more "
                       "could be checked",
                   nullptr);
      return false;
    } catch (const TransportError& e) {
      incomplete(which + ": " + (session->era() == ProtocolEra::stateless ? "server/discover" : "initialize") + ": " +
                     e.what(),
                 transport.get());
      return false;
    }
    if (!init_.capabilities.contains("tools"))
      emit(server_check("server.tools-capability"), "",
           which + ": the initialize result declares capabilities " + shown_or_absent(&init_.capabilities) +
               " without tools, yet mcp-hints is to list its tools");
    return true;
  }

  // Lists tools; false when the run cannot go on. An answer that repeats session 1's first listing
  // is not read again where the transport can tell (its listing then holds no tools, and
  // repeats_first_hints() says whose they are).
  bool list(McpClientSession& session, Transport& transport, ToolListing& listing, const std::string& which) {
    step(which + ": tools/list");
    struct Expecting {
      Transport& transport;
      ~Expecting() { transport.expect_repeat(nullptr); }
    } expecting{transport};
    transport.expect_repeat(expected_repeat(session));
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
    close_freeing_spent(*transport);
    return ok;
  }

  // Closes a session's transport; the listings already judged are freed meanwhile (a large
  // catalog's tree takes about as long to free as the kernel takes to end its server) or, where
  // the run may use two threads, on one of their own while the run goes on (the next server starts).
  void close_freeing_spent(Transport& transport) {
    transport.begin_close();
    if (disposer_.joinable()) disposer_.join();
    if (options_.lint.jobs > 1) try {
        disposer_ = std::jthread([gone = std::move(spent_)]() mutable { gone.clear(); });
      } catch (const std::system_error&) {
        // No thread to be had: what it was to free is freed here, as the closure goes.
      }
    spent_.clear();
    transport.close();
  }

  bool first_session_steps(Transport& transport, McpClientSession& session, std::vector<json>& tools) {
    ToolListing listing;
    if (!list(session, transport, listing, "session 1")) return false;
    first_listed_ = Clock::now();
    first_pages_ = listing.pages;
    // -1: none promised (a plain value: GCC 12 wrongly takes an optional here for uninitialised).
    const long long ttl_ms = session.era() == ProtocolEra::stateless ? listing.ttl_ms().value_or(-1) : -1;
    tools = std::move(listing.tools);
    first_tools_ = &tools;
    if (session.era() == ProtocolEra::stateless) judge_param_header_declarations(tools);
    if (session.era() == ProtocolEra::stateless && !stateless_probes(session, transport)) return false;
    SessionLint lint(*this, tools, std::move(listing.tool_duplicates));
    const bool ok = relist_observe_and_call(transport, session, tools, ttl_ms, lint);
    lint.finish();
    return ok;
  }

  // Session 1's tools through every lint check, their findings where linting them at this point
  // of the run puts them: in line or, with lint.jobs above 1, on a thread of their own while the
  // session goes on (the next listing is read meanwhile), the run's findings held back until
  // finish() has waited for it and put the tools' first.
  class SessionLint {
   public:
    SessionLint(Run& run, const std::vector<json>& tools,
                std::map<std::size_t, std::vector<DuplicateMember>> duplicates)
        : run_(run), tools_(tools), duplicates_(std::move(duplicates)) {
      if (run.options_.lint.jobs > 1) try {
          worker_ = std::jthread([this] { lint(); });
          run_.held_ = &held_;
          return;
        } catch (const std::system_error&) {
          // No thread to be had: linted in line.
        }
      lint();
      finish();
    }
    SessionLint(const SessionLint&) = delete;
    SessionLint& operator=(const SessionLint&) = delete;
    ~SessionLint() {
      if (worker_.joinable()) worker_.join();
      run_.held_ = nullptr;
    }

    // Once done, again is nothing.
    void finish() {
      if (worker_.joinable()) worker_.join();
      run_.held_ = nullptr;
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      for (auto* findings : {&found_, &held_}) {
        for (auto& f : *findings) run_.report_.findings.push_back(std::move(f));
        findings->clear();
      }
    }

   private:
    void lint() {
      try {
        auto& file = run_.report_.files.front();
        for (std::size_t i = 0; i < tools_.size(); ++i) {
          const auto duplicates = duplicates_.find(i);
          file.tool_revisions.push_back(run_.linter_.lint_tool(
              tools_[i], run_.file_, "/tools/" + std::to_string(i), nullptr, found_,
              duplicates == duplicates_.end() ? std::span<const DuplicateMember>() : duplicates->second));
          file.tool_names.push_back(tool_name(tools_[i]));
        }
        file.tool_count = tools_.size();
      } catch (...) {
        error_ = std::current_exception();
      }
    }

    Run& run_;
    const std::vector<json>& tools_;
    const std::map<std::size_t, std::vector<DuplicateMember>> duplicates_;
    std::vector<Finding> found_;  // the tools'
    std::vector<Finding> held_;   // the run's, made meanwhile
    std::exception_ptr error_;
    std::jthread worker_;
  };

  bool relist_observe_and_call(Transport& transport, McpClientSession& session, const std::vector<json>& tools,
                               long long ttl_ms, SessionLint& lint) {
    // The same session, listed again.
    ToolListing again;
    if (!list(session, transport, again, "session 1, second listing")) return false;
    // Within the ttlMs the first listing promised, a change is one a cache would hide.
    if (repeats_first_hints(again)) {
      // Nothing to compare: the same JSON.
    } else if (ttl_ms >= 0 && Clock::now() < first_listed_ + std::chrono::milliseconds(ttl_ms)) {
      compare(tools, again.tools, server_check("stateless.ttl-changed"),
              "a second tools/list within the ttlMs of " + std::to_string(ttl_ms) + " the first promised");
    } else {
      compare(tools, again.tools, server_check("stability.relist"), "a second tools/list in the same session");
    }
    spent_.push_back(std::move(again));

    // Notifications the server sends on its own within the window: in the stateless era on a
    // subscriptions/listen stream, the only place the era delivers tools/list_changed, opened when
    // the server says it sends them.
    const std::string window = std::to_string(options_.observe_window.count()) + " ms";
    const json* list_changed = find_member(init_.capabilities, {"tools", "listChanged"});
    const bool subscribe = session.era() == ProtocolEra::stateless && list_changed && *list_changed == true &&
                           options_.observe_window.count() > 0;
    step("session 1: " + (subscribe ? "subscriptions/listen for toolsListChanged, read for " + window
                                    : "waiting " + window + " for notifications"));
    try {
      if (subscribe)
        subscription_in_window(session, transport);
      else
        session.observe(options_.observe_window);
    } catch (const TransportError& e) {
      incomplete("session 1: while waiting for notifications: " + std::string(e.what()), &transport);
      return false;
    }
    if (session.notification_count("notifications/tools/list_changed") > 0) {
      ToolListing changed;
      if (!list(session, transport, changed, "session 1, after tools/list_changed")) return false;
      if (!repeats_first_hints(changed)) judge_list_changed(tools, changed.tools);
    }
    if (ttl_ms >= 0 && !after_expiry(session, transport, tools, ttl_ms)) return false;
    if (!options_.calls.empty()) lint.finish();  // a call has effects: not before the lint has had its say
    return call_tools(session, transport, tools);
  }

  void second_session(std::vector<json>& first, bool last_use) {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<McpClientSession> session;
    const std::string which = target_.url.empty() ? "session 2 (restarted server)" : "session 2";
    if (!open_session(transport, session, which)) return;
    ToolListing listing;
    const bool listed = list(*session, *transport, listing, which);
    transport->begin_close();  // nothing more is asked of it
    if (listed && !repeats_first_hints(listing))
      compare(first, listing.tools, server_check("stability.restart"),
              target_.url.empty() ? "a restart of the server" : "a second session");
    spent_.push_back(std::move(listing));
    if (last_use) {
      first_tools_ = nullptr;
      spent_.emplace_back().tools = std::move(first);
    }
    close_freeing_spent(*transport);
  }

  void compare(const std::vector<json>& before, const std::vector<json>& after, const CheckInfo& check,
               const std::string& what) {
    const auto then = by_name(after);
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string_view name = name_in(before[i]);
      auto it = then.find(name);
      if (it == then.end()) continue;
      auto diffs = hint_differences(before[i], *it->second, Vocabulary::builtin());
      if (!diffs.empty())
        emit(check, "/tools/" + std::to_string(i), "the hints changed across " + what + ": " + join(diffs, "; "),
             std::string(name), "/tools/" + std::to_string(i));
    }
  }

  // The x-mcp-header annotations of each tool (2026-07-28): a tool that breaks their constraints is
  // one every client over Streamable HTTP must leave out of its tools.
  void judge_param_header_declarations(const std::vector<json>& tools) {
    for (std::size_t i = 0; i < tools.size(); ++i) {
      const json* schema = find_member(tools[i], {"inputSchema"});
      if (!schema) continue;
      if (const std::string why = invalid_param_headers(*schema); !why.empty())
        emit(server_check("stateless.param-header-invalid"), "/tools/" + std::to_string(i) + "/inputSchema",
             "every x-mcp-header should keep the constraints of 2026-07-28, but " + why +
                 ": a client over Streamable HTTP must leave the tool out",
             std::string(tool_name(tools[i])), "/tools/" + std::to_string(i));
    }
  }

  // A subscriptions/listen stream for toolsListChanged, read for the observe window. One that brings
  // nothing there (a server slow to answer, or one that never acknowledges) is opened again and read
  // for the request timeout, the time any answer gets, before its silence is a finding.
  void subscription_in_window(McpClientSession& session, Transport& transport) {
    const json filter = {{"toolsListChanged", true}};
    SubscriptionWindow window = session.listen(filter, options_.observe_window);
    std::string waited = "within the " + std::to_string(options_.observe_window.count()) + " ms observe window";
    if (window.messages.empty() && !window.answer) {
      step("session 1: nothing came on the subscriptions/listen stream; another, read for " +
           std::to_string(options_.request_timeout.count()) + " ms");
      window = session.listen(filter, options_.request_timeout);
      waited += ", nor on a second stream within the " + std::to_string(options_.request_timeout.count()) +
                " ms request timeout";
    }
    judge_subscription(window, transport.stream_per_request(), waited);
  }

  // A subscriptions/listen stream that asked for toolsListChanged alone, as read (2026-07-28,
  // Subscriptions). Over stdio every message shares the channel: only what a subscription delivers
  // is held to its tag there.
  void judge_subscription(const SubscriptionWindow& window, bool own_stream, const std::string& waited) {
    const std::string stream = "the subscriptions/listen stream (request " + window.id.dump() + ")";
    if (window.answer && window.answer->contains("error")) {
      emit(server_check("subscriptions.listen-refused"), "",
           "the server declares tools.listChanged, so " + stream +
               " should open and acknowledge, but the request was answered with error " +
               shown_or_absent(&(*window.answer)["error"]));
      return;
    }
    static const std::set<std::string> unasked = {"notifications/prompts/list_changed",
                                                  "notifications/resources/list_changed",
                                                  "notifications/resources/updated"};
    const auto method_of = [](const json& m) { return m.value("method", std::string()); };
    const auto delivered = [&](const json& m) {
      const std::string method = method_of(m);
      return own_stream || unasked.count(method) || method == "notifications/tools/list_changed" ||
             method == "notifications/subscriptions/acknowledged";
    };
    std::vector<const json*> on_stream;
    for (const auto& m : window.messages)
      if (delivered(m)) on_stream.push_back(&m);
    const auto ack = std::find_if(on_stream.begin(), on_stream.end(), [&](const json* m) {
      return method_of(*m) == "notifications/subscriptions/acknowledged";
    });
    const std::string expected = stream + " should open with notifications/subscriptions/acknowledged, but ";
    if (ack == on_stream.end())
      emit(server_check("subscriptions.acknowledged"), "",
           expected + (window.answer ? "the server ended the subscription (a result) without acknowledging it"
                       : on_stream.empty()
                           ? "nothing came on it " + waited
                           : "none of its " + std::to_string(on_stream.size()) + " notification(s) was one (first, " +
                                 method_of(*on_stream.front()) + ")"));
    else if (ack != on_stream.begin())
      emit(server_check("subscriptions.acknowledged"), "",
           expected + method_of(*on_stream.front()) + " came before the acknowledgment");
    std::size_t untagged = 0;
    std::string first_untagged;
    for (const json* m : on_stream) {
      const json* tag = find_member(*m, {"params", "_meta", kSubscriptionIdMeta});
      if (tag && *tag == window.id) continue;
      if (untagged++ == 0)
        first_untagged = method_of(*m) + " (" + kSubscriptionIdMeta + " " + shown_or_absent(tag) + ")";
    }
    if (untagged)
      emit(server_check("subscriptions.id-tagged"), "",
           "every notification on " + stream + " should carry " + kSubscriptionIdMeta + " " + window.id.dump() +
               ", but " + std::to_string(untagged) + " of " + std::to_string(on_stream.size()) + " did not; first, " +
               first_untagged);
    for (const json* m : on_stream)
      if (unasked.count(method_of(*m))) {
        emit(server_check("subscriptions.filter"), "",
             stream + " asked for toolsListChanged alone, but the server sent " + method_of(*m) + " on it");
        break;
      }
  }

  void judge_list_changed(const std::vector<json>& before, const std::vector<json>& after) {
    judge_weakening(before, after, server_check("list-changed.weakened"), &server_check("list-changed.changed"),
                    "after notifications/tools/list_changed");
  }

  // Hints that became less cautious between two listings are `weakened`; other changes are
  // `changed` (none: they are not reported).
  void judge_weakening(const std::vector<json>& before, const std::vector<json>& after, const CheckInfo& weakened_check,
                       const CheckInfo* changed_check, const std::string& when) {
    const auto& vocabulary = Vocabulary::builtin();
    const auto then = by_name(after);
    for (std::size_t i = 0; i < before.size(); ++i) {
      const std::string name = tool_name(before[i]);
      auto it = then.find(name);
      if (it == then.end()) continue;
      const auto old_hints = read_tool_hints(before[i], vocabulary, linter_.options().spec_revision);
      const auto new_hints = read_tool_hints(*it->second, vocabulary, linter_.options().spec_revision);
      std::vector<std::string> weakened, changed;
      for (const auto& c : hint_changes(old_hints, new_hints, vocabulary)) {
        const std::string text = c.facet + " " + (c.before ? c.before->dump() : "no claim") + " -> " +
                                 (c.after ? c.after->dump() : "no claim");
        (c.weakened ? weakened : changed).push_back(text);
      }
      const std::string pointer = "/tools/" + std::to_string(i);
      if (!weakened.empty())
        emit(weakened_check, pointer,
             when + " the tool became less cautious: " + join(weakened, "; ") +
                 (changed.empty() ? "" : " (also " + join(changed, "; ") + ")"),
             name, pointer);
      else if (!changed.empty() && changed_check)
        emit(*changed_check, pointer, when + ": " + join(changed, "; "), name, pointer);
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
    const auto hints = read_tool_hints(tool, vocabulary, linter_.options().spec_revision);
    const auto effect = hints.resolved("effect", vocabulary);
    if (effect && *effect == "read") return "";
    // What the specification assumes of a tool that says nothing, read from the crosswalk.
    const auto bare = read_tool_hints(json::object(), vocabulary, linter_.options().spec_revision);
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
      // A result claims at most what its tool declares (the crosswalk's "at-most" relations):
      // each claim above the tool's most cautious declared value shows the declaration understated.
      const auto hints = read_tool_hints(*tool, vocabulary, linter_.options().spec_revision);
      for (const auto& claim : read_message_claims(result, vocabulary, revisions))
        for (const auto& relation : vocabulary.relations()) {
          if (relation.rule != "at-most" || relation.message_facet != claim.claim.facet) continue;
          // The relation's server check (a test holds every at-most relation to naming one).
          const CheckInfo* check = nullptr;
          for (const auto& id : relation.checks)
            if (!check) check = find_server_check(id);
          if (!check) continue;
          const auto& scale = vocabulary.facet(relation.tool_facet);
          const Claim* ceiling = nullptr;
          for (const Claim* c : hints.asserted(relation.tool_facet))
            if (!ceiling || scale.rank(c->value) > scale.rank(ceiling->value)) ceiling = c;
          if (!ceiling || scale.rank(claim.claim.value) <= scale.rank(ceiling->value)) continue;
          emit(*check, base + claim.pointer,
               "the tool declares " + describe_source(ceiling->source) + " " + ceiling->source.raw->dump() +
                   " but its result says " + claim.field->key + " " + claim.raw->dump() + ", which claims " +
                   relation.tool_facet + " " + value_text(claim.claim.value) + ", more than declared",
               call->tool);
        }
      if (!probe_param_headers(session, transport, *call, *tool)) return false;
    }
    return true;
  }

  // SEP-2243 (2026-07-28, over HTTP): a tool the run was asked to call, whose parameters the call
  // mirrors in Mcp-Param headers, is called once more with the first such header's value wrong and,
  // when that is refused, once without it. Each must be refused with HTTP 400 and -32020, before
  // the tool runs. Only a tool the run calls anyway: a server that does not validate runs it again,
  // and is not asked a second time.
  bool probe_param_headers(McpClientSession& session, Transport& transport, const ToolCallRequest& call,
                           const json& tool) {
    if (target_.url.empty() || session.era() != ProtocolEra::stateless) return true;
    const json* schema = find_member(tool, {"inputSchema"});
    if (!schema || !invalid_param_headers(*schema).empty()) return true;
    const auto mirrored = param_headers(*schema, call.arguments);
    const auto text = mirrored.empty() ? std::nullopt : decoded_header_value(mirrored[0].second);
    if (!text) return true;
    const json params = {{"name", call.tool}, {"arguments", call.arguments}, {"_meta", session.protocol_meta()}};
    const std::string& header = mirrored[0].first;
    const std::pair<std::string, std::optional<std::string>> probes[] = {
        {"whose " + header + " header says other than its argument", mismatched_header_value(*text)},
        {"without its " + header + " header", std::nullopt}};
    for (const auto& [what, value] : probes) {
      const std::string probe = "a tools/call of " + call.tool + " " + what;
      step("session 1: " + probe);
      Transport::HeaderOverrides headers(mirrored.begin(), mirrored.end());
      headers[0].second = value;
      McpClientSession::ProbeAnswer answer;
      std::string refused;
      if (!send_probe(session, transport, "tools/call", params, std::move(headers), answer, refused)) return false;
      if (answer.http_status == 400 && answer.error && answer.error->value("code", 0) == header_mismatch_code) continue;
      emit(server_check("stateless.param-header-mismatch"), "",
           "session 1: " + probe + " should be refused with HTTP 400 and error -32020, but " +
               what_came(answer, refused),
           call.tool);
      break;
    }
    return true;
  }

  // A result read in the revision in play: in the stateless era its resultType is one the revision
  // knows; in the legacy era it carries none of the stateless era's members. Once per session and method.
  void judge_era(const json& result, const std::string& revision, const std::string& method, const std::string& which) {
    if (!result.is_object()) return;
    const std::string about = which + ": the " + (method.empty() ? "" : method + " ") + "result";
    if (is_stateless_revision(revision)) {
      if (result.contains("resultType") && result["resultType"].is_string() && result["resultType"] != "complete" &&
          result["resultType"] != "input_required" && era_seen_.insert("type" + which + method).second)
        emit(server_check("stateless.result-type"), "/result/resultType",
             about + " says resultType " + mcp_hints::shown(result["resultType"], 60) + "; " + revision +
                 " knows complete and input_required");
      return;
    }
    std::vector<std::string> stateless_members;
    for (const char* key : {"resultType", "ttlMs", "cacheScope", "supportedVersions"})
      if (result.contains(key)) stateless_members.push_back(key);
    if (!stateless_members.empty() && era_seen_.insert("mixed" + which + method).second)
      emit(server_check("era.mixed"), "/result",
           about + ", in a " + revision + " (legacy era) conversation, carries " + join(stateless_members, ", ") +
               ", which only the stateless era (2026-07-28) has");
  }

  // What came of a probe, as the end of a sentence: the answer (a result by its members, what kind
  // of result it is; the JSON-RPC error; the HTTP status), the refusal without one, or the silence.
  std::string what_came(const McpClientSession::ProbeAnswer& answer, const std::string& refused) const {
    if (!refused.empty()) return "it was refused: " + refused;
    if (!answer.answered())
      return "it was not answered within " + std::to_string(options_.request_timeout.count()) + " ms";
    std::string text = answer.error ? "error " + mcp_hints::shown(*answer.error, 160) : "";
    if (answer.result) {
      std::vector<std::string> members;
      if (answer.result->is_object())
        for (const auto& [key, value] : answer.result->items()) members.push_back(key);
      text = answer.result->is_object() ? "a result with members " + join(members, ", ")
                                        : "a result " + mcp_hints::shown(*answer.result, 100);
    }
    if (answer.http_status) text += " (HTTP " + std::to_string(answer.http_status) + ")";
    return "it was answered with " + text;
  }

  // Sends a probe; a transport error over HTTP (a refusal without a JSON-RPC error) is an answer
  // too, told in `refused`; false when the server is gone.
  bool send_probe(McpClientSession& session, Transport& transport, const std::string& method, const json& params,
                  Transport::HeaderOverrides headers, McpClientSession::ProbeAnswer& answer, std::string& refused) {
    try {
      answer = session.probe(method, params, std::move(headers), options_.request_timeout);
    } catch (const TransportError& e) {
      if (target_.url.empty() || !transport.alive()) {
        incomplete("session 1: probing " + method + ": " + e.what(), &transport);
        return false;
      }
      answer.http_status = transport.last_http_status();
      refused = e.what();
    }
    return true;
  }

  // The stateless era's own rules, each probed once in session 1: what the server says to a
  // revision it does not speak, to a request naming none, to headers that disagree with the body,
  // and to the revisions its server/discover result lists.
  bool stateless_probes(McpClientSession& session, Transport& transport) {
    step("session 1: probing the stateless era's version and header handling");
    const bool http = !target_.url.empty();
    McpClientSession::ProbeAnswer answer;
    std::string refused;
    // A revision no server speaks, named in the body and (HTTP) the version header alike.
    const std::string unknown = "1900-01-01";
    json params = {{"_meta", session.protocol_meta()}};
    params["_meta"][kProtocolVersionMeta] = unknown;
    if (!send_probe(session, transport, "tools/list", params, {{"MCP-Protocol-Version", unknown}}, answer, refused))
      return false;
    {
      std::vector<std::string> wrong;
      const json data = answer.error ? answer.error->value("data", json()) : json();
      if (!answer.error || answer.error->value("code", 0) != unsupported_protocol_version)
        wrong.push_back(what_came(answer, refused));
      else if (data.is_object() && data.contains("requested") && data["requested"] != unknown)
        wrong.push_back("its data names " + mcp_hints::shown(data["requested"], 60) + " as requested");
      if (http && answer.error && answer.http_status != 400)
        wrong.push_back("over HTTP with status " + std::to_string(answer.http_status) + ", not 400");
      if (!wrong.empty())
        emit(server_check("stateless.version-unsupported"), "",
             "session 1: a tools/list naming protocol version " + unknown + " should get error -32022 with data " +
                 "{requested, supported}" + (http ? " and HTTP 400" : "") + ", but " + join(wrong, "; "));
    }
    // A request whose _meta names no revision (HTTP: the version header still sent).
    answer = {};
    refused.clear();
    if (!send_probe(session, transport, "tools/list", json::object(), {}, answer, refused)) return false;
    {
      const bool serves_legacy = std::ranges::any_of(
          init_.supported_versions, [](const std::string& v) { return !v.empty() && !is_stateless_revision(v); });
      std::string wrong;
      if (!answer.answered() && refused.empty())
        wrong = what_came(answer, refused);
      else if (answer.result && (answer.result->contains("resultType") || !serves_legacy))
        wrong =
            "it was answered with a result" + std::string(answer.result->contains("resultType")
                                                              ? " of the stateless era (it carries resultType)"
                                                              : " although server/discover lists no legacy revision");
      if (!wrong.empty())
        emit(server_check("stateless.version-missing"), "",
             "session 1: a tools/list whose _meta names no protocol version should get an error, but " + wrong);
    }
    if (http && !probe_headers(session, transport)) return false;
    return probe_listed_versions(session, transport);
  }

  // Over HTTP: Mcp-Method missing or another method's, and for tools/call Mcp-Name missing or
  // another tool's. The tool named is one the server does not list: a probe never calls a tool.
  bool probe_headers(McpClientSession& session, Transport& transport) {
    const std::string absent = "mcp-hints-probe-no-such-tool";
    const json call = {{"name", absent}, {"arguments", json::object()}, {"_meta", session.protocol_meta()}};
    const json list = {{"_meta", session.protocol_meta()}};
    struct HeaderProbe {
      std::string what, method;
      json params;
      Transport::HeaderOverrides headers;
    };
    const std::vector<HeaderProbe> probes = {
        {"a tools/list without Mcp-Method", "tools/list", list, {{"Mcp-Method", std::nullopt}}},
        {"a tools/list whose Mcp-Method says tools/call", "tools/list", list, {{"Mcp-Method", "tools/call"}}},
        {"a tools/call without Mcp-Name", "tools/call", call, {{"Mcp-Name", std::nullopt}}},
        {"a tools/call whose Mcp-Name names another tool", "tools/call", call, {{"Mcp-Name", absent + "-other"}}},
    };
    for (const auto& probe : probes) {
      McpClientSession::ProbeAnswer answer;
      std::string refused;
      if (!send_probe(session, transport, probe.method, probe.params, probe.headers, answer, refused)) return false;
      const bool right =
          answer.http_status == 400 && answer.error && answer.error->value("code", 0) == header_mismatch_code;
      if (!right)
        emit(server_check("stateless.header-mismatch"), "",
             "session 1: " + probe.what + " should be refused with HTTP 400 and error -32020, but " +
                 what_came(answer, refused));
    }
    return true;
  }

  // Every revision server/discover lists that mcp-hints speaks, besides the one in use, is asked
  // for: a stateless one with a tools/list naming it, the newest legacy one with an initialize on a
  // connection of its own. A -32022 answer shows the list lies.
  bool probe_listed_versions(McpClientSession& session, Transport& transport) {
    const auto speaks = all_protocol_versions();
    bool legacy_asked = false;
    for (const auto& version : init_.supported_versions) {
      if (version == init_.protocol_version || std::ranges::find(speaks, version) == speaks.end()) continue;
      json error;
      if (is_stateless_revision(version)) {
        json params = {{"_meta", session.protocol_meta()}};
        params["_meta"][kProtocolVersionMeta] = version;
        McpClientSession::ProbeAnswer answer;
        std::string refused;
        if (!send_probe(session, transport, "tools/list", params, {{"MCP-Protocol-Version", version}}, answer, refused))
          return false;
        if (answer.error) error = *answer.error;
      } else {
        if (legacy_asked) continue;
        legacy_asked = true;
        error = legacy_refusal(version);
      }
      if (error.is_object() && error.value("code", 0) == unsupported_protocol_version)
        emit(server_check("stateless.discover-versions"), "/result/supportedVersions",
             "session 1: server/discover lists " + version + ", but " +
                 (is_stateless_revision(version) ? "a tools/list naming it" : "an initialize offering it") +
                 " was refused with " + mcp_hints::shown(error, 160));
    }
    return true;
  }

  // How the server answers an initialize offering `version`, on a connection of its own: the
  // JSON-RPC error, or null when it accepted (or could not be asked).
  json legacy_refusal(const std::string& version) {
    step("session 1: initialize offering " + version + ", which server/discover lists");
    try {
      auto transport = connect(target_, options_.transport);
      ClientOptions client = client_options();
      client.protocol = {EraChoice::legacy, version};
      McpClientSession legacy(*transport, client);
      try {
        legacy.initialize();
      } catch (const ProtocolError& e) {
        transport->close();
        return e.error;
      }
      transport->close();
    } catch (const std::exception&) {
      // Not being able to ask is not a refusal.
    }
    return json();
  }

  // After the first listing's ttlMs, if it has passed by now (the observe window is the bound on
  // waiting for it): the catalog again, its weakening judged like one after list_changed.
  bool after_expiry(McpClientSession& session, Transport& transport, const std::vector<json>& tools, long long ttl) {
    if (Clock::now() < first_listed_ + std::chrono::milliseconds(ttl)) {
      step("session 1: ttlMs " + std::to_string(ttl) + " outlasts the observe window; not listed again after it");
      return true;
    }
    ToolListing expired;
    if (!list(session, transport, expired, "session 1, after ttlMs expired")) return false;
    if (!repeats_first_hints(expired))
      judge_weakening(tools, expired.tools, server_check("stateless.expiry-weakened"), nullptr,
                      "after the ttlMs of " + std::to_string(ttl) + " expired");
    return true;
  }

  // With two or more authorization contexts: the catalog in each of the others, held to session
  // 1's (the first context's). A public cacheScope lets a shared cache serve either listing to
  // both, so hints that differ are a finding.
  void other_contexts(const std::vector<json>& first) {
    if (report_.protocol_era != to_string(ProtocolEra::stateless)) return;  // no cacheScope to judge
    for (std::size_t i = 1; i < options_.auth_contexts.size(); ++i) {
      const ServerTarget first_target = target_;
      // From the target as given: the first context's credentials must not go along too.
      target_ = in_context(given_, options_.auth_contexts[i]);
      const std::string which = "authorization context " + std::to_string(i + 1);
      std::unique_ptr<Transport> transport;
      std::unique_ptr<McpClientSession> session;
      ToolListing listing;
      const bool listed = open_session(transport, session, which) && list(*session, *transport, listing, which);
      if (transport) transport->close();
      target_ = first_target;
      if (!listed || session->era() != ProtocolEra::stateless || repeats_first_hints(listing)) continue;
      std::vector<json> pages = first_pages_;
      pages.insert(pages.end(), listing.pages.begin(), listing.pages.end());
      const bool public_scope =
          std::ranges::any_of(pages, [](const json& page) { return page.value("cacheScope", json()) == "public"; });
      if (public_scope)
        compare(first, listing.tools, server_check("stateless.public-scope"),
                "authorization contexts 1 and " + std::to_string(i + 1) + " of a tools/list marked cacheScope public");
    }
  }

  // The revisions the sessions may speak: the one asked for, else the newest of each era in play.
  std::vector<std::string> revisions_in_reach() const {
    const auto& choice = options_.protocol;
    if (!choice.version.empty()) return {choice.version};
    std::vector<std::string> out;
    if (choice.era != EraChoice::legacy) out.push_back(stateless_protocol_versions().front());
    if (choice.era != EraChoice::stateless) out.push_back(supported_protocol_versions().front());
    return out;
  }

  // Whether an answer to tools/list is session 1's first listing again, but for its id: a single
  // page, in the revision that one was read in, of the same JSON to the last tool.
  // Read from the texts where both are kept: the same bytes around ids of one type. Else from the
  // trees.
  bool repeats_first_answer(const json& message, const std::string& revision, std::string_view text) const {
    if (!first_answer_ || !first_tools_ || first_pages_.size() != 1 || revision != first_answer_->revision ||
        !message.contains("id") || message["id"].type() != first_answer_->id_type)
      return false;
    if (first_answer_->repeat && !text.empty())  // the text was read: its size is within the limit
      if (const auto id = first_answer_->repeat->id_if_repeated(text, {text.size()}))
        return same_json(*id, message["id"]);
    const json& result = message["result"];
    const json* tools = result.is_object() ? find_member(result, {"tools"}) : nullptr;
    if (!tools || !tools->is_array() || tools->size() != first_tools_->size()) return false;
    if (!same_json_but(message, {"id", "result"}, first_answer_->envelope) ||
        !same_json_but(result, {"tools"}, first_pages_.front()))
      return false;
    for (std::size_t i = 0; i < first_tools_->size(); ++i)
      if (!same_json((*tools)[i], (*first_tools_)[i])) return false;
    return true;
  }

  // Where a message's id stands in its text: a member whose value reads as the id the message was
  // read with; nullopt where the text is not kept or the id is not found so.
  static std::optional<std::pair<std::size_t, std::size_t>> id_span(std::string_view text, const json& message) {
    const auto id = text.empty() ? std::nullopt : member_value_span(text, "id");
    if (!id || !message.contains("id")) return std::nullopt;
    const json id_read = json::parse(text.substr(id->first, id->second - id->first), nullptr, false);
    return same_json(id_read, message["id"]) ? id : std::nullopt;
  }

  // The first listing's answer as a transport may take it again: its text, and in its place the
  // answer but for the tools. Not one that gave a member twice (its id or its tools: which of
  // them a later reading keeps would then be the stand-in's, not the text's).
  static std::shared_ptr<const ExpectedRepeat> expectation_of(const json& message, const Transport& transport,
                                                              std::pair<std::size_t, std::size_t> id) {
    if (!message["result"].is_object() || !transport.duplicate_members().empty()) return nullptr;
    auto expected = std::make_shared<ExpectedRepeat>();
    expected->text = transport.last_text();
    expected->id_span = id;
    expected->id_type = message["id"].type();
    for (const auto& [name, value] : message.items())
      if (name != "result") expected->in_place[name] = value;
    auto& result = expected->in_place["result"] = json::object();
    for (const auto& [name, value] : message["result"].items())
      result[name] = name == "tools" && value.is_array() ? json::array() : value;
    return expected;
  }

  // What a listing of this session may repeat without being read again: session 1's first
  // listing's text where it is kept, when it was a single page of tools named once each (so that
  // a repeat's judgements are none) read in the revision this session speaks.
  std::shared_ptr<const ExpectedRepeat> expected_repeat(const McpClientSession& session) {
    if (!first_answer_ || !first_answer_->repeat || !first_tools_ || first_pages_.size() != 1 ||
        session.revision_in_play() != first_answer_->revision)
      return nullptr;
    return first_names_unique() ? first_answer_->repeat : nullptr;
  }

  bool first_names_unique() {
    if (!first_names_unique_) first_names_unique_ = by_name(*first_tools_).size() == first_tools_->size();
    return *first_names_unique_;
  }

  // Whether a listing's hints are session 1's first listing's, read from the same JSON: they cannot
  // differ where no two tools share a name (where some do, a tool is held to the first of its name).
  bool repeats_first_hints(const ToolListing& listing) {
    return repeats_first_ && listing.page_count == 1 && first_tools_ && first_names_unique();
  }

  // Every message the server sends is held to the schema.json of the revision spoken (before a
  // revision is agreed: the one offered); an answer, to the revision of the request it answers
  // (a late server/discover answer is read in the stateless era even after a fall back to the
  // legacy one). At most kShownPerCheck findings per check are written.
  void watch_schema(McpClientSession& session, Transport& transport, const std::string& which) {
    session.set_message_observer([this, &session, &transport, which](const json& message, Direction direction) {
      const std::string id = message.is_object() && message.contains("id") ? message["id"].dump() : "";
      const auto in_play = [&session] {
        return session.revision_in_play().empty() ? supported_protocol_versions().front() : session.revision_in_play();
      };
      if (direction == Direction::client_to_server) {
        if (!id.empty() && message.contains("method")) {
          // A stateless-era request naming no revision is one of the legacy era: its answer is read in that era.
          const bool unversioned =
              session.era() == ProtocolEra::stateless && !names_protocol_version(message.value("params", json()));
          asked_[which + id] = {message.value("method", ""),
                                unversioned ? supported_protocol_versions().front() : in_play(), unversioned};
        }
        return;
      }
      // Only the answer a listing was taken from may say it repeats the first (an answer whose
      // id is not found below, e.g. 2.0 for 2, is taken all the same and says nothing).
      repeats_first_ = false;
      std::string answered, revision = in_play();
      bool unversioned = false;
      if (auto it = asked_.find(which + id); !id.empty() && it != asked_.end() && !message.contains("method")) {
        answered = it->second.method;
        revision = it->second.revision;
        unversioned = it->second.unversioned;
      }
      // The answer to the probe naming no revision is stateless.version-missing's to judge.
      if (message.contains("result") && !unversioned) judge_era(message["result"], revision, answered, which);
      if (answered == "tools/list" && message.contains("result")) {
        repeats_first_ = repeats_first_answer(message, revision, transport.last_text());
        if (!first_answer_) {
          json envelope = json::object();
          for (const auto& [name, value] : message.items())
            if (name != "id" && name != "result") envelope[name] = value;
          first_answer_ = FirstAnswer{std::move(envelope), message["id"].type(), revision, {}};
          // Its text, where the id's place in it is known.
          if (const auto id = id_span(transport.last_text(), message))
            first_answer_->repeat = expectation_of(message, transport, *id);
        }
        // Its violations are the first listing's, each said once already.
        if (repeats_first_) return;
      }
      // A stand-in the transport took that is no repeat here (an answer to another request, a
      // probe's late one, read in another revision) is judged as the text it stands for.
      std::optional<json> reread;
      if (transport.repeated()) reread = Transport::read_message(transport.last_text(), options_.transport).message;
      const json& judged = reread ? *reread : message;
      std::vector<ProtocolViolation> violations;
      if (prepared_.joinable()) prepared_.join();  // schemas_ is the preparing thread's until then
      try {
        violations = schemas_.validate_message(revision, judged, direction, answered);
      } catch (const UnknownProtocolSchema&) {
        return;  // a revision without a bundled schema: the era's other checks still apply
      }
      for (const auto& v : violations) {
        // The same violation in every listing or session is one finding.
        if (!schema_seen_.insert(std::string(v.check_id) + v.definition + v.pointer + v.message).second) continue;
        const std::size_t n = ++schema_findings_[std::string(v.check_id)];
        if (n > kShownPerCheck) continue;
        const auto [tool, tool_pointer] = listed_tool(judged, answered, v.pointer);
        emit(*find_server_check(v.check_id), v.pointer,
             which + ": " + std::string(to_string(v.direction)) + (v.method.empty() ? "" : " " + v.method) + " (" +
                 revision + " " + v.definition + "): " + v.message +
                 (n == kShownPerCheck ? " (further violations of this check are counted, not shown)" : ""),
             tool, tool_pointer);
      }
    });
  }

  const ServerTarget& given_;  // the target outside any authorization context
  ServerTarget target_;        // ... as the context in play reaches it
  const CheckServerOptions& options_;
  LintReport& report_;
  Linter linter_;
  Deadline deadline_;
  std::string file_;
  InitializeResult init_;
  static constexpr std::size_t kShownPerCheck = 20;
  ProtocolSchemas schemas_;
  struct Asked {
    std::string method, revision;  // the revision its answer is read in
    bool unversioned = false;      // a stateless-era request naming no revision (a probe)
  };
  std::map<std::string, Asked> asked_;  // session + request id -> what was asked
  std::map<std::string, std::size_t> schema_findings_;
  std::set<std::string> schema_seen_;
  std::set<std::string> era_seen_;  // era findings already made (check, session, method)
  std::vector<json> first_pages_;   // session 1's first listing's pages, without their tools
  // Session 1's first listing, for a later answer that repeats it (as most servers' do): the
  // answer to tools/list without its id and result, the type of its id and the revision it was
  // read in; its tools, while they are kept; whether their names are unique.
  struct FirstAnswer {
    json envelope;
    json::value_t id_type;
    std::string revision;
    // As it came, where the transport keeps it, with where its id stands; its stand-in, the answer
    // with an empty array for its tools (a repeat's tools are the first's).
    std::shared_ptr<const ExpectedRepeat> repeat;
  };
  std::optional<FirstAnswer> first_answer_;
  const std::vector<json>* first_tools_ = nullptr;
  std::optional<bool> first_names_unique_;
  bool repeats_first_ = false;  // the last answer to tools/list is session 1's first listing, to the byte but its id
  std::vector<ToolListing> spent_;        // listings judged, to be freed while a server goes down
  std::jthread disposer_;                 // freeing the last of them
  std::jthread prepared_;                 // preparing schemas_ while the first server starts
  std::vector<Finding>* held_ = nullptr;  // where findings go while session 1's tools are linted beside the run
  Deadline first_listed_{};               // when session 1's first listing came back
};

}  // namespace

LintReport check_server(const ServerTarget& target, const CheckServerOptions& options) {
  LintReport report;
  report.spec_revision = options.lint.spec_revision;
  Run(target, options, report).execute();
  return report;
}

std::vector<LintReport> check_servers(const std::vector<ConfiguredServer>& servers, const CheckServerOptions& options,
                                      std::size_t jobs) {
  std::vector<const ConfiguredServer*> checked;
  for (const auto& server : servers)
    if (server.disabled.empty()) checked.push_back(&server);
  std::vector<LintReport> reports(checked.size());
  std::mutex progress_lock;
  const auto check_one = [&](std::size_t i) {
    const ConfiguredServer& server = *checked[i];
    CheckServerOptions own = options;
    const bool name_shared =
        std::ranges::count_if(checked, [&](const ConfiguredServer* other) { return other->name == server.name; }) > 1;
    own.label = name_shared ? server.name + " (" + server.config + ")" : server.name;
    own.lint.jobs = 1;  // the servers are the run's threads
    own.calls.clear();
    if (options.progress)
      own.progress = [&, label = own.label](const std::string& step) {
        const std::scoped_lock lock(progress_lock);
        options.progress(label + ": " + redacted(step, server.secrets));
      };
    LintReport& report = reports[i];
    if (!server.unusable.empty()) {
      report.spec_revision = options.lint.spec_revision;
      report.server_checks_ran = true;
      report.files.push_back(FileResult{own.label, 0, std::nullopt, {}, {}, {}});
      report.incomplete = "not checked as configured: " + server.unusable;
    } else {
      try {
        report = check_server(server.target, own);
      } catch (const std::exception& e) {  // one server's failure is its own part's
        report = LintReport{};
        report.spec_revision = options.lint.spec_revision;
        report.server_checks_ran = true;
        report.files.push_back(FileResult{own.label, 0, std::nullopt, {}, {}, {}});
        report.incomplete = e.what();
      }
    }
    redact(report, server.secrets);
  };
  // Each server on a thread of its own, `jobs` at a time; where no thread is to be had, one by one.
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < checked.size(); i = next++) check_one(i);
  };
  std::vector<std::jthread> threads;
  for (std::size_t t = 1; t < std::min(std::max<std::size_t>(jobs, 1), checked.size()); ++t) try {
      threads.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  worker();
  threads.clear();  // joined
  return reports;
}

}  // namespace mcp_hints
