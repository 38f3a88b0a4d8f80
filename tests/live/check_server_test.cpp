// check-server against the sample server: every server check caught by a misbehaving variant,
// every hostile server ended within its bounds with nothing left running, over stdio and HTTP.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>

#include "listening_child.hpp"
#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/server_checks.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using json = nlohmann::json;
using test_support::run_cli;

namespace {

const std::string kServer = MCP_HINTS_SAMPLE_SERVER;

std::string catalog(const std::string& name = "good-catalog.json") {
  return (test_support::source_dir() / "examples" / "catalogs" / name).string();
}

struct Outcome {
  int exit_code;
  json report;
  std::string err;
  double seconds;
  pid_t server_pid = 0;
  std::set<std::string> checks() const {
    std::set<std::string> out;
    if (report.is_object())
      for (const auto& f : report["findings"]) out.insert(f["check"].get<std::string>());
    return out;
  }
};

// Runs mcp-hints with the arguments, timed, its JSON report parsed when there is one.
Outcome run_check(const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  auto r = run_cli(args);
  Outcome o{r.exit_code, json(), r.err,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
  try {
    o.report = json::parse(r.out);
  } catch (const json::exception&) {
  }
  return o;
}

// check-server over stdio against the sample server in a mode.
// The run's bound (6 s) and each request's (2 s), longer in a sanitizer build, whose servers answer
// several times slower: a well-behaved server must not look hung there.
std::string run_timeout() { return std::to_string(static_cast<int>(test_support::bound_seconds(6))) + "s"; }
int request_timeout_seconds() { return static_cast<int>(test_support::bound_seconds(2)); }
std::string request_timeout() { return std::to_string(request_timeout_seconds()) + "s"; }

Outcome check_stdio(const std::string& mode, std::vector<std::string> extra = {},
                    std::vector<std::string> server_extra = {}) {
  test_support::TempDir dir;
  const std::string pid_file = (dir.path() / "pid").string();
  std::vector<std::string> args = {"check-server",      "--format",        "json",      "--timeout", run_timeout(),
                                   "--request-timeout", request_timeout(), "--observe", "300ms"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--", kServer, "--catalog", catalog(), "--misbehave", mode, "--pid-file", pid_file});
  args.insert(args.end(), server_extra.begin(), server_extra.end());
  Outcome o = run_check(args);
  std::ifstream(pid_file) >> o.server_pid;
  return o;
}

// A sample server listening on loopback for the length of a test.
test_support::ListeningChild http_sample_server(const std::string& mode, std::vector<std::string> extra = {}) {
  mcp_hints::ProcessOptions options;
  options.argv = {kServer, "--catalog", catalog(), "--http", "0", "--misbehave", mode};
  options.argv.insert(options.argv.end(), extra.begin(), extra.end());
  return test_support::start_listening(options);
}

Outcome check_http(const std::string& url, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "check-server", "--format", "json",  "--timeout", run_timeout(), "--request-timeout", request_timeout(),
      "--observe",    "300ms",    "--url", url};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_check(args);
}

// The negative control of every server check: the sample server mode (and check-server's and the
// server's arguments) that breaks it, over stdio unless it is a rule of HTTP; for the protocol
// eras' checks, what its finding says (what was expected, then what came).
struct Control {
  std::string mode;
  std::vector<std::string> extra;
  std::vector<std::string> server_extra = {};
  bool http = false;
  std::string says = {};
};
const std::vector<std::string> kStateless = {"--protocol", "stateless"};
const std::map<std::string, Control>& controls() {
  static const std::map<std::string, Control> table = {
      {"server.initialize", {"initialize-error", {}}},
      {"server.protocol-version", {"bad-version", {}}},
      {"server.tools-capability", {"no-tools-capability", {}}},
      {"server.stdout-protocol-only", {"log-stdout", {}}},
      {"server.list-page", {"bad-page", {}}},
      {"server.cursor-terminates", {"repeat-cursor", {}}},
      {"stability.relist", {"relist-changes", {}}},
      {"stability.restart", {"unstable-hints", {}}},
      {"list-changed.weakened", {"rug-pull", {}}},
      {"list-changed.changed", {"tighten", {}}},
      {"protocol.message", {"bad-jsonrpc", {}}},
      {"protocol.request", {"bad-server-request", {}}},
      {"protocol.notification", {"bad-notification", {}}},
      {"protocol.result", {"bad-server-info", {}}},
      {"protocol.error", {"bad-error", {}}},
      {"stateless.discover-versions",
       {"discover-lies",
        {},
        kStateless,
        false,
        "server/discover lists 2025-11-25, but an initialize offering it was refused with {\"code\":-32022"}},
      {"stateless.version-unsupported",
       {"accept-any-version",
        {},
        kStateless,
        false,
        "naming protocol version 1900-01-01 should get error -32022 with data {requested, supported}, but it was "
        "answered with a result with members cacheScope, resultType, tools, ttlMs"}},
      {"stateless.version-missing",
       {"ignore-missing-version",
        {},
        kStateless,
        false,
        "names no protocol version should get an error, but it was answered with a result of the stateless era"}},
      {"stateless.result-type",
       {"result-type-unknown",
        {},
        kStateless,
        false,
        "the tools/list result says resultType \"done\"; 2026-07-28 knows complete and input_required"}},
      {"stateless.header-mismatch",
       {"ignore-headers",
        {},
        kStateless,
        true,
        "a tools/list without Mcp-Method should be refused with HTTP 400 and error -32020, but it was answered with "
        "a result with members cacheScope, resultType, tools, ttlMs (HTTP 200)"}},
      {"stateless.param-header-mismatch",
       {"ignore-param-headers",
        {"--call", R"(list_pods={"namespace":"prod"})"},
        {"--protocol", "stateless", "--param-header", "Namespace"},
        true,
        "a tools/call of list_pods whose Mcp-Param-Namespace header says other than its argument should be refused "
        "with HTTP 400 and error -32020, but it was answered with a result"}},
      {"stateless.param-header-invalid",
       {"param-header-invalid",
        {},
        kStateless,
        false,
        "every x-mcp-header should keep the constraints of 2026-07-28, but the x-mcp-header at /properties/limit is "
        "on a property of type \"number\", not integer, string or boolean: a client over Streamable HTTP must leave "
        "the tool out"}},
      {"stateless.ttl-changed",
       {"relist-changes",
        {},
        kStateless,
        false,
        "the hints changed across a second tools/list within the ttlMs of 60000 the first promised: readOnlyHint "
        "true -> false"}},
      {"stateless.expiry-weakened",
       {"expiry-weakens",
        {},
        {"--protocol", "stateless", "--ttl-ms", "150"},
        false,
        "after the ttlMs of 150 expired the tool became less cautious: "}},
      {"stateless.public-scope",
       {"per-context-hints",
        {"--auth-env", "MCP_SAMPLE_AUTH=alice", "--auth-env", "MCP_SAMPLE_AUTH=admin"},
        kStateless,
        false,
        "the hints changed across authorization contexts 1 and 2 of a tools/list marked cacheScope public: "
        "readOnlyHint true -> false"}},
      {"subscriptions.acknowledged",
       {"listen-late-ack",
        {},
        kStateless,
        false,
        "should open with notifications/subscriptions/acknowledged, but notifications/tools/list_changed came before "
        "the acknowledgment"}},
      {"subscriptions.id-tagged",
       {"listen-untagged",
        {},
        kStateless,
        false,
        "but 1 of 2 did not; first, notifications/tools/list_changed (io.modelcontextprotocol/subscriptionId absent)"}},
      {"subscriptions.filter",
       {"listen-unfiltered",
        {},
        kStateless,
        false,
        "asked for toolsListChanged alone, but the server sent notifications/prompts/list_changed on it"}},
      {"subscriptions.listen-refused",
       {"listen-refused",
        {},
        kStateless,
        false,
        "the server declares tools.listChanged, so the subscriptions/listen stream (request 6) should open and "
        "acknowledge, but the request was answered with error {\"code\":-32601"}},
      {"era.mixed",
       {"mixed-era",
        {},
        {},
        false,
        "the initialize result, in a 2025-11-25 (legacy era) conversation, carries resultType, ttlMs, cacheScope, "
        "which only the stateless era (2026-07-28) has"}},
      {"result.trust-annotations", {"bad-result-annotations", {"--call", "list_pods={\"namespace\":\"default\"}"}}},
      {"result.sensitivity-understated", {"sensitive-result", {"--call", "list_pods={\"namespace\":\"default\"}"}}},
      {"result.source-understated",
       {"untrusted-result",
        {"--allow-side-effects", "--call", "send_email={\"to\":\"a@example.com\",\"subject\":\"s\",\"body\":\"b\"}"}}},
  };
  return table;
}

}  // namespace

TEST(CheckServer, AWellBehavedServerPassesEveryCheck) {
  auto o = check_stdio("none");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(o.checks().empty()) << o.report.dump(1);
  EXPECT_EQ(o.report["toolCount"], 5);
  EXPECT_TRUE(o.report["summary"]["incomplete"].is_null());
  EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid));
}

