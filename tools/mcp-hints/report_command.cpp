// mcp-hints report: the safety table of a catalog, in Markdown or HTML.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "mcp_hints/report/safety_table.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const char* kHelp = R"(usage: mcp-hints report FILE [--format text|markdown|html] [--output PATH] [--infer]
                         [--spec-revision REV] [--vocab NAME@REV ...] [--jobs N]

The safety table of a saved tools/list (proposal 1's "documentation generators producing safety
tables"): one row per tool with its effect, confirmation, idempotency, result sensitivity,
destination, risk and agency. Each value is what a careful client acts on — the most cautious
hint of any vocabulary, or the specification's default where none says anything — with the keys
that say it; the tool's lint findings are inline.

options:
  --format F             text (default: a block per tool, for a terminal), markdown or html
  --output PATH          write the table to PATH instead of standard output
  --infer                where no hint says anything, show what the tool's name and input schema
                         suggest (as 'mcp-hints infer' does), marked inferred with the evidence
  --spec-revision REV    2025-06-18, 2025-11-25 (default) or 2026-07-28
  --vocab NAME@REV       pin a vocabulary revision, as for lint
  --jobs N               threads that make the rows while the file is read (default: the
                         machine's cores); the table does not change
  --fail-on LEVEL        error, warning (default), info or never: the lowest finding level that
                         fails the run, as for lint
  --strict               same as --fail-on warning (the default)
  -h, --help             this text

exit codes: 0 the table was written and no finding is at the fail-on level, 1 the table was written
and a finding is at or above it, 2 usage error or bad input, 3 the output could not be written.
)";

}  // namespace

int report_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("format", po::value<std::string>()->default_value("text"), "")(
      "output", po::value<std::string>(), "")(
      "spec-revision", po::value<std::string>()->default_value(std::string(kDefaultSpecRevision)), "")(
      "vocab", po::value<std::vector<std::string>>()->composing(), "")("infer", "")(
      "jobs", po::value<Jobs>()->default_value(Jobs(), ""), "")("file", po::value<std::vector<std::string>>(), "");
  add_fail_on_options(options);
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm, "file")) return *exit;
  auto usage = [](const std::string& why) { return usage_error("report", why); };
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "markdown" && format != "html")
    return usage("unknown --format '" + format + "' (text, markdown, html)");
  const auto fail_on = read_fail_on(vm, "report");
  if (!fail_on) return bad_input;
  LintOptions lint;
  lint.spec_revision = vm["spec-revision"].as<std::string>();
  if (vm.count("vocab")) lint.pinned = vm["vocab"].as<std::vector<std::string>>();
  lint.jobs = vm["jobs"].as<Jobs>().value;
  const auto input = open_single_catalog(vm, "report");
  if (!input) return bad_input;
  const std::string& file = input->file;
  // Each tool's row is written as it is read (to disk until the head, which counts them); the
  // table reaches its file, or standard output, only once the whole catalog was read.
  SafetyTableWriter writer(format == "html"       ? SafetyTableWriter::Format::html
                           : format == "markdown" ? SafetyTableWriter::Format::markdown
                                                  : SafetyTableWriter::Format::text);
  try {
    for_each_safety_row(input->get(), file, lint, vm.count("infer") > 0, [&](SafetyRow&& row) { writer.add(row); });
  } catch (const OptionError& e) {
    return option_error("report", e, kLintOptionFlags);
  } catch (const InputError& e) {
    return input_error("report", file, e);
  }
  if (vm.count("output"))  // OutputError: main says it, exit 3
    write_file_atomically(vm["output"].as<std::string>(), [&](std::ostream& out) {
      writer.finish(out, file, lint.spec_revision, vm.count("infer") > 0);
    });
  else
    writer.finish(std::cout, file, lint.spec_revision, vm.count("infer") > 0);  // a failed write: main says it, exit 3
  const bool fails = *fail_on && writer.fails_at(**fail_on);
  return fails ? findings : pass;
}

}  // namespace mcp_hints::cli
