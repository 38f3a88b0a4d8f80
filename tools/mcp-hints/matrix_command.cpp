// mcp-hints matrix: the certify --host reports of several real hosts as one page.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/conformance/host_matrix.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const char* kHelp = R"(usage: mcp-hints matrix RESULTS.json... [--format markdown|html] [--output PATH]
                         [--date YYYY-MM-DD]

The host matrix: the results.json of `certify --host` for several real hosts, side by side, as
one page — each host's version, its tier in each protocol era, what it does with each proposal
(its behaviour profile), and every scenario's verdict per host and era. `make hosts-matrix`
certifies every pinned host and writes docs/hosts-matrix.md and .html with it. It reads reports;
it runs and judges nothing.

options:
  --format F       markdown (default) or html (one self-contained page, readable at phone width)
  --output PATH    write the page to PATH instead of standard output
  --date D         the day the page says it was made (default: today, UTC), so that the same
                   reports give the same page
  -h, --help       this text

exit codes: 0 the page was written, 2 usage error or a file that is not a certify --host report,
3 the page could not be written.
)";

constexpr std::size_t kMaxReportBytes = std::size_t{256} << 20;

std::string today() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
  return text;
}

bool is_date(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != 4 && i != 7 && (text[i] < '0' || text[i] > '9')) return false;
  return true;
}

}  // namespace

int matrix_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("format", po::value<std::string>()->default_value("markdown"), "")(
      "output", po::value<std::string>(), "")("date", po::value<std::string>(), "")(
      "file", po::value<std::vector<std::string>>(), "");
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm, "file")) return *exit;
  auto usage = [](const std::string& why) { return usage_error("matrix", why); };
  const std::string format = vm["format"].as<std::string>();
  if (format != "markdown" && format != "html") return usage("unknown --format '" + format + "' (markdown, html)");
  const std::string date = vm.count("date") ? vm["date"].as<std::string>() : today();
  if (!is_date(date)) return usage("--date takes YYYY-MM-DD, not '" + date + "'");
  if (!vm.count("file")) return usage("give the results.json of one certify --host run or more");
  const auto files = vm["file"].as<std::vector<std::string>>();
  InputLimits limits;
  limits.max_bytes = kMaxReportBytes;
  std::vector<nlohmann::json> reports;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "mcp-hints matrix: " << file << ": cannot open\n";
      return bad_input;
    }
    try {
      reports.push_back(parse_json(read_text(in, limits), limits));
    } catch (const InputError& e) {
      return input_error("matrix", file, e);
    }
  }
  const auto matrix = conformance::host_matrix(std::move(reports), files, date);  // Error: main says it
  const std::string page =
      format == "html" ? conformance::host_matrix_html(matrix) : conformance::host_matrix_markdown(matrix);
  if (vm.count("output"))  // OutputError: main says it, exit 3
    write_file_atomically(vm["output"].as<std::string>(), [&](std::ostream& out) { out << page; });
  else
    std::cout << page;
  return pass;
}

}  // namespace mcp_hints::cli