TEST(CheckServer, ResultAnnotationsFollowThePinnedRevisionAndTheExtension) {
  const std::vector<std::string> call = {"--call", "list_pods={\"namespace\":\"default\"}"};
  auto messages = [](const Outcome& o) {
    std::string all;
    for (const auto& f : o.report["findings"])
      if (f["check"] == "result.trust-annotations") all += f["message"].get<std::string>() + "\n";
    return all;
  };
  // The extension, malformed in the result and in a content block.
  auto ext = check_stdio("bad-extension-annotations", call);
  EXPECT_EQ(ext.exit_code, 1);
  EXPECT_NE(
      messages(ext).find(
          "/_meta/io.modelcontextprotocol~1trust-annotations/sensitive does not match trust-annotations@ext-2026-06"),
      std::string::npos)
      << messages(ext);
  EXPECT_NE(messages(ext).find("/content/0/_meta/io.modelcontextprotocol~1trust-annotations/evidenceRef/digest"),
            std::string::npos)
      << messages(ext);
  // sensitiveHint is #711's; SEP-1913 dropped it.
  EXPECT_EQ(check_stdio("sensitive-result", call).checks().count("result.trust-annotations"), 0u);
  std::vector<std::string> pinned = call;
  pinned.insert(pinned.end(), {"--vocab", "trust-annotations@sep-1913"});
  auto sep1913 = check_stdio("sensitive-result", pinned);
  EXPECT_NE(messages(sep1913).find("does not match trust-annotations@sep-1913"), std::string::npos)
      << sep1913.report.dump(1);
}

// A result claims at most what its tool declares, whichever proposal says it: each claim is held
// to the tool's most cautious declared value of the same facet, at every level of the scale, and
// a tool that declares nothing is bounded by nothing (absence is no claim).
TEST(CheckServer, AResultsClaimsAreHeldToItsToolsDeclarationAtEveryLevel) {
  auto tool = [](const std::string& name, json annotations, json meta) {
    annotations["readOnlyHint"] = true;
    json t = {{"name", name}, {"inputSchema", {{"type", "object"}}}, {"annotations", annotations}};
    if (!meta.is_null()) t["_meta"] = meta;
    return t;
  };
  auto level = [](const char* l) { return json{{"mcp.dev/resultSensitivity", l}}; };
  const json tools = json::array({
      tool("system_public", {{"returnMetadata", {{"Source", "System"}}}}, level("public")),
      tool("untrusted_internal", {{"returnMetadata", {{"source", {"system", "untrustedPublic"}}}}}, level("internal")),
      tool("undeclared", json::object(), nullptr),
      tool("confidential", json::object(), level("confidential")),
      tool("restricted", json::object(), level("restricted")),
  });
  test_support::TempDir dir;
  const auto catalog = dir.write("catalog.json", json{{"tools", tools}}.dump());
  auto findings = [&](const std::string& mode) {
    std::vector<std::string> args;
    for (const auto& t : tools) args.insert(args.end(), {"--call", t["name"].get<std::string>() + "={}"});
    const auto o = check_stdio(mode, args, {"--catalog", catalog.string()});
    EXPECT_EQ(o.exit_code, 1) << o.err << o.report.dump(1);
    std::multiset<std::string> out;  // "check tool pointer-suffix"
    for (const auto& f : o.report["findings"]) {
      if (!f["check"].get<std::string>().starts_with("result.")) continue;  // the catalog's own lint findings
      const std::string pointer = f["pointer"];
      out.insert(f["check"].get<std::string>() + " " + f["tool"].get<std::string>() + " " +
                 pointer.substr(pointer.find("/", std::string("/calls/").size())));
    }
    return out;
  };
  // #711 openWorldHint on the result, the extension's untrusted and sensitive in a content block.
  EXPECT_EQ(findings("untrusted-result"),
            (std::multiset<std::string>{
                "result.source-understated system_public /_meta/annotations/openWorldHint",
                "result.source-understated system_public /content/0/_meta/io.modelcontextprotocol~1trust-annotations/"
                "untrusted",
                "result.sensitivity-understated system_public "
                "/content/0/_meta/io.modelcontextprotocol~1trust-annotations/sensitive"}));
  // sensitiveHint high claims restricted: every declared level below it understated, restricted not.
  EXPECT_EQ(findings("sensitive-result"),
            (std::multiset<std::string>{
                "result.sensitivity-understated system_public /_meta/annotations/sensitiveHint",
                "result.sensitivity-understated untrusted_internal "
                "/_meta/annotations/sensitiveHint",
                "result.sensitivity-understated confidential /_meta/annotations/sensitiveHint",
            }));
}

// The crosswalk's at-most relations are what result.*-understated enforce: each names a server
// check, or check-server would hold results to nothing.
TEST(CheckServer, EveryAtMostRelationOfTheCrosswalkNamesAServerCheck) {
  std::size_t at_most = 0;
  for (const auto& r : mcp_hints::Vocabulary::builtin().relations()) {
    if (r.rule != "at-most") continue;
    ++at_most;
    EXPECT_TRUE(std::any_of(r.checks.begin(), r.checks.end(),
                            [](const std::string& id) { return mcp_hints::find_server_check(id) != nullptr; }))
        << r.message_facet << " at-most " << r.tool_facet;
  }
  EXPECT_EQ(at_most, 2u);
}

// A live server's tools/list that gives a hint twice (RFC 8259: names SHOULD be unique) is the
// lint finding json.duplicate-member, with both values and the tool's pointer; the same catalog
// sent once each is clean of it.
TEST(CheckServer, AHintGivenTwiceInTheLiveListingIsAFinding) {
  const auto twice = check_stdio("duplicate-hint");
  EXPECT_EQ(twice.exit_code, 1) << twice.err;
  std::vector<json> found;
  for (const auto& f : twice.report["findings"])
    if (f["check"] == "json.duplicate-member") found.push_back(f);
  ASSERT_EQ(found.size(), 1u) << twice.report.dump();
  EXPECT_EQ(found[0]["level"], "warning");  // the RFC's SHOULD, which fails the run by default
  EXPECT_TRUE(found[0]["pointer"].get<std::string>().starts_with("/tools/")) << found[0];
  EXPECT_TRUE(found[0]["pointer"].get<std::string>().ends_with("/annotations/readOnlyHint")) << found[0];
  EXPECT_NE(found[0]["message"].get<std::string>().find(
                "member \"readOnlyHint\" given twice in the object at /annotations: first true, then false"),
            std::string::npos)
      << found[0];
  const auto once = check_stdio("none");
  for (const auto& f : once.report["findings"]) EXPECT_NE(f["check"], "json.duplicate-member") << f;
}

