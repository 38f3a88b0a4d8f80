#include "mcp_hints/conformance/host_matrix.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/html.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

// One column of the scenario table: a host in one protocol era.
struct Column {
  const json* report;
  std::string title, protocol, tier;
};

std::vector<Column> columns_of(const HostMatrix& matrix) {
  std::vector<Column> columns;
  for (const auto& report : matrix.reports)
    for (const auto& era : report["eras"])
      columns.push_back({&report, report["host"]["title"].get<std::string>(), era["protocol"].get<std::string>(),
                         era["tier"].get<std::string>()});
  return columns;
}

// Every scenario id of any report, run or not run, sorted: the page does not depend on the order
// the runs ended in.
std::vector<std::string> scenario_ids(const HostMatrix& matrix) {
  std::set<std::string> ids;
  for (const auto& report : matrix.reports) {
    for (const auto& run : report["scenarios"]) ids.insert(run["id"].get<std::string>());
    for (const auto& line : report.value("notRun", json::array())) {
      const std::string text = line.get<std::string>();
      ids.insert(text.substr(0, text.find(':')));
    }
  }
  return {ids.begin(), ids.end()};
}

// The verdict of scenario `id` in a column: its run's, "not run" when the host was not given it,
// "" when the scenario has no run in that era.
std::string cell(const Column& column, const std::string& id) {
  for (const auto& run : (*column.report)["scenarios"])
    if (run["id"] == id && run["protocol"] == column.protocol) return run["verdict"].get<std::string>();
  for (const auto& line : column.report->value("notRun", json::array()))
    if (line.get<std::string>().rfind(id + ":", 0) == 0) return "not run";
  return "";
}

// Each profile id, in the order of the first report, with its title.
std::vector<std::pair<std::string, std::string>> profile_rows(const HostMatrix& matrix) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& report : matrix.reports)
    for (const auto& profile : report["profiles"])
      if (std::none_of(rows.begin(), rows.end(),
                       [&](const auto& r) { return r.first == profile["id"].get<std::string>(); }))
        rows.emplace_back(profile["id"].get<std::string>(), profile["title"].get<std::string>());
  return rows;
}

// "partial 37/53", or "" when the report has no such profile.
std::string profile_cell(const json& report, const std::string& id) {
  for (const auto& profile : report["profiles"])
    if (profile["id"] == id)
      return profile["status"].get<std::string>() + " " + std::to_string(profile["held"].get<std::size_t>()) + "/" +
             std::to_string(profile["total"].get<std::size_t>());
  return "";
}

std::vector<std::string> protocols_of(const HostMatrix& matrix) {
  std::vector<std::string> protocols;
  for (const auto& report : matrix.reports)
    for (const auto& era : report["eras"])
      if (std::find(protocols.begin(), protocols.end(), era["protocol"].get<std::string>()) == protocols.end())
        protocols.push_back(era["protocol"].get<std::string>());
  return protocols;
}

std::string tier_cell(const json& report, const std::string& protocol) {
  for (const auto& era : report["eras"])
    if (era["protocol"] == protocol) return era["tier"].get<std::string>();
  return "not run";
}

std::string host_title(const json& report) { return report["host"]["title"].get<std::string>(); }

// The table texts every format shares, as plain text: headers and rows.
struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

Table hosts_table(const HostMatrix& matrix) {
  Table t{{"host", "version", "transport", "runs", "seconds", "what its adapter cannot see"}, {}};
  for (const auto& report : matrix.reports) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.0f", report["seconds"].get<double>());
    t.rows.push_back({host_title(report), report["host"]["version"].get<std::string>(),
                      report["transport"].get<std::string>(), std::to_string(report["scenarios"].size()), seconds,
                      report["host"]["limits"].get<std::string>()});
  }
  return t;
}

