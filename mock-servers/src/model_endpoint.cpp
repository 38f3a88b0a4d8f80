#include "mcp_hints/mock/model_endpoint.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <utility>

#include "http_front.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;

namespace {

constexpr const char* kModel = "mcp-hints-scripted";
constexpr const char* kDoneText = "The task is done.";

// JSON text of a value that may hold bytes a host sent that are not UTF-8 (a path, a method):
// replaced, never thrown over.
std::string text_of(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// A name as hosts make tool names of server and tool names: every character that is not a letter,
// a digit or '_' becomes '_' (Claude Code's mcp__SERVER__TOOL, Codex's '-' rewritten '_').
std::string host_safe(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) c = '_';
  return out;
}

// A tool as a request offers it: its name, and the namespace it stands in (Codex), if any.
struct OfferedTool {
  std::string ns, name;
  std::string label() const { return ns.empty() ? name : ns + "/" + name; }
};

// How well an offered tool names `call`: 3 server and tool in one name (mcp__S__T, S__T, and the
// Agents SDK's mcp_S__T), 2 a
// namespace of the server holding the tool, 1 the tool's bare name, 0 not at all.
int match(const OfferedTool& offered, const ModelCall& call) {
  const std::string server = host_safe(call.server), tool = host_safe(call.tool);
  const std::string name = host_safe(offered.name);
  if (!offered.ns.empty()) {
    const std::string ns = host_safe(offered.ns);
    return (ns == "mcp__" + server || ns == server) && name == tool ? 2 : 0;
  }
  if (name == "mcp__" + server + "__" + tool || name == "mcp_" + server + "__" + tool || name == server + "__" + tool)
    return 3;
  return name == tool ? 1 : 0;
}

// The best-named offered tool for `call`, if any.
std::optional<OfferedTool> find_offered(const std::vector<OfferedTool>& offered, const ModelCall& call) {
  std::optional<OfferedTool> best;
  int best_score = 0;
  for (const auto& tool : offered)
    if (const int score = match(tool, call); score > best_score) {
      best = tool;
      best_score = score;
    }
  return best;
}

// The tools of an Anthropic request ({name}), of a Responses request ({type: function, name} or
// {type: namespace, name, tools: [...]}) or of a Chat request ({type: function, function: {name}}).
std::vector<OfferedTool> offered_tools(const json& body) {
  std::vector<OfferedTool> tools;
  const json offered = body.is_object() ? body.value("tools", json::array()) : json::array();
  if (!offered.is_array()) return tools;
  for (const auto& tool : offered) {
    if (!tool.is_object()) continue;
    if (tool.contains("function") && tool["function"].is_object() && tool["function"].contains("name") &&
        tool["function"]["name"].is_string()) {
      tools.push_back({"", tool["function"]["name"]});
      continue;
    }
    if (!tool.contains("name") || !tool["name"].is_string()) continue;
    if (tool.value("type", json()) == "namespace" && tool.contains("tools") && tool["tools"].is_array()) {
      for (const auto& inner : tool["tools"])
        if (inner.is_object() && inner.contains("name") && inner["name"].is_string())
          tools.push_back({tool["name"], inner["name"]});
      continue;
    }
    tools.push_back({"", tool["name"]});
  }
  return tools;
}

// How many tool results the request's conversation carries, by API.
std::size_t anthropic_results(const json& body) {
  std::size_t n = 0;
  const json messages = body.value("messages", json::array());
  if (!messages.is_array()) return 0;
  for (const auto& message : messages)
    if (message.is_object() && message.contains("content") && message["content"].is_array())
      for (const auto& block : message["content"])
        n += block.is_object() && block.value("type", json()) == "tool_result" ? 1 : 0;
  return n;
}

std::size_t responses_results(const json& body) {
  std::size_t n = 0;
  const json input = body.value("input", json::array());
  if (!input.is_array()) return 0;
  for (const auto& item : input)
    if (item.is_object()) {
      const json type = item.value("type", json());
      n += type == "function_call_output" || type == "custom_tool_call_output" ? 1 : 0;
    }
  return n;
}

std::size_t chat_results(const json& body) {
  std::size_t n = 0;
  const json messages = body.value("messages", json::array());
  if (!messages.is_array()) return 0;
  for (const auto& message : messages) n += message.is_object() && message.value("role", json()) == "tool" ? 1 : 0;
  return n;
}

// Server-sent events: each `data` line is one JSON text, with its event name where the API names one.
void add_event(std::string& out, const std::string& event, const json& data) {
  if (!event.empty()) out += "event: " + event + "\n";
  out += "data: " + text_of(data) + "\n\n";
}

HttpReply json_reply(int status, const json& body) {
  HttpReply reply;
  reply.status = status;
  reply.body = text_of(body);
  return reply;
}

HttpReply sse_reply(std::string body) {
  HttpReply reply;
  reply.content_type = "text/event-stream";
  reply.headers = {{"Cache-Control", "no-cache"}};
  reply.body = std::move(body);
  return reply;
}

// What the model says in one turn: a tool call, or a text.
struct Turn {
  std::optional<OfferedTool> call;
  json arguments;
  std::string text;
  std::string id;  // unique within the endpoint
};

HttpReply anthropic_answer(const Turn& turn, bool stream) {
  const std::string message_id = "msg_" + turn.id;
  json block =
      turn.call
          ? json{{"type", "tool_use"}, {"id", "toolu_" + turn.id}, {"name", turn.call->name}, {"input", turn.arguments}}
          : json{{"type", "text"}, {"text", turn.text}};
  const std::string stop = turn.call ? "tool_use" : "end_turn";
  const json usage = {{"input_tokens", 1}, {"output_tokens", 1}};
  if (!stream)
    return json_reply(200, {{"id", message_id},
                            {"type", "message"},
                            {"role", "assistant"},
                            {"model", kModel},
                            {"content", json::array({block})},
                            {"stop_reason", stop},
                            {"stop_sequence", nullptr},
                            {"usage", usage}});
  std::string out;
  add_event(out, "message_start",
            {{"type", "message_start"},
             {"message",
              {{"id", message_id},
               {"type", "message"},
               {"role", "assistant"},
               {"model", kModel},
               {"content", json::array()},
               {"stop_reason", nullptr},
               {"stop_sequence", nullptr},
               {"usage", usage}}}});
  json start = block, delta;
  if (turn.call) {
    start["input"] = json::object();
    delta = {{"type", "input_json_delta"}, {"partial_json", text_of(turn.arguments)}};
  } else {
    start["text"] = "";
    delta = {{"type", "text_delta"}, {"text", turn.text}};
  }
  add_event(out, "content_block_start", {{"type", "content_block_start"}, {"index", 0}, {"content_block", start}});
  add_event(out, "content_block_delta", {{"type", "content_block_delta"}, {"index", 0}, {"delta", delta}});
  add_event(out, "content_block_stop", {{"type", "content_block_stop"}, {"index", 0}});
  add_event(out, "message_delta",
            {{"type", "message_delta"},
             {"delta", {{"stop_reason", stop}, {"stop_sequence", nullptr}}},
             {"usage", {{"output_tokens", 1}}}});
  add_event(out, "message_stop", {{"type", "message_stop"}});
  return sse_reply(std::move(out));
}

HttpReply responses_answer(const Turn& turn, bool stream) {
  const std::string response_id = "resp_" + turn.id;
  json item;
  if (turn.call) {
    item = {{"type", "function_call"},
            {"id", "fc_" + turn.id},
            {"call_id", "call_" + turn.id},
            {"name", turn.call->name},
            {"arguments", text_of(turn.arguments)},
            {"status", "completed"}};
    if (!turn.call->ns.empty()) item["namespace"] = turn.call->ns;
  } else {
    item = {{"type", "message"},
            {"id", "msg_" + turn.id},
            {"role", "assistant"},
            {"status", "completed"},
            {"content", json::array({{{"type", "output_text"}, {"text", turn.text}, {"annotations", json::array()}}})}};
  }
  const json usage = {{"input_tokens", 1},
                      {"input_tokens_details", {{"cached_tokens", 0}}},
                      {"output_tokens", 1},
                      {"output_tokens_details", {{"reasoning_tokens", 0}}},
                      {"total_tokens", 2}};
  json response = {{"id", response_id}, {"object", "response"},  {"created_at", static_cast<long long>(unix_now())},
                   {"model", kModel},   {"status", "completed"}, {"output", json::array({item})},
                   {"usage", usage}};
  if (!stream) return json_reply(200, response);
  std::string out;
  int sequence = 0;
  const auto event = [&](const std::string& type, json data) {
    data["type"] = type;
    data["sequence_number"] = sequence++;
    add_event(out, type, data);
  };
  json in_progress = response;
  in_progress["status"] = "in_progress";
  in_progress["output"] = json::array();
  in_progress.erase("usage");
  event("response.created", {{"response", in_progress}});
  event("response.in_progress", {{"response", in_progress}});
  json added = item;
  added["status"] = "in_progress";
  if (turn.call) {
    added["arguments"] = "";
    event("response.output_item.added", {{"output_index", 0}, {"item", added}});
    event("response.function_call_arguments.delta",
          {{"item_id", item["id"]}, {"output_index", 0}, {"delta", item["arguments"]}});
    event("response.function_call_arguments.done",
          {{"item_id", item["id"]}, {"output_index", 0}, {"arguments", item["arguments"]}});
  } else {
    added["content"] = json::array();
    event("response.output_item.added", {{"output_index", 0}, {"item", added}});
    const json part = {{"type", "output_text"}, {"text", ""}, {"annotations", json::array()}};
    event("response.content_part.added",
          {{"item_id", item["id"]}, {"output_index", 0}, {"content_index", 0}, {"part", part}});
    event("response.output_text.delta",
          {{"item_id", item["id"]}, {"output_index", 0}, {"content_index", 0}, {"delta", turn.text}});
    event("response.output_text.done",
          {{"item_id", item["id"]}, {"output_index", 0}, {"content_index", 0}, {"text", turn.text}});
    event("response.content_part.done",
          {{"item_id", item["id"]}, {"output_index", 0}, {"content_index", 0}, {"part", item["content"][0]}});
  }
  event("response.output_item.done", {{"output_index", 0}, {"item", item}});
  event("response.completed", {{"response", response}});
  return sse_reply(std::move(out));
}

HttpReply chat_answer(const Turn& turn, bool stream) {
  const std::string id = "chatcmpl_" + turn.id;
  const long long created = static_cast<long long>(unix_now());
  json message = {{"role", "assistant"}, {"content", turn.call ? json() : json(turn.text)}};
  if (turn.call)
    message["tool_calls"] =
        json::array({{{"id", "call_" + turn.id},
                      {"type", "function"},
                      {"function", {{"name", turn.call->name}, {"arguments", text_of(turn.arguments)}}}}});
  const std::string finish = turn.call ? "tool_calls" : "stop";
  const json usage = {{"prompt_tokens", 1}, {"completion_tokens", 1}, {"total_tokens", 2}};
  if (!stream)
    return json_reply(200, {{"id", id},
                            {"object", "chat.completion"},
                            {"created", created},
                            {"model", kModel},
                            {"choices", json::array({{{"index", 0}, {"message", message}, {"finish_reason", finish}}})},
                            {"usage", usage}});
  json delta = message;
  if (turn.call) delta["tool_calls"][0]["index"] = 0;
  std::string out;
  const auto chunk = [&](const json& d, const json& finish_reason) {
    add_event(out, "",
              {{"id", id},
               {"object", "chat.completion.chunk"},
               {"created", created},
               {"model", kModel},
               {"choices", json::array({{{"index", 0}, {"delta", d}, {"finish_reason", finish_reason}}})}});
  };
  chunk(delta, nullptr);
  chunk(json::object(), finish);
  out += "data: [DONE]\n\n";
  return sse_reply(std::move(out));
}

// An error in the API's own shape, so that the host says what was wrong.
HttpReply api_error(const std::string& api, int status, const std::string& message) {
  if (api.rfind("anthropic", 0) == 0)
    return json_reply(status,
                      {{"type", "error"}, {"error", {{"type", "invalid_request_error"}, {"message", message}}}});
  return json_reply(status, {{"error", {{"message", message}, {"type", "invalid_request_error"}, {"code", nullptr}}}});
}

// The conversation a path names (/c/N/...; 1 without), and the path after it. 0 when N is not a
// number from 1.
std::pair<std::size_t, std::string> conversation_of(const std::string& path) {
  if (path.rfind("/c/", 0) != 0) return {1, path};
  const auto end = path.find('/', 3);
  const std::string number = path.substr(3, end == std::string::npos ? std::string::npos : end - 3);
  const std::string rest = end == std::string::npos ? "/" : path.substr(end);
  if (number.empty() || number.size() > 6 || number.find_first_not_of("0123456789") != std::string::npos)
    return {0, rest};
  return {std::stoul(number), rest};
}

// The API a path names: hosts put /v1 in the base URL or not.
std::string api_of(std::string path) {
  if (const auto query = path.find('?'); query != std::string::npos) path.erase(query);
  if (path.rfind("/v1/", 0) == 0) path.erase(0, 3);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path == "/messages") return "anthropic-messages";
  if (path == "/messages/count_tokens") return "anthropic-count-tokens";
  if (path == "/responses") return "openai-responses";
  if (path == "/chat/completions") return "openai-chat";
  if (path == "/models") return "models";
  return "";
}

}  // namespace