TEST(CheckServer, LintFindingsOfTheLiveCatalogUseTheLintIds) {
  auto r = run_cli(
      {"check-server", "--format", "json", "--observe", "0", "--", kServer, "--catalog", catalog("bad-catalog.json")});
  EXPECT_EQ(r.exit_code, 1);
  const json report = json::parse(r.out);
  std::set<std::string> ids;
  for (const auto& f : report["findings"]) ids.insert(f["check"].get<std::string>());
  for (const char* id : {"hints.readonly-contradiction", "confirmation.contradiction", "schema.spec-tool"})
    EXPECT_TRUE(ids.count(id)) << id;
  // Pointers name the tool in the live listing (the protocol checks' point into the message).
  for (const auto& f : report["findings"]) {
    const std::string pointer = f["pointer"];
    EXPECT_TRUE(
        pointer.starts_with(f["check"].get<std::string>().starts_with("protocol.") ? "/result/tools/" : "/tools/"))
        << f;
  }
  // A tool without inputSchema breaks the revision's schema too: once, however often it is listed.
  EXPECT_EQ(std::count_if(report["findings"].begin(), report["findings"].end(),
                          [](const json& f) { return f["check"] == "protocol.result"; }),
            1);
}

TEST(CheckServer, EveryServerCheckHasANegativeControlThatMakesItFire) {
  for (const auto& info : mcp_hints::server_checks()) {
    const std::string id(info.id);
    auto it = controls().find(id);
    ASSERT_NE(it, controls().end()) << "server check " << id << " has no negative control";
    test_support::TempDir dir;
    std::vector<std::string> server_extra = it->second.server_extra;
    if (it->second.mode == "unstable-hints") server_extra = {"--state", (dir.path() / "state").string()};
    Outcome o;
    if (it->second.http) {
      const auto server = http_sample_server(it->second.mode, server_extra);
      o = check_http(server.url, it->second.extra);
    } else {
      o = check_stdio(it->second.mode, it->second.extra, server_extra);
      EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid)) << id;
    }
    EXPECT_TRUE(o.checks().count(id)) << id << " did not fire against --misbehave " << it->second.mode
                                      << (it->second.http ? " (http)" : "") << ": " << o.report.dump(1) << o.err;
    // A revision chosen that mcp-hints cannot speak ends the run, which is then incomplete.
    EXPECT_EQ(o.exit_code == 3, id == "server.protocol-version") << id << ": " << o.err;
    const auto of_an_era = [](const std::string& c) {
      return c.starts_with("stateless.") || c.starts_with("era.") || c.starts_with("subscriptions.");
    };
    if (!of_an_era(id)) continue;
    // An era's control trips its own check and no other of the eras', and says what it expected and saw.
    std::set<std::string> era_checks;
    for (const auto& c : o.checks())
      if (of_an_era(c)) era_checks.insert(c);
    EXPECT_EQ(era_checks, std::set<std::string>{id}) << o.report.dump(1);
    std::string messages;
    for (const auto& f : o.report["findings"])
      if (f["check"] == id) messages += f["message"].get<std::string>() + "\n";
    EXPECT_NE(messages.find(it->second.says), std::string::npos) << id << ": " << messages;
  }
}

// With --jobs 2 the first listing's tools are linted beside the rest of session 1: the report is
// byte for byte that of --jobs 1, with findings made before the tools' (a broken answer to the
// listing), after them (a relisted or rug-pulled catalog) and in both eras.
TEST(CheckServer, TheReportIsThatOfOneThreadWithAnyJobs) {
  struct Run {
    std::string mode;
    std::vector<std::string> server_extra, extra;
  };
  const std::vector<Run> runs = {{"none", {}, {}},
                                 {"bad-server-info", {}, {}},
                                 {"bad-notification", {}, {}},
                                 {"relist-changes", {}, {}},
                                 {"rug-pull", {}, {}},
                                 {"tighten", {}, {}},
                                 {"duplicate-hint", {}, {}},
                                 {"none", kStateless, {}},
                                 {"result-type-unknown", kStateless, {}},
                                 // A call, whose findings come after the tools'.
                                 {"sensitive-result", {}, {"--call", "get_customer={}"}}};
  for (const auto& [mode, server_extra, extra] : runs) {
    std::string reports[2];
    for (const int jobs : {1, 2}) {
      std::vector<std::string> args = {"check-server",      "--format",        "json",      "--timeout", run_timeout(),
                                       "--request-timeout", request_timeout(), "--observe", "300ms",     "--jobs",
                                       std::to_string(jobs)};
      args.insert(args.end(), extra.begin(), extra.end());
      args.insert(args.end(), {"--", kServer, "--catalog", catalog("bad-catalog.json"), "--misbehave", mode});
      args.insert(args.end(), server_extra.begin(), server_extra.end());
      const auto r = run_cli(args);
      EXPECT_EQ(r.exit_code, 1) << mode << ": " << r.err;
      reports[jobs - 1] = r.out;
    }
    EXPECT_EQ(reports[0], reports[1]) << mode;
    // The tools' findings and the run's own, in the report of either.
    const json report = json::parse(reports[1], nullptr, false);
    ASSERT_TRUE(report.is_object()) << mode;
    std::set<std::string> kinds;
    for (const auto& f : report["findings"]) kinds.insert(f["check"].get<std::string>().substr(0, 7));
    EXPECT_TRUE(kinds.count("hints.r")) << mode << ": " << report.dump(1);
    if (mode != "none" || !server_extra.empty()) {
      EXPECT_GE(kinds.size(), 2u) << mode << ": " << report.dump(1);
    }
  }
}

// A listing that repeats session 1's first, to the JSON but its id, is neither validated nor
// compared again: its verdicts are the first's, each said once. Over stdio the texts are held
// byte for byte around the ids; over HTTP the trees, value by value and type by type. A listing
// that differs from the first only in ttlMs written as a float of the same length and value
// (6.0e4 for 60000: the same to a plain equality) is no repeat either way, and the schema's
// integer refuses it.
TEST(CheckServer, OnlyTheSameJsonIsARepeatedListing) {
  const auto repeated = check_stdio("none", {}, kStateless);
  EXPECT_EQ(repeated.exit_code, 0) << repeated.report.dump(1) << repeated.err;
  EXPECT_FALSE(repeated.checks().count("protocol.result")) << repeated.report.dump(1);
  const auto refused_ttl = [](const Outcome& o) {
    std::vector<std::string> pointers;
    for (const auto& f : o.report["findings"])
      if (f["check"] == "protocol.result") pointers.push_back(f["pointer"].get<std::string>());
    return pointers == std::vector<std::string>{"/result/ttlMs"};
  };
  const auto over_stdio = check_stdio("relist-float-ttl", {}, kStateless);
  EXPECT_EQ(over_stdio.exit_code, 1) << over_stdio.err;
  EXPECT_TRUE(refused_ttl(over_stdio)) << over_stdio.report.dump(1);
  const auto server = http_sample_server("relist-float-ttl", kStateless);
  const auto over_http = check_http(server.url);
  EXPECT_EQ(over_http.exit_code, 1) << over_http.err;
  EXPECT_TRUE(refused_ttl(over_http)) << over_http.report.dump(1);
  // A repeat taken without being read again is judged as the text it is: each of bad-page's
  // listings, the same page without a tools array, says so; and each of duplicate-tools', whose
  // result gives its tools twice (an empty array, then the catalog), says the catalog is kept.
  for (const std::string mode : {"bad-page", "duplicate-tools"})
    for (const auto& era : {std::vector<std::string>{}, kStateless}) {
      const auto pages = check_stdio(mode, {}, era);
      std::vector<std::string> said;
      for (const auto& f : pages.report["findings"])
        if (f["check"] == "server.list-page") said.push_back(f["message"].get<std::string>());
      ASSERT_EQ(said.size(), 3u) << mode << pages.report.dump(1);
      const std::string page = said[0].substr(said[0].find(": tools/list page 1: "));
      if (mode == "bad-page") {
        EXPECT_EQ(page, ": tools/list page 1: the result has no tools array");
      } else {
        EXPECT_NE(page.find("then [{\""), std::string::npos) << page;
      }
      EXPECT_EQ(said, (std::vector<std::string>{"session 1" + page, "session 1, second listing" + page,
                                                "session 2 (restarted server)" + page}))
          << mode << pages.report.dump(1);
    }
  // Where two tools share a name, each is held to the first of its name in every listing, a
  // repeat too: the second twin's hints differ from the first's, in the second listing and after
  // the restart alike.
  const auto twin = [](bool read_only) {
    return json{{"name", "twin"},
                {"description", "Reads or writes the twin record."},
                {"inputSchema", {{"type", "object"}}},
                {"annotations", {{"readOnlyHint", read_only}}}};
  };
  test_support::TempDir dir;
  const auto twins = dir.write("twins.json", json{{"tools", {twin(true), twin(false)}}}.dump());
  const auto held = check_stdio("none", {}, {"--catalog", twins.string()});
  std::multiset<std::string> changes;
  for (const auto& f : held.report["findings"])
    if (f["check"].get<std::string>().starts_with("stability."))
      changes.insert(f["check"].get<std::string>() + " " + f["pointer"].get<std::string>());
  EXPECT_EQ(changes, (std::multiset<std::string>{"stability.relist /tools/1", "stability.restart /tools/1"}))
      << held.report.dump(1);
  // A stand-in the run does not read as a repeat is judged as the text it stands for. The answer
  // to the probe naming no revision, held back until the second listing (late-missing-version),
  // is the first listing's text again, so the transport takes it as the repeat expected; the run
  // reads it in the legacy revision, whose ToolExecution refuses this tool's taskSupport, as it
  // reads the same answer given in time (ignore-missing-version).
  const auto tasked =
      dir.write("tasked.json", json{{"tools",
                                     {{{"name", "get_weather"},
                                       {"description", "Reads the weather."},
                                       {"inputSchema", {{"type", "object"}}},
                                       {"execution", {{"taskSupport", "sometimes"}}},
                                       {"annotations", {{"readOnlyHint", true}, {"openWorldHint", true}}}}}}}
                                   .dump());
  for (const std::string mode : {"ignore-missing-version", "late-missing-version"}) {
    const auto probed = check_stdio(mode, {}, {"--protocol", "stateless", "--catalog", tasked.string()});
    std::vector<std::string> legacy;
    for (const auto& f : probed.report["findings"])
      if (f["check"] == "protocol.result")
        legacy.push_back(f["pointer"].get<std::string>() + " " +
                         f["message"].get<std::string>().substr(0, f["message"].get<std::string>().find(':')));
    EXPECT_EQ(legacy, std::vector<std::string>{"/result/tools/0/execution/taskSupport session 1"})
        << mode << probed.report.dump(1);
  }
}