Table tiers_table(const HostMatrix& matrix) {
  Table t{{"protocol revision"}, {}};
  for (const auto& report : matrix.reports) t.headers.push_back(host_title(report));
  for (const auto& protocol : protocols_of(matrix)) {
    std::vector<std::string> row = {protocol};
    for (const auto& report : matrix.reports) row.push_back(tier_cell(report, protocol));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table profiles_table(const HostMatrix& matrix) {
  Table t{{"proposal"}, {}};
  for (const auto& report : matrix.reports) t.headers.push_back(host_title(report));
  for (const auto& [id, title] : profile_rows(matrix)) {
    std::vector<std::string> row = {title};
    for (const auto& report : matrix.reports) row.push_back(profile_cell(report, id));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table scenarios_table(const HostMatrix& matrix) {
  const auto columns = columns_of(matrix);
  Table t{{"scenario"}, {}};
  for (const auto& c : columns) t.headers.push_back(c.title + " " + c.protocol);
  for (const auto& id : scenario_ids(matrix)) {
    std::vector<std::string> row = {id};
    for (const auto& c : columns) row.push_back(cell(c, id));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string intro(const HostMatrix& matrix) {
  std::vector<std::string> hosts;
  for (const auto& report : matrix.reports)
    hosts.push_back(host_title(report) + " " + report["host"]["version"].get<std::string>());
  return "Made on " + matrix.date + " with mcp-hints " + matrix.reports.front()["version"].get<std::string>() +
         " from the certification reports of the real hosts " + join(hosts, ", ") +
         " (make hosts-matrix). Each host ran every scenario offline, its model a scripted endpoint that asks for "
         "the scenario's calls; the host's own permission logic decided every call, and a scripted user answered "
         "its prompts. Tiers judge the specification's checks only; the profiles say what a host does with each "
         "proposal's hints and decide no tier.";
}

// What a cell of the scenario table says.
std::string legend() {
  return "A cell is the run's verdict: pass, warning (a SHOULD missed), info (a MAY, or an optional hint unused), "
         "fail (a MUST broken), not testable, not applicable (none of the scenario's own checks applied to what the "
         "host did: a host that declares no elicitation, say, is never asked for input), not spoken (the host does "
         "not speak that era), not run (the scenario does not apply to a host: several users), or empty (the "
         "scenario has no run in that era).";
}

std::string markdown_table(const Table& t) {
  std::string out = "|";
  for (const auto& h : t.headers) out += " " + markdown_cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.headers.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& c : row) out += " " + markdown_cell(c) + " |";
    out += "\n";
  }
  return out;
}

std::string html_of(const Table& t, std::string_view caption, bool verdict_classes) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string text = html_escape(row[i]);
      if (!verdict_classes || i == 0) {
        cells.push_back(text);
        continue;
      }
      std::string css = row[i];
      std::replace(css.begin(), css.end(), ' ', '-');
      cells.push_back(row[i].empty() ? "" : "<span class=\"v-" + html_escape(css) + "\">" + text + "</span>");
    }
    rows.push_back(std::move(cells));
  }
  return html_table(caption, t.headers, rows);
}

}  // namespace

HostMatrix host_matrix(std::vector<json> reports, const std::vector<std::string>& sources, std::string date) {
  if (reports.empty()) throw Error(Error::Category::bad_input, "the host matrix needs at least one report");
  std::set<std::string> names;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const std::string source = i < sources.size() ? sources[i] : "report " + std::to_string(i + 1);
    const auto violations = published_schemas().validate("certify-report.schema.json", reports[i]);
    if (!violations.empty())
      throw Error(Error::Category::bad_input, source + ": not a certify report (certify-report.schema.json: " +
                                                  violations.front().pointer + " " + violations.front().message + ")");
    if (!reports[i].contains("host"))
      throw Error(Error::Category::bad_input,
                  source +
                      ": the certification of a client, not of a real host (it names no host): the matrix compares "
                      "real hosts");
    if (!names.insert(reports[i]["host"]["name"].get<std::string>()).second)
      throw Error(Error::Category::bad_input,
                  source + ": a second report of host " + reports[i]["host"]["name"].get<std::string>());
  }
  return {std::move(reports), std::move(date)};
}

std::string host_matrix_markdown(const HostMatrix& matrix) {
  return "# Which hosts honour which hints\n\n" + intro(matrix) + "\n\n## Hosts\n\n" +
         markdown_table(hosts_table(matrix)) + "\n## Tiers, per protocol revision\n\n" +
         markdown_table(tiers_table(matrix)) + "\n## What each host does with each proposal\n\n" +
         markdown_table(profiles_table(matrix)) + "\n## Scenarios\n\n" + legend() + "\n\n" +
         markdown_table(scenarios_table(matrix));
}

std::string host_matrix_html(const HostMatrix& matrix) {
  const std::string body = "<h1>Which hosts honour which hints</h1>\n<p>" + html_escape(intro(matrix)) + "</p>\n" +
                           html_of(hosts_table(matrix), "Hosts", false) +
                           html_of(tiers_table(matrix), "Tiers, per protocol revision", false) +
                           html_of(profiles_table(matrix), "What each host does with each proposal", false) +
                           "<h2>Scenarios</h2>\n<p>" + html_escape(legend()) + "</p>\n" +
                           html_of(scenarios_table(matrix), "Every scenario, per host and era", true);
  return html_page(
      "Which hosts honour which hints", body,
      ".v-pass{color:#1a7f37}.v-fail,.v-not-testable{color:#cf222e;font-weight:bold}"
      ".v-warning{color:#9a6700}.v-info,.v-not-spoken,.v-not-run,.v-not-applicable,.v-expected-failure{color:#57606a}");
}

}  // namespace mcp_hints::conformance
