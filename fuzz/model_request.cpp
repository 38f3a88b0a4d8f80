// Requests a host sends the scripted model endpoint (ScriptedModel::handle: the conversation in
// the path, the API, the body's tools and tool results, previous_response_id). The input is up to
// eight requests separated by a line "---"; each is "METHOD PATH" on its first line, then the
// body. Every answer has an HTTP status, and every answer of 200 is JSON or events of JSON.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "mcp_hints/mock/model_endpoint.hpp"

namespace {

using namespace mcp_hints;

HttpRequestView request_of(std::string_view text) {
  HttpRequestView req;
  const std::size_t newline = text.find('\n');
  const std::string_view line = text.substr(0, newline);
  const std::size_t space = line.find(' ');
  req.method = std::string(line.substr(0, space));
  req.path = space == std::string_view::npos ? "/" : std::string(line.substr(space + 1));
  req.body = newline == std::string_view::npos ? std::string() : std::string(text.substr(newline + 1));
  return req;
}

// Every `data:` line of an event stream is JSON, or the Chat API's [DONE].
bool events_are_json(const std::string& body) {
  std::size_t at = 0;
  while ((at = body.find("data: ", at)) != std::string::npos) {
    const std::size_t end = body.find('\n', at);
    const std::string data = body.substr(at + 6, end - at - 6);
    if (data != "[DONE]" && !nlohmann::json::accept(data)) return false;
    at = end;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto requests = fuzz::requests_of(fuzz::text_of(data, size));
  mock::ScriptedModel model(
      {{{"main", "drop_table", {{"table", "users"}}}, {"main", "read-rows", nlohmann::json::object()}},
       {{"backup", "sync", nlohmann::json::object()}}});
  for (const auto text : requests) {
    const HttpReply reply = model.handle(request_of(text));
    if (reply.status < 100 || reply.status > 599) __builtin_trap();  // no HTTP status
    if (reply.status == 200 && (reply.content_type == "text/event-stream" ? !events_are_json(reply.body)
                                                                          : !nlohmann::json::accept(reply.body)))
      __builtin_trap();  // an answer the host cannot read
  }
  return 0;
}