TEST(CheckServer, HostileServersEndWithinBoundsAndLeaveNothingBehind) {
  struct Case {
    std::string mode;
    int exit_code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"silent-initialize", 3, "no answer to initialize in time"},
      {"hang-list", 3, "no answer to tools/list in time"},
      {"exit-at-once", 3, "the server exited with status 0"},
      // SIGSEGV, or SIGABRT under ASan; ThreadSanitizer's own handler takes the SIGSEGV and exits 66
      {"crash-mid-line", 3,
       test_support::kThreadSanitizer ? "the server exited with status 66, in the middle of line"
                                      : "was killed by signal "},
      {"log-stdout", 1, ""},
      {"huge-line", 3, "a line longer than 16777216 bytes"},
      {"invalid-utf8", 3, "not JSON-RPC"},
      {"endless-cursor", 1, ""},
      {"fork-grandchild", 3, "no answer to server/discover in time"},  // it exited: nothing to fall back to
  };
  for (const auto& c : cases) {
    auto o = check_stdio(c.mode);
    EXPECT_EQ(o.exit_code, c.exit_code) << c.mode << ": " << o.err;
    EXPECT_LT(o.seconds, test_support::bound_seconds(8.0)) << c.mode;  // the run's own bound is 6 s
    if (c.exit_code == 3) {
      EXPECT_EQ(test_support::count_lines(o.err), 1u) << c.mode << ": " << o.err;
      EXPECT_NE(o.err.find(c.says), std::string::npos) << c.mode << ": " << o.err;
    }
    ASSERT_GT(o.server_pid, 0) << c.mode;
    EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid)) << c.mode << ": a process of the server's group is left";
  }
}

TEST(CheckServer, AListingAnsweredWithAJsonRpcErrorIsAnIncompleteRunNotAMalformedPage) {
  auto o = check_stdio("list-error");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_EQ(test_support::count_lines(o.err), 1u) << o.err;
  // The server's own code and message, and no finding against a page it never sent.
  EXPECT_NE(o.err.find("session 1: tools/list failed with JSON-RPC error -32603: the catalog database is unavailable"),
            std::string::npos)
      << o.err;
  EXPECT_TRUE(o.checks().empty()) << o.report.dump(1);
  EXPECT_NE(o.report["summary"]["incomplete"].get<std::string>().find("the catalog database is unavailable"),
            std::string::npos);
  EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid));
  // A page without a tools array is still the server's fault.
  EXPECT_TRUE(check_stdio("bad-page").checks().count("server.list-page"));
}

