#include "mcp_hints/conformance/expected_failures.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"

namespace mcp_hints::conformance {

std::vector<ExpectedFailure> load_expected_failures(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  // Read within the limit whatever the file's size says (it may grow while read).
  std::string text(kMaxExpectedFailuresBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxExpectedFailuresBytes)
    throw InputError(path + ": larger than the limit of " + std::to_string(kMaxExpectedFailuresBytes) + " bytes");
  std::vector<ExpectedFailure> entries;
  std::size_t number = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (number > kMaxExpectedFailuresLines)
      throw InputError(path + ": more than " + std::to_string(kMaxExpectedFailuresLines) + " lines");
    if (line.size() > kMaxExpectedFailuresLine)
      throw InputError(path + ":" + std::to_string(number) + ": a line longer than the limit of " +
                       std::to_string(kMaxExpectedFailuresLine) + " bytes");
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    const auto end = line.find_first_of(" \t", start);
    const std::string name = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string reason = end == std::string::npos ? "" : line.substr(end);
    reason.erase(0, reason.find_first_not_of(" \t"));
    while (!reason.empty() && (reason.back() == '\r' || reason.back() == ' ')) reason.pop_back();
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (reason.empty()) throw InputError(where + "'" + name + "' has no reason (write one after the name)");
    ExpectedFailure entry;
    const auto colon = name.find(':');
    entry.scenario = name.substr(0, colon);
    if (colon != std::string::npos) entry.check = name.substr(colon + 1);
    if (entry.scenario.empty() || (colon != std::string::npos && entry.check.empty()))
      throw InputError(where + "'" + name + "' is not SCENARIO or SCENARIO:CHECK");
    entry.reason = reason;
    entry.line = number;
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<std::string> apply_expected_failures(const std::vector<ExpectedFailure>& entries,
                                                 std::vector<ScenarioRun>& runs, bool strict) {
  std::vector<std::string> problems;
  // The certification scenarios' ids, gathered once and only when an entry needs them: generating
  // the scenarios validates each, so doing it per entry made a list of typos cost seconds a line.
  std::vector<std::string> known;
  const auto unspoken = unspoken_protocols(runs);
  for (const auto& entry : entries) {
    const std::string name = entry.scenario + (entry.check.empty() ? "" : ":" + entry.check);
    const std::string where = " (line " + std::to_string(entry.line) + "): ";
    // An entry for a certification scenario this run did not include waits for a run that does;
    // one that names no scenario at all is a typo.
    if (std::none_of(runs.begin(), runs.end(), [&](const ScenarioRun& r) { return r.scenario.id == entry.scenario; })) {
      if (known.empty())
        for (const auto& s : certification_scenarios()) known.push_back(s.id);
      std::vector<std::string> ids = known;
      for (const auto& r : runs) ids.push_back(r.scenario.id);
      if (std::find(ids.begin(), ids.end(), entry.scenario) == ids.end())
        problems.push_back("expected failure " + name + where + "no such scenario" + did_you_mean(entry.scenario, ids));
      continue;
    }
    for (auto& run : runs) {
      // A run of an era the client does not speak says nothing of it: no entry is stale there.
      if (run.scenario.id != entry.scenario || unspoken.count(run.protocol)) continue;
      bool named = entry.check.empty(), failing = run.could_not_run;
      for (auto& check : run.checks) {
        if (!entry.check.empty() && check.spec.id != entry.check) continue;
        named = true;
        if (blocks(check.verdict, strict)) {
          check.expected_failure = true;
          failing = true;
        }
      }
      if (!named) {
        std::vector<std::string> checks;
        for (const auto& check : run.checks) checks.push_back(check.spec.id);
        problems.push_back("expected failure " + name + where + "the scenario has no such check" +
                           did_you_mean(entry.check, checks));
      } else if (!failing) {
        problems.push_back("stale expected failure " + name + where + "it passes now; remove it");
      }
    }
  }
  return problems;
}

}  // namespace mcp_hints::conformance
