#include "mcp_hints/report/official_checks.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/report/output_file.hpp"

namespace mcp_hints {

std::string official_timestamp() {
  const auto now = std::chrono::system_clock::now();
  const auto seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  char out[40];
  std::snprintf(out, sizeof out, "%s.%03dZ", text, static_cast<int>(millis));
  return out;
}

std::string official_name(std::string_view id) {
  std::string name;
  bool upper = true;
  for (char c : id) {
    if (c == '.' || c == '-' || c == '_' || c == '@' || c == ':' || c == '/') {
      upper = true;
      continue;
    }
    name += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return name;
}

nlohmann::ordered_json official_checks_json(const std::vector<OfficialCheck>& checks) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& check : checks) {
    nlohmann::ordered_json entry = {{"id", check.id},
                                    {"name", check.name},
                                    {"description", check.description},
                                    {"status", check.status},
                                    {"timestamp", check.timestamp}};
    if (!check.spec_references.empty()) {
      entry["specReferences"] = nlohmann::ordered_json::array();
      for (const auto& reference : check.spec_references) entry["specReferences"].push_back({{"id", reference}});
    }
    if (!check.details.is_null()) entry["details"] = nlohmann::ordered_json(check.details);
    if (!check.error_message.empty()) entry["errorMessage"] = check.error_message;
    out.push_back(std::move(entry));
  }
  return out;
}

namespace {

std::string_view status_of(Level level) {
  switch (level) {
    case Level::error: return "FAILURE";
    case Level::warning: return "WARNING";
    case Level::info: return "INFO";
  }
  return "FAILURE";
}

}  // namespace

std::vector<OfficialCheck> official_checks(const LintReport& report, const std::string& timestamp) {
  // Copies: the report's findings may be on disk (the details hold them all anyway).
  std::map<std::string, std::vector<Finding>, std::less<>> by_check;
  for (const auto& finding : report.findings) by_check[finding.check].push_back(finding);
  const bool unproven = report.incomplete.has_value() || report.has_input_error();
  std::vector<OfficialCheck> out;
  for (const auto& info : all_checks()) {
    OfficialCheck check{
        std::string(info.id), official_name(info.id), std::string(info.summary), "SUCCESS", timestamp, {}, nullptr, {}};
    if (!info.proposal.empty()) check.spec_references.emplace_back(info.proposal);
    const auto found = by_check.find(info.id);
    const bool ran = info.scope == Scope::tool     ? true
                     : info.scope == Scope::server ? report.server_checks_ran
                                                   : report.suppressions_applied;
    if (found == by_check.end()) {
      if (!ran)
        check.status = "SKIPPED";
      else if (unproven && info.scope != Scope::run)
        check.status = "SKIPPED", check.error_message = "not known to have run: the run was incomplete";
      out.push_back(std::move(check));
      continue;
    }
    std::optional<Level> worst;
    auto findings = nlohmann::json::array();
    for (const Finding& finding : found->second) {
      findings.push_back({{"level", level_name(finding.level)},
                          {"file", finding.file},
                          {"tool", finding.tool},
                          {"pointer", finding.pointer},
                          {"line", finding.line},
                          {"message", finding.message},
                          {"suppressed", finding.suppressed()}});
      if (finding.suppressed()) continue;
      if (!worst || *worst < finding.level) worst = finding.level;
      if (!check.error_message.empty()) check.error_message += "; ";
      check.error_message += (finding.tool.empty() ? "" : finding.tool + ": ") + finding.message;
    }
    if (worst) check.status = status_of(*worst);
    check.details = {{"findings", std::move(findings)}};
    out.push_back(std::move(check));
  }
  auto problem = [&](const std::string& id, const std::string& description, const std::string& why) {
    out.push_back({id, official_name(id), description, "FAILURE", timestamp, {}, nullptr, why});
  };
  for (const auto& file : report.files)
    if (file.error)
      problem("run.input-error", "the input could be read as a tool list", file.file + ": " + *file.error);
  if (report.incomplete) problem("run.incomplete", "the run finished", *report.incomplete);
  return out;
}

void write_official_checks(const std::filesystem::path& dir, const std::string& scenario,
                           const std::vector<OfficialCheck>& checks) {
  std::error_code ec;
  std::filesystem::create_directories(dir / scenario, ec);
  if (ec) throw OutputError((dir / scenario).string() + ": " + ec.message());
  write_file_atomically(dir / scenario / "checks.json", official_checks_json(checks).dump(2) + "\n");
}

}  // namespace mcp_hints