std::vector<std::vector<ModelCall>> model_conversations(const Scenario& scenario) {
  std::vector<std::vector<ModelCall>> conversations(1);
  const std::string only = scenario.servers.size() == 1 ? scenario.servers.begin()->first : "";
  const json task = scenario.document.value("task", json::array());
  for (const auto& item : task) {
    if (item.value("newSession", false)) {
      conversations.emplace_back();
      continue;
    }
    ModelCall call;
    call.server = item.value("server", only);
    call.tool = item.value("tool", "");
    call.arguments = item.value("arguments", json::object());
    conversations.back().push_back(std::move(call));
  }
  return conversations;
}

json to_json(const ModelExchange& e) {
  json j = {{"time", e.time},       {"conversation", e.conversation}, {"api", e.api},      {"stream", e.stream},
            {"offered", e.offered}, {"results", e.results},           {"answer", e.answer}};
  if (!e.tool.empty()) {
    j["server"] = e.server;
    j["tool"] = e.tool;
  }
  if (!e.name.empty()) j["name"] = e.name;
  if (!e.detail.empty()) j["detail"] = e.detail;
  if (!e.not_offered.empty()) {
    j["notOffered"] = json::array();
    for (const auto& [server, tool] : e.not_offered) j["notOffered"].push_back({{"server", server}, {"tool", tool}});
  }
  return j;
}