TEST(CheckServer, AServerThatCannotStartIsAnIncompleteRun) {
  auto r = run_cli({"check-server", "--format", "json", "--", "/nonexistent/server"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("could not be started: cannot run /nonexistent/server"), std::string::npos) << r.err;
  auto p = run_cli({"check-server", "--format", "json", "--", "no-such-command-mcp-hints"});
  EXPECT_EQ(p.exit_code, 3);
  EXPECT_NE(p.err.find("command not found: no-such-command-mcp-hints"), std::string::npos) << p.err;
}

TEST(CheckServer, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cli({"check-server"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--url", "ftp://x", "--", "a"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--url", "ftp://x"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--timeout", "0", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--env", "NOEQUALS", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--call", "x=[1]", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--call", "x={bad", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--protocol", "nope", "--", "true"}).exit_code, 2);
  // A server command given without "--" gets the command line it meant.
  test_support::expect_usage_error({"check-server", "--timeout", "5s", "node", "server.js"},
                                   "a server's command line goes after '--' (did you mean 'mcp-hints check-server "
                                   "[OPTIONS] -- node server.js'?)");
  auto help = run_cli({"check-server", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* o : {"--url", "--timeout", "--request-timeout", "--observe", "--env", "--call",
                        "--allow-side-effects", "--protocol", "--format", "--fail-on"})
    EXPECT_NE(help.out.find(o), std::string::npos) << o;
  auto list = run_cli({"check-server", "--list-checks", "--format", "json"});
  const json checks = test_support::expect_matches_schema("lint-checks.schema.json", list.out);
  EXPECT_EQ(checks.size(), mcp_hints::all_checks().size());
  EXPECT_TRUE(std::any_of(checks.begin(), checks.end(), [](const json& c) { return c["scope"] == "server"; }));
}

TEST(CheckServer, CallsNeedOptInAndSideEffectsNeedMore) {
  // No --call: no tool is ever called (the sensitive result would otherwise be a finding).
  EXPECT_TRUE(check_stdio("sensitive-result").checks().empty());
  // A destructive tool is refused before anything is called, in its own terms: the hints that
  // say it is not read-only, and the specification's default.
  auto refused = check_stdio("none", {"--call", "delete_pod={\"namespace\":\"a\",\"name\":\"b\"}"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("--call delete_pod: refused: delete_pod's hints say it is not read-only: "),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("destructiveHint true (effect delete)"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("mcp.dev/effect \"delete\" (effect delete)"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("the specification's default for a tool without hints is destructive (readOnlyHint "
                             "false, destructiveHint true)"),
            std::string::npos)
      << refused.err;
  // The library says why; the command says which flag would let it through.
  EXPECT_NE(refused.err.find("; add --allow-side-effects to call it anyway"), std::string::npos) << refused.err;
  EXPECT_EQ(test_support::count_lines(refused.err), 1u) << refused.err;
  // A tool that sends email is not read-only either.
  auto external = check_stdio("none", {"--call", "send_email={}"});
  EXPECT_EQ(external.exit_code, 2);
  EXPECT_NE(external.err.find("readOnlyHint false (effect write)"), std::string::npos) << external.err;
  EXPECT_NE(external.err.find("mcp.dev/effect \"external\" (effect external)"), std::string::npos) << external.err;
  // Reading the open world changes nothing in it: research says readOnlyHint true and openWorldHint true.
  auto open_world = check_stdio("none", {"--call", "research={\"question\":\"q\"}"});
  EXPECT_EQ(open_world.exit_code, 0) << open_world.err;
  auto allowed =
      check_stdio("none", {"--allow-side-effects", "--call", "delete_pod={\"namespace\":\"a\",\"name\":\"b\"}"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  auto unknown = check_stdio("none", {"--call", "nonesuch={}"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--call nonesuch: refused: the server lists no tool of that name"), std::string::npos)
      << unknown.err;
  EXPECT_EQ(unknown.err.find("--allow-side-effects"), std::string::npos) << unknown.err;  // it would not help
}

TEST(CheckServer, ACallIsRefusedOrAllowedByTheToolsOwnHints) {
  // Three tools: one says nothing, one says only that it stays in a closed world, and one says
  // only that it reads (openWorldHint absent, so by default it reaches the open world).
  test_support::TempDir dir;
  const std::string hinted = (dir.path() / "catalog.json").string();
  std::ofstream(hinted) << json{
      {"tools",
       {{{"name", "bare"}, {"inputSchema", {{"type", "object"}}}},
        {{"name", "closed"}, {"inputSchema", {{"type", "object"}}}, {"annotations", {{"openWorldHint", false}}}},
        {{"name", "reader"}, {"inputSchema", {{"type", "object"}}}, {"annotations", {{"readOnlyHint", true}}}}}}};
  auto call = [&](const std::string& tool) {
    return run_cli({"check-server", "--format", "json", "--observe", "0", "--call", tool + "={}", "--", kServer,
                    "--catalog", hinted});
  };
  const std::string by_default =
      "the specification's default for a tool without hints is destructive (readOnlyHint false, destructiveHint true)";
  auto bare = call("bare");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("--call bare: refused: bare declares no hints; " + by_default +
                          "; add --allow-side-effects to call it anyway"),
            std::string::npos)
      << bare.err;
  auto closed = call("closed");
  EXPECT_EQ(closed.exit_code, 2);
  EXPECT_NE(closed.err.find("closed declares no hint of its effect; " + by_default), std::string::npos) << closed.err;
  auto reader = call("reader");
  EXPECT_EQ(reader.exit_code, 0) << reader.err;
  // The report of a live run, with its protocol, server log and calls, matches the published
  // schema of lint's report; broken in one member, it does not.
  const json report = test_support::expect_matches_schema("lint-report.schema.json", reader.out);
  ASSERT_EQ(report["calls"].size(), 1u) << reader.out;
  EXPECT_EQ(report["calls"][0]["outcome"], "succeeded");
  EXPECT_TRUE(report["protocol"].is_object()) << reader.out;
  EXPECT_TRUE(report["serverLog"].is_string()) << reader.out;
  for (const auto& [pointer, broken] : std::vector<std::pair<std::string, json>>{{"/protocol/era", "modern"},
                                                                                 {"/calls/0/outcome", "maybe"},
                                                                                 {"/calls/0/arguments/x", "secret"},
                                                                                 {"/serverLog", json::array()},
                                                                                 {"/server_log", ""},
                                                                                 {"/summary/verdict", "ok"}})
    test_support::expect_schema_refuses("lint-report.schema.json", report, pointer, broken);
}

// A result holding an object or an array where the schema asks for a string of some format (uri,
// byte) breaks the schema's type, at its pointer: a finding, not an error of the run (valijson
// throws when it reads such a value as the text a format checks).
TEST(CheckServer, AContainerWhereAFormattedStringBelongsIsATypeFinding) {
  const std::vector<std::string> call = {"--call", "list_pods={\"namespace\":\"default\"}"};
  for (const std::string protocol : {"legacy", "stateless"}) {
    auto o = check_stdio("container-uri", {"--protocol", protocol, call[0], call[1]}, {"--protocol", "both"});
    EXPECT_EQ(o.exit_code, 1) << protocol << ": " << o.err;
    EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.err;
    std::set<std::string> pointers;
    for (const auto& f : o.report["findings"])
      if (f["check"] == "protocol.result") pointers.insert(f["pointer"].get<std::string>());
    EXPECT_TRUE(pointers.contains("/result/content/1/uri")) << protocol << ": " << o.report["findings"].dump(1);
    EXPECT_TRUE(pointers.contains("/result/content/2/data")) << protocol << ": " << o.report["findings"].dump(1);
    EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid));
  }
  // The control: the same call answered with well-formed content.
  EXPECT_EQ(check_stdio("none", call).exit_code, 0);
}

TEST(CheckServer, ACallAnsweredWithIsErrorIsAnIncompleteRunInTheToolsWords) {
  const std::vector<std::string> calls = {"--call", "list_pods={\"namespace\":\"default\"}", "--call", "read_inbox={}"};
  auto failed = check_stdio("call-error", calls);
  EXPECT_EQ(failed.exit_code, 3) << failed.err;
  EXPECT_EQ(test_support::count_lines(failed.err), 1u) << failed.err;
  // Every call is made and reported, each with what its tool said (on one line).
  EXPECT_NE(failed.err.find("tools/call list_pods answered isError true: list_pods failed: permission denied; "
                            "tools/call read_inbox answered isError true: read_inbox failed: permission denied"),
            std::string::npos)
      << failed.err;
  ASSERT_EQ(failed.report["calls"].size(), 2u) << failed.report.dump(1);
  EXPECT_EQ(failed.report["calls"][0]["tool"], "list_pods");
  EXPECT_EQ(failed.report["calls"][0]["arguments"], json({{"namespace", "string"}}));
  EXPECT_EQ(failed.report["calls"][0]["outcome"], "tool-error");
  EXPECT_EQ(failed.report["calls"][0]["detail"], "list_pods failed: permission denied");
  EXPECT_EQ(failed.report["summary"]["passed"], false);
  EXPECT_TRUE(mcp_hints::process_group_gone(failed.server_pid));
  // The same calls answered with results: a pass that shows both.
  auto clean = check_stdio("none", calls);
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  ASSERT_EQ(clean.report["calls"].size(), 2u) << clean.report.dump(1);
  for (const auto& call : clean.report["calls"]) EXPECT_EQ(call["outcome"], "succeeded") << call.dump();
  // No call, no calls.
  EXPECT_EQ(check_stdio("none").report["calls"], json::array());
}

TEST(CheckServer, EveryReportFormatShowsEveryCall) {
  for (const std::string mode : {"none", "call-error"}) {
    const std::string outcome = mode == "none" ? "succeeded" : "tool-error";
    for (const std::string format : {"text", "sarif", "junit"}) {
      auto r = run_cli({"check-server", "--format", format, "--observe", "0", "--call",
                        "list_pods={\"namespace\":\"default\"}", "--call", "research={\"question\":\"q\"}", "--",
                        kServer, "--catalog", catalog(), "--misbehave", mode});
      EXPECT_EQ(r.exit_code, mode == "none" ? 0 : 3) << mode << " " << format << ": " << r.err;
      for (const std::string call : {"list_pods {namespace: string}", "research {question: string}"})
        EXPECT_NE(r.out.find(call + (format == "junit" ? "" : ": " + outcome)), std::string::npos)
            << mode << " " << format << ": " << call << "\n"
            << r.out;
    }
  }
}

TEST(CheckServer, PagedCatalogsAreFollowedToTheEnd) {
  auto o = check_stdio("none", {}, {"--page-size", "2"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.report["toolCount"], 5);
}

TEST(CheckServer, OverStreamableHttp) {
  {
    const auto server = http_sample_server("none");
    ASSERT_TRUE(server.url.starts_with("http://127.0.0.1:")) << server.url;
    auto o = check_http(server.url);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(o.report["toolCount"], 5);
    EXPECT_TRUE(o.checks().empty()) << o.report.dump(1);
  }
  {
    const auto server = http_sample_server("none", {"--sse"});  // answers on SSE streams
    auto o = check_http(server.url);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(o.report["toolCount"], 5);
  }
  {
    const auto server = http_sample_server("rug-pull", {"--sse"});
    auto o = check_http(server.url);
    EXPECT_TRUE(o.checks().count("list-changed.weakened")) << o.report.dump(1);
  }
}

TEST(CheckServer, HostileHttpServersEndWithinBounds) {
  struct Case {
    std::string mode, says;
  };
  for (const auto& c : std::vector<Case>{{"http-500", "answered HTTP 500"},
                                         {"http-bad-sse", "SSE event 1 (at byte 0) is not JSON"},
                                         {"http-stall", "the response stalled"}}) {
    const auto server = http_sample_server(c.mode);
    auto o = check_http(server.url);
    EXPECT_EQ(o.exit_code, 3) << c.mode << ": " << o.err;
    EXPECT_LT(o.seconds, test_support::bound_seconds(8.0)) << c.mode;
    EXPECT_EQ(test_support::count_lines(o.err), 1u) << c.mode << ": " << o.err;
    EXPECT_NE(o.err.find(c.says), std::string::npos) << c.mode << ": " << o.err;
  }
  // Nothing listening: refused at once.
  auto nobody = check_http("http://127.0.0.1:9/mcp");
  EXPECT_EQ(nobody.exit_code, 3);
  EXPECT_NE(nobody.err.find("session 1: initialize: POST http://127.0.0.1:9/mcp: connection refused"),
            std::string::npos)
      << nobody.err;
  auto unknown_host = check_http("http://no-such-host.invalid:9/mcp");
  EXPECT_EQ(unknown_host.exit_code, 3);
  EXPECT_NE(unknown_host.err.find("cannot resolve 'no-such-host.invalid'"), std::string::npos) << unknown_host.err;
}

TEST(CheckServer, EveryReportFormatCarriesServerChecks) {
  const std::vector<std::string> server = {"--", kServer, "--catalog", catalog(), "--misbehave", "relist-changes"};
  auto junit = run_cli([&] {
    std::vector<std::string> a = {"check-server", "--format", "junit", "--observe", "0"};
    a.insert(a.end(), server.begin(), server.end());
    return a;
  }());
  // A warning fails the run by default (--fail-on warning).
  EXPECT_NE(junit.out.find("name=\"stability.relist\"><failure type=\"warning\""), std::string::npos)
      << junit.out.substr(0, 500);
  EXPECT_NE(junit.out.find("name=\"server.initialize\"/>"), std::string::npos);
  auto sarif = run_cli([&] {
    std::vector<std::string> a = {"check-server", "--format", "sarif", "--observe", "0"};
    a.insert(a.end(), server.begin(), server.end());
    return a;
  }());
  const json s = json::parse(sarif.out);
  std::set<std::string> rules;
  for (const auto& r : s["runs"][0]["tool"]["driver"]["rules"]) rules.insert(r["id"].get<std::string>());
  EXPECT_TRUE(rules.count("stability.relist"));
  for (const auto& r : s["runs"][0]["results"]) EXPECT_TRUE(rules.count(r["ruleId"].get<std::string>()));
  auto text = run_cli([&] {
    std::vector<std::string> a = {"check-server", "--observe", "0", "--strict"};
    a.insert(a.end(), server.begin(), server.end());
    return a;
  }());
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("1 server, 5 tools"), std::string::npos) << text.out;
}

// The stateless era (2026-07-28): the sample server speaking it alone, or both eras, passes every
// check over stdio and HTTP, reached by negotiation or insisted on.
TEST(CheckServerStateless, AServerSpeakingTheStatelessEraPassesEveryCheck) {
  for (const std::string protocol : {"stateless", "both"})
    for (const std::string asked : {"auto", "2026-07-28"}) {
      const std::string what = "--protocol " + protocol + ", asked " + asked;
      auto o = check_stdio("none", {"--protocol", asked}, {"--protocol", protocol});
      EXPECT_EQ(o.exit_code, 0) << what << ": " << o.err;
      EXPECT_TRUE(o.checks().empty()) << what << ": " << o.report.dump(1);
      EXPECT_EQ(o.report["protocol"]["era"], "stateless") << what;
      EXPECT_TRUE(o.report["protocol"]["fallback"].is_null()) << what;
      EXPECT_EQ(o.report["toolCount"], 5) << what;
      const auto server = http_sample_server("none", {"--protocol", protocol});
      auto h = check_http(server.url, {"--protocol", asked});
      EXPECT_EQ(h.exit_code, 0) << what << " (http): " << h.err;
      EXPECT_TRUE(h.checks().empty()) << what << " (http): " << h.report.dump(1);
      EXPECT_EQ(h.report["protocol"]["era"], "stateless") << what;
    }
}

// SEP-2243: a called tool whose parameter its call mirrors in an Mcp-Param header is called again
// with that header wrong, then without it, over HTTP in the stateless era. A server that validates
// passes; one that checks the value but not its absence, or nothing, is caught by the probe it
// fails. No probe where nothing is mirrored (the argument not given), over stdio, or in the legacy era.
TEST(CheckServerStateless, ProbesTheMcpParamHeadersOfACalledTool) {
  const std::vector<std::string> call = {"--call", R"(list_pods={"namespace":"prod"})"};
  const std::vector<std::string> annotated = {"--param-header", "Namespace"};
  const auto findings_of = [](const Outcome& o) {
    std::string out;
    for (const auto& f : o.report["findings"])
      if (f["check"] == "stateless.param-header-mismatch") out += f["message"].get<std::string>() + "\n";
    return out;
  };
  struct Case {
    std::string mode, protocol;
    std::vector<std::string> call;
    std::string says;  // "": no finding
  };
  const std::vector<Case> cases = {
      {"none", "stateless", call, ""},
      {"none", "both", call, ""},
      {"ignore-param-headers", "stateless", call, "whose Mcp-Param-Namespace header says other than its argument"},
      {"lenient-param-headers", "stateless", call, "without its Mcp-Param-Namespace header should be refused"},
      {"ignore-param-headers", "stateless", {"--call", "list_pods={}"}, ""},
      {"ignore-param-headers", "legacy", call, ""},
  };
  for (const auto& c : cases) {
    std::vector<std::string> server_extra = {"--protocol", c.protocol};
    server_extra.insert(server_extra.end(), annotated.begin(), annotated.end());
    const auto server = http_sample_server(c.mode, server_extra);
    const std::string what = c.mode + " " + c.protocol + " " + c.call.back();
    auto o = check_http(server.url, c.call);
    const std::string found = findings_of(o);
    ASSERT_EQ(o.report["calls"].size(), 1u) << what << ": " << o.report.dump(1) << o.err;
    EXPECT_EQ(o.report["calls"][0]["outcome"], "succeeded") << what;
    if (c.says.empty()) {
      EXPECT_EQ(found, "") << what;
      EXPECT_EQ(o.exit_code, 0) << what << ": " << o.report.dump(1) << o.err;
    } else {
      EXPECT_NE(found.find(c.says), std::string::npos) << what << ": " << found;
      EXPECT_EQ(std::count(found.begin(), found.end(), '\n'), 1) << what << ": one probe fails, one finding";
      EXPECT_EQ(o.exit_code, 1) << what;
    }
  }
  // The mock, which validates as the specification says, passes too: a string sent in Base64, then
  // an integer (0, whose wrong value is 1), each the first header mirrored.
  mcp_hints::ProcessOptions mock;
  mock.argv = {MCP_HINTS_BIN, "mock", "--scenario", "headers.param-mirrored", "--transport", "http"};
  for (const std::string arguments : {R"({"region":"Z\u00fcrich","days":3})", R"({"days":0})"}) {
    const auto server = test_support::start_listening(mock);
    auto m = check_http(server.url, {"--call", "get_forecast=" + arguments});
    EXPECT_EQ(findings_of(m), "") << arguments;
    EXPECT_EQ(m.exit_code, 0) << arguments << ": " << m.report.dump(1) << m.err;
    ASSERT_EQ(m.report["calls"].size(), 1u) << arguments;
    EXPECT_EQ(m.report["calls"][0]["outcome"], "succeeded") << arguments;
  }
  // Over stdio nothing is mirrored, so nothing is probed, whatever the server does with headers.
  auto o = check_stdio("ignore-param-headers", call, {"--protocol", "stateless", "--param-header", "Namespace"});
  EXPECT_EQ(findings_of(o), "");
  EXPECT_EQ(o.exit_code, 0) << o.report.dump(1) << o.err;
}

// The stateless era announces a changed tool list only on a subscriptions/listen stream: check-server
// opens one when the server declares tools.listChanged, judges what comes on it, and lists again
// after a tools/list_changed there, over stdio and HTTP. A stream that brings nothing in the window,
// nor a second one in the request timeout, was never acknowledged.
TEST(CheckServerStateless, JudgesWhatASubscriptionStreamBrings) {
  struct Case {
    std::string mode, check, says;
  };
  const std::vector<Case> cases = {
      {"rug-pull", "list-changed.weakened", "after notifications/tools/list_changed the tool became less cautious"},
      {"listen-late-ack", "subscriptions.acknowledged", "came before the acknowledgment"},
      {"listen-silent", "subscriptions.acknowledged",
       "but nothing came on it within the 300 ms observe window, nor on a second stream within the " +
           std::to_string(request_timeout_seconds() * 1000) + " ms request timeout"},
  };
  for (const auto& c : cases) {
    const auto server = http_sample_server(c.mode, kStateless);
    for (const auto& o : {check_stdio(c.mode, {}, kStateless), check_http(server.url)}) {
      EXPECT_EQ(o.exit_code, 1) << c.mode << ": " << o.err;
      EXPECT_TRUE(o.report["summary"]["incomplete"].is_null()) << c.mode << ": " << o.report.dump(1);
      std::string messages;
      for (const auto& f : o.report["findings"])
        if (f["check"] == c.check) messages += f["message"].get<std::string>() + "\n";
      EXPECT_NE(messages.find(c.says), std::string::npos) << c.mode << ": " << o.report.dump(1);
    }
  }
}

TEST(CheckServerStateless, ALegacyRunSaysWhyNegotiationFellBack) {
  auto o = check_stdio("none");
  EXPECT_EQ(o.report["protocol"]["era"], "legacy");
  EXPECT_NE(o.report["protocol"]["fallback"].get<std::string>().find("it answered server/discover with an error"),
            std::string::npos)
      << o.report["protocol"];
  auto text = run_cli({"check-server", "--observe", "0", "--", kServer, "--catalog", catalog()});
  EXPECT_NE(text.out.find("protocol: 2025-11-25 (legacy era; fell back to it because it answered server/discover"),
            std::string::npos)
      << text.out;
  // Insisting on the legacy era, there is nothing to fall back from.
  EXPECT_TRUE(check_stdio("none", {"--protocol", "legacy"}).report["protocol"]["fallback"].is_null());
}

// The initialize answer is read in the revision offered, not always the newest.
TEST(CheckServerStateless, TheInitializeAnswerIsHeldToTheRevisionOffered) {
  auto o = check_stdio("bad-server-info", {"--protocol", "2025-06-18"});
  ASSERT_TRUE(o.checks().count("protocol.result")) << o.report.dump(1);
  for (const auto& f : o.report["findings"]) {
    if (f["check"] != "protocol.result") continue;
    EXPECT_NE(f["message"].get<std::string>().find("initialize (2025-06-18 "), std::string::npos) << f;
  }
}

// The tools are linted against the specification's revision the server speaks, unless the run
// names one: an outputSchema whose root is an array is a Tool of 2026-07-28, not of 2025-11-25.
TEST(CheckServer, TheToolsAreLintedInTheRevisionSpokenUnlessOneIsNamed) {
  test_support::TempDir dir;
  const auto tools = dir.write("tools.json", R"([{"name": "list_ids", "description": "Lists the ids.",
    "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}},
    "annotations": {"readOnlyHint": true}}])");
  const auto check = [&](std::vector<std::string> extra, const std::string& server_protocol) {
    std::vector<std::string> args = {"check-server",      "--format",        "json",      "--timeout", run_timeout(),
                                     "--request-timeout", request_timeout(), "--observe", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--", kServer, "--catalog", tools.string(), "--protocol", server_protocol});
    return run_check(args);
  };
  struct Case {
    std::vector<std::string> extra;
    std::string server, spoken, linted;
    bool finding;  // schema.spec-tool: the tool, linted in the revision said
    bool message;  // protocol.result: the tools/list message, always held to the revision spoken
  };
  for (const Case& c : std::vector<Case>{
           {{}, "stateless", "2026-07-28", "2026-07-28", false, false},
           {{}, "legacy", "2025-11-25", "2025-11-25", true, true},
           {{"--protocol", "2025-06-18"}, "legacy", "2025-06-18", "2025-06-18", true, true},
           // 2025-03-26 had no outputSchema; its tools are linted as the earliest revision mcp-hints knows.
           {{"--protocol", "2025-03-26"}, "legacy", "2025-03-26", "2025-06-18", true, false},
           {{"--spec-revision", "2025-11-25"}, "stateless", "2026-07-28", "2025-11-25", true, false},
           {{"--spec-revision", "2026-07-28"}, "legacy", "2025-11-25", "2026-07-28", false, true},
       }) {
    const auto o = check(c.extra, c.server);
    const std::string what = c.server + " server" + (c.extra.empty() ? "" : ", " + c.extra[0] + " " + c.extra[1]);
    EXPECT_EQ(o.report["protocol"]["version"], c.spoken) << what << ": " << o.err;
    EXPECT_EQ(o.report["specRevision"], c.linted) << what;
    EXPECT_EQ(o.checks().count("schema.spec-tool"), c.finding ? 1u : 0u) << what << ": " << o.report.dump(1);
    EXPECT_EQ(o.checks().count("protocol.result"), c.message ? 1u : 0u) << what << ": " << o.report.dump(1);
    EXPECT_EQ(o.exit_code, c.finding || c.message ? 1 : 0) << what << ": " << o.err;
  }
}

// What the schema already says is the schema check's: pages without ttlMs or cacheScope are
// protocol.result findings, and no stateless check repeats them.
TEST(CheckServerStateless, MissingCacheHintsAreTheSchemaChecksFinding) {
  auto o = check_stdio("no-cache-hints", {}, kStateless);
  EXPECT_TRUE(o.checks().count("protocol.result")) << o.report.dump(1);
  for (const auto& id : o.checks()) EXPECT_FALSE(id.starts_with("stateless.")) << id;
  std::string messages;
  for (const auto& f : o.report["findings"]) messages += f["message"].get<std::string>() + "\n";
  EXPECT_NE(messages.find("ttlMs"), std::string::npos) << messages;
}

// A server silent to the probes holds each up for --request-timeout at most: the run ends within
// --timeout, its silence the finding, nothing left running.
TEST(CheckServerStateless, AServerSilentToTheProbesIsBoundedAndAFinding) {
  auto o = check_stdio("silent-probes", {}, kStateless);
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_LT(o.seconds, test_support::bound_seconds(8.0));  // the run's own bound is 6 s, each probe's 2 s
  EXPECT_EQ(o.checks(), (std::set<std::string>{"stateless.version-unsupported", "stateless.version-missing"}))
      << o.report.dump(1);
  const std::string waited = "but it was not answered within " + std::to_string(request_timeout_seconds()) + "000 ms";
  for (const auto& f : o.report["findings"])
    EXPECT_NE(f["message"].get<std::string>().find(waited), std::string::npos) << f;
  EXPECT_TRUE(mcp_hints::process_group_gone(o.server_pid));
}

// A server of the stateless era alone, slower to answer server/discover than negotiation waits
// (one still starting): its -32022 to the initialize that follows names 2026-07-28, which is then
// asked for with the whole request timeout; its late discover answer is read in the stateless era.
TEST(CheckServerStateless, ASlowDiscoverAnswerIsWaitedForOnceTheServerNamesItsEra) {
  test_support::TempDir dir;
  const std::string pid_file = (dir.path() / "pid").string();
  auto o = run_check({"check-server", "--format", "json", "--timeout", "20s", "--request-timeout", "2s", "--observe",
                      "0", "--", kServer, "--catalog", catalog(), "--misbehave", "slow-discover", "--protocol",
                      "stateless", "--pid-file", pid_file});
  EXPECT_EQ(o.exit_code, 0) << o.err << o.report.dump(1);
  EXPECT_EQ(o.report["protocol"]["era"], "stateless") << o.report["protocol"];
  EXPECT_TRUE(o.checks().empty()) << o.report.dump(1);
  EXPECT_EQ(o.report["toolCount"], 5);
}

// A ttlMs longer than the observe window is not waited for: no listing after it, no finding.
TEST(CheckServerStateless, ALongTtlIsNotWaitedFor) {
  auto o = check_stdio("expiry-weakens", {}, {"--protocol", "stateless", "--ttl-ms", "60000"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(o.checks().empty()) << o.report.dump(1);
  EXPECT_LT(o.seconds, test_support::bound_seconds(5.0));
}

// Hints that differ per authorization context: a finding only under a public cacheScope.
TEST(CheckServerStateless, PerContextHintsAreAFindingOnlyUnderAPublicScope) {
  const std::vector<std::string> contexts = {"--auth-env", "MCP_SAMPLE_AUTH=alice", "--auth-env",
                                             "MCP_SAMPLE_AUTH=admin"};
  auto scoped = check_stdio("per-context-hints", contexts, {"--protocol", "stateless", "--cache-scope", "private"});
  EXPECT_EQ(scoped.exit_code, 0) << scoped.err;
  EXPECT_TRUE(scoped.checks().empty()) << scoped.report.dump(1);
  auto same = check_stdio("per-context-hints",
                          {"--auth-env", "MCP_SAMPLE_AUTH=alice", "--auth-env", "MCP_SAMPLE_AUTH=bob"}, kStateless);
  EXPECT_TRUE(same.checks().empty()) << same.report.dump(1);
  // Over HTTP each context is a header, and each listing carries its own context's alone (the
  // first context's Authorization going along too would hide the difference).
  for (const std::string scope : {"public", "private"}) {
    const auto server = http_sample_server("per-context-hints", {"--protocol", "stateless", "--cache-scope", scope});
    auto h = check_http(
        server.url, {"--auth-header", "Authorization: Bearer alice", "--auth-header", "Authorization: Bearer admin"});
    EXPECT_EQ(h.checks(),
              (scope == "public" ? std::set<std::string>{"stateless.public-scope"} : std::set<std::string>{}))
        << scope << ": " << h.report.dump(1) << h.err;
    for (const auto& f : h.report["findings"]) {
      const std::string message = f["message"];
      EXPECT_NE(message.find("authorization contexts 1 and 2"), std::string::npos) << message;
      EXPECT_EQ(message.find("Bearer"), std::string::npos) << "a context's value is shown: " << message;
    }
  }
  EXPECT_EQ(run_cli({"check-server", "--auth-header", "Authorization: x", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--auth-env", "NOEQUALS", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_cli({"check-server", "--auth-env", "A=b", "--url", "http://127.0.0.1:9/mcp"}).exit_code, 2);
}

// A live server's findings, tool and server checks alike, accepted by a baseline: the run that
// wrote it and the next pass; a lint baseline of the same catalog applies to the live server; a
// server whose problems are fixed leaves stale entries, warnings that fail a strict run.
TEST(CheckServer, ABaselineAcceptsALiveServersFindingsAndReportsTheFixedOnesStale) {
  test_support::TempDir dir;
  const std::string baseline = (dir.path() / "live-baseline.json").string();
  auto live = [&](const std::string& catalog_name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"check-server",      "--format",        "json",      "--timeout", run_timeout(),
                                     "--request-timeout", request_timeout(), "--observe", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--", kServer, "--catalog", catalog(catalog_name), "--misbehave", "relist-changes"});
    return run_check(args);
  };
  const auto wrote = live("bad-catalog.json", {"--write-baseline", baseline});
  ASSERT_EQ(wrote.exit_code, 0) << wrote.err;
  const json written =
      test_support::expect_matches_schema("lint-baseline.schema.json", test_support::read_file(baseline));
  EXPECT_EQ(written["command"], "check-server");
  std::set<std::string> baselined_checks;
  for (const auto& e : written["entries"]) baselined_checks.insert(e["checkId"].get<std::string>());
  EXPECT_TRUE(baselined_checks.count("stability.relist")) << written.dump(1);
  EXPECT_TRUE(baselined_checks.count("risk.understated")) << written.dump(1);

  const auto again = live("bad-catalog.json", {"--baseline", baseline});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  test_support::expect_matches_schema("lint-report.schema.json", again.report.dump());
  EXPECT_EQ(again.report["summary"]["baselined"], written["entries"].size());
  EXPECT_EQ(again.report["findings"].size(), written["entries"].size()) << "nothing stale, nothing new";
  EXPECT_EQ(again.report["summary"]["verdict"], "pass");
  // A protocol finding inside one listed tool names it, and so follows it: the same catalog with
  // its tools reversed is still wholly in the baseline.
  bool named = false;
  for (const auto& f : again.report["findings"])
    if (f["check"] == "protocol.result" && f["pointer"].get<std::string>().starts_with("/result/tools/"))
      named = f["tool"] == "broken";
  EXPECT_TRUE(named) << again.report.dump(1);
  json reversed = test_support::read_json(catalog("bad-catalog.json"));
  std::reverse(reversed["result"]["tools"].begin(), reversed["result"]["tools"].end());
  dir.write("reversed.json", reversed.dump());
  std::vector<std::string> args = {"check-server",
                                   "--format",
                                   "json",
                                   "--timeout",
                                   "6s",
                                   "--baseline",
                                   baseline,
                                   "--observe",
                                   "0",
                                   "--",
                                   kServer,
                                   "--catalog",
                                   (dir.path() / "reversed.json").string(),
                                   "--misbehave",
                                   "relist-changes"};
  const auto reordered = run_check(args);
  EXPECT_EQ(reordered.exit_code, 0) << reordered.err;
  EXPECT_EQ(reordered.report["summary"]["baselined"], written["entries"].size()) << reordered.report.dump(1);
  EXPECT_EQ(reordered.report["findings"].size(), written["entries"].size()) << reordered.report.dump(1);

  // lint's baseline of the saved catalog: every tool finding of the live server is in it; only
  // the server checks' are new.
  const std::string lint_baseline = (dir.path() / "lint-baseline.json").string();
  ASSERT_EQ(run_cli({"lint", "--write-baseline", lint_baseline, catalog("bad-catalog.json")}).exit_code, 0);
  const auto from_lint = live("bad-catalog.json", {"--baseline", lint_baseline});
  std::set<std::string> counted;
  for (const auto& f : from_lint.report["findings"])
    if (f["suppressions"].empty()) counted.insert(f["check"].get<std::string>());
  EXPECT_TRUE(counted.count("stability.relist")) << from_lint.report.dump(1);
  for (const auto& id : counted) {
    const auto check = mcp_hints::find_check(id);
    EXPECT_TRUE(check && check->scope == mcp_hints::Scope::server) << id << " is not in lint's baseline";
  }
  EXPECT_EQ(from_lint.report["summary"]["baselined"], test_support::read_json(lint_baseline)["entries"].size());

  // Fixed: the good catalog leaves the bad one's entries stale.
  // Stale entries are warnings: the run fails on them by default, not under --fail-on error.
  const auto fixed = live("good-catalog.json", {"--baseline", baseline});
  EXPECT_EQ(fixed.exit_code, 1) << fixed.err;
  EXPECT_EQ(live("good-catalog.json", {"--baseline", baseline, "--fail-on", "error"}).exit_code, 0);
  std::size_t stale = 0;
  for (const auto& f : fixed.report["findings"]) {
    if (f["check"] != "baseline.stale") continue;
    ++stale;
    EXPECT_EQ(f["file"], baseline);
  }
  EXPECT_GE(stale, written["entries"].size() - 1) << fixed.report.dump(1);  // stability.relist may stay
  EXPECT_EQ(live("good-catalog.json", {"--baseline", baseline, "--strict"}).exit_code, 1);
}
