// mcp-hints check-server: certify a live server over stdio or Streamable HTTP.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <utility>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/live/check_server.hpp"
#include "mcp_hints/live/server_config.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;
using namespace std::chrono_literals;

namespace {

const std::string kHelp = std::string(R"(usage: mcp-hints check-server [OPTIONS] -- COMMAND [ARGS...]
       mcp-hints check-server [OPTIONS] --url URL
       mcp-hints check-server [OPTIONS] --config FILE|auto [--config ...]

Certifies a live MCP server: starts it (stdio) or connects to it (Streamable HTTP), lists its
tools and runs every lint check on them, then the checks only a live server allows: protocol
prerequisites (initialize, the tools capability, well-formed pages, terminating cursors, nothing
but MCP on stdout), hint stability (a second listing; a restart, or a second HTTP session),
notifications/tools/list_changed (a change that weakens a tool's safety is a possible rug pull)
and, only with --call, the trust annotations of a tool's result. No tool is called without --call.

options:
)") + kReportOptionsHelp + R"(  --url URL              a Streamable HTTP endpoint instead of a command
  --config FILE          check every server a host's config file names (repeatable), several at
                         once (--jobs), in one report with a part per server and the verdict of
                         them all: mcpServers (Claude Desktop's claude_desktop_config.json,
                         Claude Code's .mcp.json and ~/.claude.json, Cursor's mcp.json), servers
                         (VS Code's mcp.json) or [mcp_servers.NAME] (Codex's config.toml).
                         ${VAR}, ${VAR:-default}, ${env:VAR}, ${userHome} and ${workspaceFolder}
                         are expanded in JSON configs, as their hosts do. A server that cannot
                         start is reported so and the others still run; disabled ones are listed,
                         not checked. The values of env and headers (and of variables) are
                         secrets: never shown, in any format
  --config auto          the usual files of the user (~/.claude.json, Claude Desktop's, Cursor's,
                         VS Code's, $CODEX_HOME/config.toml or ~/.codex/config.toml) and of the
                         current project (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
                         .codex/config.toml); says on stderr which it read
  --timeout T            bound on the whole run (default 30s; 30s, 500ms, 2m)
  --request-timeout T    bound on one request (default 10s; 30s, 500ms, 2m)
  --observe T            how long to wait for notifications/tools/list_changed (default 1s; 0 for
                         none; 30s, 500ms, 2m)
  --protocol P           the protocol era to speak: auto (default: server/discover, then
                         initialize if the server does not know it), legacy, stateless, or a
                         revision (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)
  --env K=V              set an environment variable for the server (repeatable; stdio)
  --auth-header 'H: V'   an authorization context over HTTP: a header sent with every request
                         (repeatable, one context each; the sessions use the first). With two or
                         more, the catalog is listed in each, and a tools/list marked cacheScope
                         public whose hints differ between them is a finding (stateless era)
  --auth-env K=V         the same over stdio: a variable in the server's environment (a stdio
                         server takes its credentials from there), one context each
  --call TOOL=JSONARGS   call TOOL with these arguments and check its result (repeatable);
                         a tool whose hints do not say read-only (readOnlyHint true, or a
                         proposal's read effect) is refused unless --allow-side-effects is
                         given, and so is one without hints (the specification's default is
                         destructive); a read-only tool that reaches the open world is called.
                         Over HTTP in the stateless era, a call that mirrors an argument in an
                         Mcp-Param header is sent again with that header wrong, then without it
                         (a server that does not validate them runs it again)
  --allow-side-effects   allow --call on tools whose hints do not say read-only
  --jobs N               threads: with 2 or more (default: the machine's cores), the first
                         listing's tools are linted while the session goes on and the next
                         listing is read; the report is byte for byte that of --jobs 1. With
                         --config: how many servers are checked at once
  --checks-dir DIR       also write DIR/check-server/checks.json in the official conformance
                         suite's shape: one entry per check, SUCCESS, FAILURE (an error finding),
                         WARNING, INFO or SKIPPED (did not run)
  -h, --help             this text

Every call made is in the report, in every format: the tool, the shape of its arguments (names
and types, never values) and its outcome.

exit codes: 0 no finding at the fail-on level, 1 findings at or above it, 2 usage error (or a
refused --call, or a config that cannot be read), 3 the run could not complete (the server did
not start, never answered, died, answered tools/list with an error, or a --call failed: an
error, or a result with isError true, whose text is quoted); the reason is said on one line.
With --config, the worst of the servers' decides.
)";

// --config: the servers of hosts' config files, each checked as the options say.
int check_configured_servers(const std::vector<std::string>& given, const CheckServerOptions& run,
                             ReportSettings& settings, Progress& progress) {
  const ConfigPlaces places = ConfigPlaces::of_this_process();
  std::vector<std::filesystem::path> paths;
  std::vector<std::filesystem::path> found_automatically;
  for (const auto& config : given) {
    if (config != "auto") {
      paths.emplace_back(config);
      continue;
    }
    std::vector<std::string> looked;
    for (const auto& usual : usual_server_configs(places)) {
      std::error_code ec;
      looked.push_back(usual.string());
      if (std::filesystem::is_regular_file(usual, ec)) {
        paths.push_back(usual);
        found_automatically.push_back(usual);
      }
    }
    if (found_automatically.empty() && given.size() == 1)
      return usage_error("check-server", "--config auto: no config found; looked for " + join(looked, ", "));
  }
  ServerSetReport set;
  std::vector<ConfiguredServer> servers;
  for (const auto& path : paths) {
    ServerConfig config;
    try {
      config = read_server_config(path, places);
    } catch (const InputError& e) {
      // A file found by looking is reported and left; one given is the user's to mend.
      if (std::find(found_automatically.begin(), found_automatically.end(), path) == found_automatically.end())
        return usage_error("check-server", std::string("--config ") + e.what() +
                                               (std::string(e.what()).find("holds suppressions") != std::string::npos
                                                    ? " (give it with --suppressions)"
                                                    : ""));
      std::cerr << "mcp-hints check-server: --config auto: not read: " << visible(e.what()) << "\n";
      continue;
    }
    std::size_t disabled = 0;
    for (auto& server : config.servers) {
      if (!server.disabled.empty()) {
        set.disabled.push_back({server.name, server.config, server.disabled});
        ++disabled;
      } else if (std::ranges::none_of(servers, [&](const auto& seen) { return same_server(seen, server); })) {
        servers.push_back(std::move(server));
      }
    }
    progress.line("check-server: read " + visible(config.path) + ": " + std::to_string(config.servers.size()) +
                  (config.servers.size() == 1 ? " server" : " servers") + " (" + config.shape +
                  (disabled ? ", " + std::to_string(disabled) + " disabled" : "") + ")");
    set.configs.push_back(config.path);
  }
  if (servers.empty())
    return usage_error("check-server", set.configs.empty() ? "--config: no config could be read"
                                                           : "--config: the configs name no server to check");
  const auto reports = check_servers(servers, run, run.lint.jobs);
  // Disabled servers were set apart above: a report for each server, in order.
  for (std::size_t i = 0; i < servers.size(); ++i)
    set.parts.push_back({servers[i].name, servers[i].config, reports[i]});
  return write_server_set_report(std::move(set), settings, "check-server");
}

}  // namespace

int check_server_command(const std::vector<std::string>& args) {
  // Everything after "--" is the server's command line, untouched.
  auto dashes = std::find(args.begin() + 1, args.end(), "--");
  std::vector<std::string> ours(args.begin() + 1, dashes);
  std::vector<std::string> command(dashes == args.end() ? dashes : dashes + 1, args.end());

  po::options_description options;
  add_report_options(options);
  options.add_options()("help,h", "")("url", po::value<std::string>(), "")(
      "timeout", po::value<Duration>()->default_value(Duration(30s), "30s"), "")(
      "request-timeout", po::value<Duration>()->default_value(Duration(10s), "10s"), "")(
      "observe", po::value<Duration>()->default_value(Duration(1000ms), "1s"), "")(
      "env", po::value<std::vector<std::string>>(), "")("call", po::value<std::vector<std::string>>(), "")(
      "allow-side-effects", "")("protocol", po::value<std::string>()->default_value("auto"), "")(
      "auth-header", po::value<std::vector<std::string>>(), "")("auth-env", po::value<std::vector<std::string>>(), "")(
      "checks-dir", po::value<std::string>(), "")("jobs", po::value<Jobs>()->default_value(Jobs(), ""), "")(
      "config", po::value<std::vector<std::string>>(), "")("command-without-dashes",
                                                           po::value<std::vector<std::string>>(), "");
  // Words before "--" that belong to no option are a server command given without "--".
  po::positional_options_description stray;
  stray.add("command-without-dashes", -1);
  std::vector<std::string> own_args = {args[0]};
  own_args.insert(own_args.end(), ours.begin(), ours.end());
  const auto parsed = parse_arguments(own_args, options, &stray);
  if (!parsed) return bad_input;
  const auto& vm = *parsed;
  if (vm.count("help")) {
    std::cout << kHelp;
    return pass;
  }
  auto settings = read_report_settings(vm, "check-server");
  if (!settings) return bad_input;
  if (vm.count("list-checks")) {
    print_checks(settings->format, true);
    return pass;
  }
  auto usage = [](const std::string& why) { return usage_error("check-server", why); };
  if (vm.count("command-without-dashes")) {
    const auto& words = vm["command-without-dashes"].as<std::vector<std::string>>();
    return usage("a server's command line goes after '--' (did you mean 'mcp-hints check-server [OPTIONS] -- " +
                 join(words, " ") + "'?)");
  }
  ServerTarget target;
  if (vm.count("url")) target.url = vm["url"].as<std::string>();
  target.command = command;
  const bool configs = vm.count("config") > 0;
  if (configs) {
    if (!target.url.empty() || !target.command.empty())
      return usage("--config checks the servers a config names: give it without -- COMMAND or --url");
    for (const char* alone : {"call", "allow-side-effects", "env", "auth-header", "auth-env"})
      if (vm.count(alone))
        return usage(std::string("--") + alone + " is for one server (-- COMMAND or --url), not for --config");
  } else if (target.url.empty() == target.command.empty()) {
    return usage("give the server as -- COMMAND [ARGS...], as --url URL, or as --config FILE (one of them)");
  }
  if (!target.url.empty() && target.url.rfind("http://", 0) != 0 && target.url.rfind("https://", 0) != 0)
    return usage("--url must be an http:// or https:// URL, not '" + target.url + "'");
  if (vm.count("env")) {
    for (const auto& kv : vm["env"].as<std::vector<std::string>>()) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return usage("--env takes K=V, not '" + kv + "'");
      target.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
  }
  CheckServerOptions run;
  if (vm.count("auth-header")) {
    if (target.url.empty()) return usage("--auth-header is for a server given with --url; over stdio use --auth-env");
    for (const auto& header : vm["auth-header"].as<std::vector<std::string>>()) {
      const auto colon = header.find(':');
      if (colon == std::string::npos || colon == 0) return usage("--auth-header takes 'Name: value'");
      const auto value = header.find_first_not_of(' ', colon + 1);
      run.auth_contexts.push_back(
          {{{header.substr(0, colon), value == std::string::npos ? "" : header.substr(value)}}, {}});
    }
  }
  if (vm.count("auth-env")) {
    if (!target.url.empty())
      return usage("--auth-env is for a server started over stdio; with --url use --auth-header");
    for (const auto& kv : vm["auth-env"].as<std::vector<std::string>>()) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return usage("--auth-env takes K=V");
      run.auth_contexts.push_back({{}, {{kv.substr(0, eq), kv.substr(eq + 1)}}});
    }
  }
  run.lint.spec_revision = settings->spec_revision;
  run.lint_revision_spoken = vm["spec-revision"].defaulted();
  run.lint.pinned = settings->pinned;
  run.lint.jobs = vm["jobs"].as<Jobs>().value;
  run.timeout = vm["timeout"].as<Duration>().value;
  run.request_timeout = vm["request-timeout"].as<Duration>().value;
  run.observe_window = vm["observe"].as<Duration>().value;
  if (run.timeout.count() <= 0 || run.request_timeout.count() <= 0)
    return usage("--timeout and --request-timeout must be longer than 0");
  run.allow_side_effects = vm.count("allow-side-effects") > 0;
  const auto protocol = parse_protocol_choice(vm["protocol"].as<std::string>());
  if (!protocol)
    return usage("--protocol takes one of " + protocol_choice_words() + ", not '" + vm["protocol"].as<std::string>() +
                 "'");
  run.protocol = *protocol;
  if (vm.count("call")) {
    for (const auto& spec : vm["call"].as<std::vector<std::string>>()) {
      const auto eq = spec.find('=');
      if (eq == std::string::npos || eq == 0) return usage("--call takes TOOL=JSONARGS, not '" + spec + "'");
      try {
        auto arguments = parse_json(spec.substr(eq + 1));
        if (!arguments.is_object())
          return usage("--call " + spec.substr(0, eq) + ": the arguments must be a JSON object");
        run.calls.push_back({spec.substr(0, eq), std::move(arguments)});
      } catch (const InputError& e) {
        return usage("--call " + spec.substr(0, eq) + ": " + e.what());
      }
    }
  }
  if (!read_suppression_files(*settings, "check-server")) return bad_input;
  if (vm.count("checks-dir")) settings->checks_dir = vm["checks-dir"].as<std::string>();
  Progress progress;
  run.progress = [&](const std::string& step) { progress.show("check-server: " + step); };
  LintReport report;
  try {
    (void)Linter(run.lint);  // an unknown revision is a usage error, before anything starts
    if (configs) return check_configured_servers(vm["config"].as<std::vector<std::string>>(), run, *settings, progress);
    report = check_server(target, run);
  } catch (const OptionError& e) {
    return option_error("check-server", e, kLintOptionFlags);
  } catch (const CallRefused& e) {
    return usage("--call " + e.tool() + ": refused: " + e.why() +
                 (e.side_effects() ? "; add --allow-side-effects to call it anyway" : ""));
  }
  return write_report(std::move(report), *settings, "check-server");
}

}  // namespace mcp_hints::cli