ScriptedModel::ScriptedModel(std::vector<std::vector<ModelCall>> conversations, const std::filesystem::path& record)
    : conversations_(std::move(conversations)) {
  if (!record.empty()) {
    // The record is the run's output: one that cannot be written makes the run incomplete (exit 3),
    // as with the mock's record.
    record_.open(record, std::ios::app);
    if (!record_)
      throw Error(Error::Category::incomplete, "cannot record to " + record.string() + ": " + std::strerror(errno));
  }
}

ModelExchange& ScriptedModel::remember(ModelExchange exchange) {
  exchange.time = unix_now();
  if (record_.is_open()) record_ << text_of(to_json(exchange)) << std::endl;
  if (exchanges_.size() >= kKept) exchanges_.erase(exchanges_.begin(), exchanges_.begin() + kKept / 2);
  exchanges_.push_back(std::move(exchange));
  return exchanges_.back();
}

std::vector<ModelExchange> ScriptedModel::exchanges() const {
  std::lock_guard lock(mutex_);
  return exchanges_;
}

HttpReply ScriptedModel::handle(const HttpRequestView& request) {
  std::lock_guard lock(mutex_);
  ModelExchange exchange;
  const auto [conversation, rest] = conversation_of(request.path);
  exchange.conversation = conversation;
  exchange.api = api_of(rest);
  const auto refuse = [&](int status, const std::string& why) {
    exchange.answer = "refused";
    exchange.detail = why;
    remember(exchange);
    return api_error(exchange.api, status, why);
  };
  if (exchange.api.empty()) return refuse(404, "no such endpoint: " + request.method + " " + request.path);
  if (conversation == 0 || conversation > conversations_.size())
    return refuse(404, "the task has " + std::to_string(conversations_.size()) + " conversation(s); " + request.path +
                           " names none of them");
  if (exchange.api == "models") {
    if (request.method != "GET") return refuse(405, "the model list is read with GET");
    exchange.answer = "models";
    remember(exchange);
    const json model = {{"id", kModel},           {"object", "model"}, {"type", "model"},
                        {"display_name", kModel}, {"created", 0},      {"created_at", "2026-01-01T00:00:00Z"},
                        {"owned_by", "mcp-hints"}};
    return json_reply(200, {{"object", "list"},
                            {"data", json::array({model})},
                            {"has_more", false},
                            {"first_id", kModel},
                            {"last_id", kModel}});
  }
  if (request.method != "POST") return refuse(405, request.path + " takes POST");
  json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) return refuse(400, "the request body is not a JSON object");
  if (exchange.api == "anthropic-count-tokens") {
    exchange.answer = "count";
    remember(exchange);
    return json_reply(200, {{"input_tokens", std::max<std::size_t>(1, request.body.size() / 4)}});
  }
  exchange.stream = body.contains("stream") && body["stream"] == true;
  const auto tools = offered_tools(body);
  for (const auto& tool : tools) exchange.offered.push_back(tool.label());
  if (exchange.api == "anthropic-messages") {
    exchange.results = anthropic_results(body);
  } else if (exchange.api == "openai-chat") {
    exchange.results = chat_results(body);
  } else {
    exchange.results = responses_results(body);
    if (body.contains("input") && body["input"].is_string()) exchange.results = 0;
    const json previous = body.value("previous_response_id", json());
    if (previous.is_string()) {
      const auto chained = chained_results_.find(previous.get<std::string>());
      if (chained == chained_results_.end()) return refuse(400, "previous_response_id names no response of this run");
      exchange.results += chained->second;
    }
  }
  Turn turn;
  turn.id = std::to_string(++answers_);
  const auto& calls = conversations_[conversation - 1];
  if (tools.empty() && exchange.results == 0) {
    exchange.answer = "side";
    turn.text = "OK.";
  } else {
    // The call due is the one after as many offered calls as there are results: a call whose
    // tool the request does not offer is passed over (and recorded), the rest of the task goes on.
    std::size_t answered = exchange.results;
    const ModelCall* due = nullptr;
    for (const auto& call : calls) {
      auto offered = find_offered(tools, call);
      if (!offered) {
        exchange.not_offered.push_back({call.server, call.tool});
        continue;
      }
      if (answered-- == 0) {
        due = &call;
        turn.call = std::move(offered);
        break;
      }
    }
    if (due) {
      exchange.answer = "call";
      exchange.server = due->server;
      exchange.tool = due->tool;
      exchange.name = turn.call->label();
      turn.arguments = due->arguments;
    } else {
      exchange.answer = "done";
      turn.text = kDoneText;
      for (const auto& [server, tool] : exchange.not_offered)
        turn.text += " The tool " + tool + " of server " + server + " was not offered.";
    }
  }
  remember(exchange);
  // A Responses chain goes on from this answer (previous_response_id) with the results carried so
  // far; the newest ids are kept, so that a host that never stops cannot grow the endpoint.
  if (exchange.api == "openai-responses") {
    chained_results_["resp_" + turn.id] = exchange.results;
    chained_order_.push_back("resp_" + turn.id);
    if (chained_order_.size() > kKept) {
      chained_results_.erase(chained_order_.front());
      chained_order_.pop_front();
    }
  }
  if (exchange.api == "anthropic-messages") return anthropic_answer(turn, exchange.stream);
  if (exchange.api == "openai-chat") return chat_answer(turn, exchange.stream);
  return responses_answer(turn, exchange.stream);
}

int serve_model(ScriptedModel& model, int port, const HttpServerLimits& limits) {
  return serve_until_signal([&model](const HttpRequestView& req) { return model.handle(req); }, "127.0.0.1", port, "/*",
                            limits, "mcp-hints model");
}

}  // namespace mcp_hints::mock
