#pragma once
// The scripted model endpoint: what a real host (Claude Code, Codex, an Agents-SDK app) takes for
// its language model, so that the host runs a scenario's task offline and its own permission logic
// makes every decision. It speaks Anthropic Messages (JSON and SSE, count_tokens), OpenAI Responses
// and Chat Completions (JSON and SSE), and asks, one tool call a turn, for the task's calls in
// order, then ends with a text answer.
//
// The step due is read from the request itself: the number of tool results it carries (the call
// after that many calls whose tools the request offers). A host's
// side requests (titles, summaries, reviewers) carry none and offer no tools, so they use no step;
// two hosts' conversations never share a count. The conversation is named by the URL: a host given
// `BASE/c/2` as its endpoint speaks the task's second conversation (a task is cut into
// conversations at each `{"newSession": true}`).
//
// It does not judge: its record says what each request offered the model and what it was answered,
// and which of the task's calls it passed over because the host never offered their tool (a
// listing it rejected).
#include <cstddef>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::mock {

struct Scenario;

// One call the model asks for: `tool` on `server` with `arguments`, as the task lists it.
struct ModelCall {
  std::string server, tool;
  nlohmann::json arguments = nlohmann::json::object();
};

// A scenario's task cut into the host's conversations, at each {"newSession": true}; a call
// without a server is the only server's. Empty conversations are kept: the numbering follows the
// task.
std::vector<std::vector<ModelCall>> model_conversations(const Scenario& scenario);

// One request, as the record keeps it.
struct ModelExchange {
  double time = 0;               // Unix seconds, as every record of a run
  std::size_t conversation = 1;  // 1-based, from the URL
  std::string api;               // anthropic-messages, anthropic-count-tokens, openai-responses, openai-chat, models
  bool stream = false;           // answered as server-sent events
  std::vector<std::string> offered;  // the tools the request offered, as named there ("namespace/name" in a namespace)
  std::size_t results = 0;           // tool results the request carried: the step due
  // call (a tool call asked for), done (the task's text answer), side (no tools offered and no
  // results: a side request, answered with text), refused (a request that could not be read),
  // count (count_tokens), models (the model list)
  std::string answer;
  std::string server, tool, name;  // the call asked for, and the name it was asked for by
  // The task's calls before it (all of them, when done) whose tool the request did not offer: the
  // host rejected their listing. They are passed over; the task goes on with the rest.
  std::vector<std::pair<std::string, std::string>> not_offered;  // server, tool
  std::string detail;                                            // why a request was refused
};

nlohmann::json to_json(const ModelExchange& exchange);

class ScriptedModel {
 public:
  // `record`: a JSON-lines file every exchange is appended to (none when empty).
  explicit ScriptedModel(std::vector<std::vector<ModelCall>> conversations, const std::filesystem::path& record = {});

  // One HTTP request, its reply. Thread-safe: the front calls it from every connection's thread.
  HttpReply handle(const HttpRequestView& request);

  // The exchanges so far (the newest kKept in memory; the record keeps every one).
  std::vector<ModelExchange> exchanges() const;

  static constexpr std::size_t kKept = 10000;

 private:
  ModelExchange& remember(ModelExchange exchange);

  std::vector<std::vector<ModelCall>> conversations_;
  mutable std::mutex mutex_;
  std::vector<ModelExchange> exchanges_;
  std::ofstream record_;
  // Responses asked for by id (`previous_response_id`): the tool results their chain carried.
  std::map<std::string, std::size_t> chained_results_;
  std::deque<std::string> chained_order_;
  std::size_t answers_ = 0;
};

// Serves `model` on 127.0.0.1:`port` (0: a free one), prints its base URL as the first line of
// stdout and serves until SIGINT or SIGTERM. Returns the exit code.
int serve_model(ScriptedModel& model, int port, const HttpServerLimits& limits);

}  // namespace mcp_hints::mock
