// mcp-hints certify: run the certification scenarios against a client under test (the adapter
// contract, conformance/ADAPTER.md) and write its certification.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/conformance/certification_report.hpp"
#include "mcp_hints/conformance/coverage.hpp"
#include "mcp_hints/conformance/expected_failures.hpp"
#include "mcp_hints/conformance/hosts.hpp"
#include "mcp_hints/conformance/parallel_runs.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;
using namespace std::chrono_literals;
namespace fs = std::filesystem;
using namespace conformance;

namespace {

const char* kHelp = R"(usage: mcp-hints certify --client 'CMD' [OPTIONS]
       mcp-hints certify --host claude-code [--host-bin PATH] [OPTIONS]
       mcp-hints certify --list | --coverage [--format text|markdown]

Certifies an MCP client's handling of tool-safety hints: confirmation, #711 propagation,
exfiltration, escalation, retries, rug pulls, which hint placements survive, robustness. Each
scenario starts scripted mock servers and runs CMD (a shell command line) under the adapter
contract (conformance/ADAPTER.md): over http the server's URL is appended as its last argument;
over stdio MCP_HINTS_SERVER_COMMAND starts the server; MCP_CONFORMANCE_SCENARIO names the scenario
and MCP_CONFORMANCE_CONTEXT carries the servers, the task, the scripted user and the events file.
What the client sends is judged from the mock servers' records, never from the client.

options:
  --client CMD             the client under test (this or --host)
  --host NAME              a real host, run offline through its built-in adapter against a scripted
                           model endpoint; the host's own permission logic decides every call:
                           claude-code (Claude Code: `claude` on PATH), codex (the Codex CLI:
                           `codex` on PATH, its app-server), openai-agents (an app of the OpenAI
                           Agents SDK: @openai/agents beside a node_modules/.bin on PATH)
  --host-bin PATH          the host's executable, or for openai-agents the package's folder
                           (default: found from PATH; make hosts installs the pinned ones in
                           hosts/node_modules)
  --scripted-model         give a --client that drives a real host the scripted model endpoint
                           (the context's `model`: one base URL per conversation of the task)
  --scenario ID|FILE       a scenario to run (repeatable); default: all certification scenarios
  --all                    every certification scenario (the default)
  --transport T            stdio (default) or http
  --protocol P             the protocol revision the mock servers speak: all (default: every
                           scenario in each era, 2026-07-28 and 2025-11-25), or one revision
                           (2026-07-28 for the stateless era, 2025-11-25 ... 2024-11-05);
                           a scenario of one era (--list says which) runs only in it
  --format F               what to print: text (default), json, junit, markdown or html
  --output DIR             where results.json, junit.xml, report.html and each scenario's wire
                           records and events go (default: mcp-hints-certify)
  --checks-dir DIR         also write DIR/RUN/checks.json per scenario run (RUN: the scenario id,
                           @revision when pinned) in the official conformance suite's shape
  --expected-failures FILE known failures, one per line: SCENARIO[:CHECK] REASON; an entry that
                           passes now fails the run as stale
  --jobs N                 how many scenario runs go side by side, each in a process of its own
                           (default: the machine's cores); with 2 or more, beside them up to 4N
                           (at most 32) runs whose scripts wait 100 ms or more (slow calls,
                           Retry-After, ttlMs), which sleep through it; 1: one after another; the
                           report's order does not change
  --timeout T              the longest a client may take per scenario (default 30s, with --host
                           180s; 30s, 500ms, 2m)
  --color WHEN             auto (default), always, never (text on a terminal only)
  --strict                 require the strict tier: a warning (a SHOULD not met) fails the run
  --require-profile NAME   fail the run unless the client implements that proposal (repeatable):
                           policy-hints, risk-metadata, trust-annotations, action-security,
                           extensions, agency-hint, or all
  --list                   list the certification scenarios and their checks, then exit
  --list-hosts             list the hosts --host knows (name, title, executable or package; tabs),
                           then exit
  --coverage               print, per semantic, each key, value and boundary the scenarios exercise
                           and by which checks (text or --format markdown); exit 1 if one is not
  -h, --help               this text

verdicts: pass; warning (a SHOULD not met, or an acceptable but not ideal trace); info (a MAY);
fail (a MUST not met); not testable (the client never reached the decision point: a failure);
not applicable (the check does not apply on this transport; the scenario is not of this
protocol era, and the client is not run; or the client took a course the texts allow on which
the check has nothing to judge, such as declaring no elicitation). A run is not applicable when
none of its scenario's own checks applied.

tiers: "certified" when no check failed and every check was testable; "certified, strict" when
no check warned either. Tiers judge the specification's own sentences and hints only: a check a
draft's value or sentence decides counts toward that proposal's profile instead (a miss is info).
The report names the tier reached and what blocks the next one, and the tier per protocol era: an
era whose every run shows a client of the other era on the wire is "not spoken", left out of the
tier.

profiles: per proposal, "implemented" (every expectation held: asking where it marks danger, not
asking where it marks safety, carrying what must be carried), "partial", "not implemented" (the
client acts on none of it: asking before every call ignores the values that mark safety) or "not
exercised". They decide no tier; --require-profile makes them decide the run.

output: each run's line on stderr as it ends; the report in --format on stdout, the text one ending
with a recap of every failing check and OVERALL: CERTIFIED (naming the eras when one was not
spoken), NO NEW FAILURE (only expected failures keep the client from the tier), NOT CERTIFIED or
INCOMPLETE.

exit codes: 0 certified (with --strict: certified, strict) or no new failure, 1 not certified: a
failure, a not-testable check, a stale expected failure, no era spoken, a required profile not
implemented or, with --strict, a warning; 2 usage error or bad input; 3 incomplete: a run could
not start (the client or a mock server) or an output could not be written.
)";

// One row per scenario and, under it, one per check, the level and title in a column of their
// own. An expected-failures line names a check as SCENARIO:CHECK.
void list_scenarios() {
  std::vector<Row> rows;
  for (const auto& scenario : certification_scenarios()) {
    const auto eras = scenario_eras(scenario);
    rows.push_back({scenario.id, padded(scenario.level, 8) + scenario.title +
                                     (eras.size() == 1 ? " (" + eras.front() + " era only)" : "")});
    for (const auto& check : read_checks(scenario))
      rows.push_back({"  " + check.id, padded(check.level, 8) + check.title});
  }
  std::cout << columns(rows, 0, 42);
}

std::string results_text(const Certification& certification) {
  return certification_json(certification).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Writes one output; what went wrong if it could not be written, said on stderr too.
std::optional<std::string> write_file(const fs::path& path, const std::string& text) {
  try {
    write_file_atomically(path, text);
    return std::nullopt;
  } catch (const OutputError& e) {
    std::cerr << "mcp-hints certify: " << e.what() << "\n";
    return std::string(e.what());
  }
}

}  // namespace

int certify_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("client", po::value<std::string>(), "")("host", po::value<std::string>(), "")(
      "host-bin", po::value<std::string>(), "")("scripted-model", "")(
      "scenario", po::value<std::vector<std::string>>()->composing(), "")("all", "")(
      "transport", po::value<std::string>()->default_value("stdio"), "")(
      "format", po::value<std::string>()->default_value("text"), "")(
      "output", po::value<std::string>()->default_value("mcp-hints-certify"), "")(
      "checks-dir", po::value<std::string>(), "")("expected-failures", po::value<std::string>(), "")(
      "timeout", po::value<Duration>()->default_value(Duration(30s), "30s"), "")(
      "color", po::value<std::string>()->default_value("auto"), "")("list", "")("list-hosts", "")("strict", "")(
      "coverage", "")("require-profile", po::value<std::vector<std::string>>()->composing(), "")(
      "protocol", po::value<std::string>()->default_value("all"), "")("jobs",
                                                                      po::value<Jobs>()->default_value(Jobs(), ""), "");
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm)) return *exit;
  if (vm.count("list")) {
    list_scenarios();
    return pass;
  }
  if (vm.count("list-hosts")) {
    for (const auto& host : known_hosts())
      std::cout << host.name << '\t' << host.title << '\t' << host.executable << '\n';
    return pass;
  }
  if (vm.count("coverage")) {
    const std::string format = vm["format"].as<std::string>();
    if (format != "text" && format != "markdown")
      return usage_error("certify", "--coverage prints text or markdown, not '" + format + "'");
    const auto rows = coverage(certification_scenarios());
    std::cout << (format == "markdown" ? coverage_markdown(rows) : coverage_text(rows));
    const bool all =
        std::all_of(rows.begin(), rows.end(), [](const CoverageRow& r) { return !r.exercised_by.empty(); });
    return all ? pass : findings;
  }
  auto usage = [](const std::string& why) { return usage_error("certify", why); };
  if (vm.count("client") && vm.count("host")) return usage("give --client or --host, not both");
  if (vm.count("host-bin") && !vm.count("host")) return usage("--host-bin has no effect without --host");
  if (vm.count("scripted-model") && vm.count("host"))
    return usage("--scripted-model has no effect with --host (a host always gets one)");
  const Host* host = nullptr;
  if (vm.count("host")) {
    host = find_host(vm["host"].as<std::string>());
    if (!host) {
      std::vector<std::string> names;
      for (const auto& h : known_hosts()) names.push_back(h.name);
      return usage("unknown --host '" + vm["host"].as<std::string>() + "' (" + join(names, ", ") + ")");
    }
  } else if (!vm.count("client") || vm["client"].as<std::string>().find_first_not_of(" \t") == std::string::npos) {
    return usage("--client 'CMD' or --host NAME is required (the client under test)");
  }
  const std::string transport = vm["transport"].as<std::string>();
  if (transport != "stdio" && transport != "http")
    return usage("unknown --transport '" + transport + "' (stdio, http)");
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "junit" && format != "markdown" && format != "html")
    return usage("unknown --format '" + format + "' (text, json, junit, markdown, html)");
  const std::string color = vm["color"].as<std::string>();
  if (color != "auto" && color != "always" && color != "never")
    return usage("unknown --color '" + color + "' (auto, always, never)");
  std::vector<std::string> protocols;
  if (const std::string protocol = vm["protocol"].as<std::string>(); protocol == "all") {
    protocols = {stateless_protocol_versions().front(), supported_protocol_versions().front()};
  } else {
    const auto versions = all_protocol_versions();
    if (std::find(versions.begin(), versions.end(), protocol) == versions.end())
      return usage("unknown --protocol '" + protocol + "' (all, " + join(versions, ", ") + ")");
    protocols = {protocol};
  }
  const auto timeout =
      host && vm["timeout"].defaulted() ? std::chrono::milliseconds(180s) : vm["timeout"].as<Duration>().value;
  if (timeout < 100ms || timeout > 1h) return usage("--timeout must be 100ms to 1h, not " + duration_text(timeout));
  const std::size_t jobs = vm["jobs"].as<Jobs>().value;
  if (vm.count("all") && vm.count("scenario")) return usage("--all and --scenario exclude each other");

  // A scenario or an expected-failures list that cannot be used is an Error: main says it.
  std::vector<mock::Scenario> scenarios;
  if (!vm.count("scenario"))
    scenarios = certification_scenarios();
  else
    for (const auto& name : vm["scenario"].as<std::vector<std::string>>()) {
      scenarios.push_back(load_certification_scenario(name));
      if (!scenarios.back().document.contains("task") || !scenarios.back().document.contains("expect"))
        return usage(scenarios.back().source +
                     ": has no task and expect: it is a mock scenario, not a certification scenario");
      read_checks(scenarios.back());  // refuse a scenario with bad checks before running anything
    }
  std::vector<ExpectedFailure> expected;
  if (vm.count("expected-failures")) expected = load_expected_failures(vm["expected-failures"].as<std::string>());
  const std::vector<std::string> required =
      vm.count("require-profile") ? required_profiles(vm["require-profile"].as<std::vector<std::string>>())
                                  : std::vector<std::string>{};
  const fs::path output = vm["output"].as<std::string>();
  std::error_code ec;
  fs::create_directories(output, ec);
  if (!fs::is_directory(output, ec)) {  // an output that cannot be written: incomplete, as everywhere
    std::cerr << "mcp-hints certify: cannot create the output folder " << visible(output.string())
              << (ec ? ": " + ec.message() : std::string()) << "\n";
    return incomplete;
  }

  // A scenario of one era asked for under the other alone would make no run at all.
  if (std::none_of(protocols.begin(), protocols.end(), [&](const std::string& protocol) {
        return std::any_of(scenarios.begin(), scenarios.end(),
                           [&](const mock::Scenario& s) { return applies_under(s, protocol); });
      }))
    return usage("no scenario given applies to protocol " + join(protocols, ", ") + " (" + scenarios.front().id +
                 " applies to the " + join(scenario_eras(scenarios.front()), " and ") + " era only)");
  HarnessOptions harness;
  std::string host_binary_version;
  if (host) {
    const std::string given = vm.count("host-bin") ? vm["host-bin"].as<std::string>() : "";
    const auto binary = find_host(*host, given);
    const std::string what = host->package.empty() ? "an executable file" : "the folder of " + host->package;
    if (!binary)
      return usage(!given.empty()
                       ? "--host-bin " + given + " is not " + what
                       : host->title + " (" + (host->package.empty() ? host->executable : host->package) +
                             ") is not on PATH: install it, or give --host-bin PATH (make hosts installs the pinned "
                             "version in hosts/node_modules)");
    const auto node = find_executable("node");
    if (!node) return usage("the " + host->title + " adapter runs on Node.js, and node is not on PATH");
    harness.client_command = host_client_command(*host, fs::absolute(output) / "hosts", *binary, *node);
    host_binary_version = host_version(*host, *binary);
    harness.scripted_model = true;
  } else {
    harness.client_command = vm["client"].as<std::string>();
    harness.scripted_model = vm.count("scripted-model") > 0;
  }
  harness.transport = transport;
  harness.mock_command = {fs::read_symlink("/proc/self/exe", ec).string(), "mock"};
  harness.work_dir = fs::absolute(output) / "scenarios";
  harness.timeout = timeout;

  Certification certification;
  certification.client_command = harness.client_command;
  if (host) certification.host = HostUnderTest{host->name, host->title, host_binary_version, host->limits};
  certification.transport = transport;
  certification.strict = vm.count("strict") > 0;
  certification.required_profiles = required;
  // A real host acts for one user: a gateway's scenarios are not its own, said and not run.
  if (host && host->one_user) {
    std::vector<mock::Scenario> own;
    for (auto& s : scenarios)
      if (s.document.contains("authorizations"))
        certification.not_run.push_back(s.id + ": " + host->title +
                                        " acts for the one user who runs it; the scenario needs a client that acts "
                                        "for several (authorization contexts)");
      else
        own.push_back(std::move(s));
    scenarios = std::move(own);
    if (scenarios.empty()) return usage("no scenario given applies to a host that acts for one user");
  }
  const auto started = std::chrono::steady_clock::now();
  {
    std::vector<RunRequest> requests;
    for (const auto& protocol : protocols) {
      harness.protocol = protocol;
      for (const auto& scenario : scenarios)
        if (applies_under(scenario, protocol))  // a scenario of one era has no run in the other
          requests.push_back({scenario, harness});
    }
    Progress progress;
    std::size_t started_runs = 0;
    const std::string total = std::to_string(requests.size());
    RunWatch watch;
    watch.started = [&](std::size_t index) {
      progress.show("certify: " + std::to_string(++started_runs) + "/" + total + " " + requests[index].scenario.id +
                    " (" + requests[index].options.protocol + ")");
    };
    // Each run's line as it ends, so a long run is never silent (a CI log shows it as it goes),
    // numbered by its place in the report, whichever order the runs end in. Where the text report
    // goes to a terminal it lists the runs itself: there the line is shown until the next replaces it.
    const bool report_on_terminal = format == "text" && isatty(STDOUT_FILENO);
    watch.ended = [&](std::size_t index, const ScenarioRun& run) {
      ScenarioRun shown = run;  // as the report will judge it: a required profile's misses count
      if (!required.empty()) require_profiles(shown, required);
      const std::string line = run_line(shown, index + 1, requests.size(), certification.strict);
      if (report_on_terminal)
        progress.show(line);
      else
        progress.line(line);
    };
    certification.runs = run_scenarios(requests, jobs, watch);
  }
  for (auto& run : certification.runs) require_profiles(run, required);
  certification.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  certification.list_problems = apply_expected_failures(expected, certification.runs, certification.strict);

  // Each file is tried even when another cannot be written; one that is not makes the run
  // incomplete, and the files that were written are written again to say so.
  const std::vector<std::pair<std::string, std::string (*)(const Certification&)>> outputs = {
      {"results.json", &results_text}, {"junit.xml", &certification_junit}, {"report.html", &certification_html}};
  std::vector<bool> written;
  std::vector<std::string> texts;  // each output as last written: the one asked for on stdout is the same
  for (const auto& [name, render] : outputs) {
    texts.push_back(render(certification));
    const auto problem = write_file(output / name, texts.back());
    if (problem) certification.run_problems.push_back(*problem);
    written.push_back(!problem);
  }
  if (vm.count("checks-dir")) {
    const fs::path checks_dir = vm["checks-dir"].as<std::string>();
    for (const auto& [run, checks] : certification_official_checks(certification, official_timestamp())) try {
        write_official_checks(checks_dir, run, checks);
      } catch (const OutputError& e) {
        certification.run_problems.push_back(e.what());
      }
  }
  if (!certification.run_problems.empty())
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      texts[i] = outputs[i].second(certification);
      if (written[i]) write_file(output / outputs[i].first, texts[i]);
    }
  if (format == "json")
    std::cout << texts[0];
  else if (format == "junit")
    std::cout << texts[1];
  else if (format == "markdown")
    std::cout << certification_markdown(certification);
  else if (format == "html")
    std::cout << texts[2];
  else {
    const bool paint =
        color == "always" || (color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr);
    std::cout << certification_text(certification, paint) << "results: " << (output / "results.json").string() << ", "
              << (output / "junit.xml").string() << ", " << (output / "report.html").string() << "\n";
  }
  std::cout.flush();
  if (certification.incomplete())
    std::cerr << "mcp-hints certify: the client could not be run: "
              << (certification.runs.front().notes.empty() ? "" : visible(certification.runs.front().notes.back()))
              << "\n";
  switch (certification.overall()) {
    case Overall::certified:
    case Overall::no_new_failure: return pass;
    case Overall::not_certified: return findings;
    case Overall::incomplete: return incomplete;
  }
  return incomplete;
}

}  // namespace mcp_hints::cli
