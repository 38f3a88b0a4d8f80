// mcp-hints model: serve a scenario's task as a scripted language model, for a real host run
// offline against the mock servers.
#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/mock/model_endpoint.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const char* kHelp = R"(usage: mcp-hints model --scenario FILE|ID [OPTIONS]

Serves a scenario's task as a scripted language model on 127.0.0.1, so that a real host (Claude
Code, Codex, an Agents-SDK app) runs it offline against the scenario's mock servers and its own
permission logic makes every decision. It speaks Anthropic Messages (JSON and server-sent events,
count_tokens), OpenAI Responses and Chat Completions (JSON and server-sent events), and the model
list; a base URL with or without /v1 works.

Each answer asks for one tool call of the task, in order, then ends with a text answer. The call
due comes after as many calls as the request carries tool results, so a host's side requests
(titles, summaries) use none. The task is cut into conversations at each {"newSession": true}:
give the host BASE/c/N as its endpoint for the N-th (BASE alone is the first). A tool is found
among those the request offers by the host's name for it: mcp__SERVER__TOOL (Claude Code), a
namespace mcp__SERVER (Codex), mcp_SERVER__TOOL or the bare name (Agents SDK), any character
but letters, digits and '_' read as '_'. A call whose tool the request does not offer (a listing
the host rejected) is passed over and recorded; the task goes on with the rest.

options:
  --scenario FILE|ID     a scenario file, or the id of a built-in scenario (mcp-hints mock --list)
  --port N               the port on 127.0.0.1 (default 0: a free one); the base URL is printed as
                         the first line of stdout
  --record PATH          append every exchange to PATH as JSON lines: the conversation, the API,
                         the tools offered, the tool results carried, the answer (call, done,
                         side, refused) and the calls passed over as not offered (notOffered)
  --max-body N           longest request body accepted, in bytes (default 16777216); 413
  -h, --help             this text

exit codes: 0 a signal ended the endpoint, 2 usage error, a scenario that is not valid or a port
that cannot be opened, 3 a record that cannot be written.
)";

}  // namespace

int model_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("scenario", po::value<std::string>(), "")(
      "port", po::value<Port>()->default_value(Port(0), "0"), "")("record", po::value<std::string>(), "")(
      "max-body", po::value<Count>()->default_value(Count(std::size_t{16} << 20), "16777216"), "");
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm)) return *exit;
  if (!vm.count("scenario")) return usage_error("model", "--scenario FILE|ID is required (try mcp-hints mock --list)");
  // A scenario that cannot be used, or a record file that cannot be opened, is an Error: main says it.
  const auto scenario = mock::load_scenario(vm["scenario"].as<std::string>());
  mock::ScriptedModel model(mock::model_conversations(scenario),
                            vm.count("record") ? vm["record"].as<std::string>() : std::string());
  HttpServerLimits limits;
  limits.max_body = vm["max-body"].as<Count>().value;
  return mock::serve_model(model, static_cast<int>(vm["port"].as<Port>().value), limits);
}

}  // namespace mcp_hints::cli
