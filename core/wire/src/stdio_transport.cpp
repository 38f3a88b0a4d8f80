#include "mcp_hints/wire/transport.hpp"

#include <unistd.h>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// What a line of a misbehaving server looked like, for one line of a message.
std::string excerpt(std::string_view line) { return printable(line, 80); }

}  // namespace

namespace {

// A message is read within the transport's limit, its depth within the reader's.
InputLimits message_limits(const TransportLimits& limits) {
  return {limits.max_message, InputLimits{}.max_depth, limits.max_message};
}

}  // namespace

Transport::Received Transport::read_message(std::string_view text, const TransportLimits& limits) {
  JsonDocument document = parse_json_document(text, message_limits(limits));
  return {std::move(document.value), std::move(document.duplicates)};
}

std::optional<json> ExpectedRepeat::id_if_repeated(std::string_view other, const TransportLimits& limits) const {
  return value_in_place(text, id_span, id_type, other, message_limits(limits));
}

StdioTransport::StdioTransport(const ProcessOptions& process, TransportLimits limits)
    : process_(process), limits_(limits), command_(join(process.argv, " ")) {}

StdioTransport::~StdioTransport() { close(); }

void StdioTransport::send(const json& message, Deadline deadline) {
  std::string line = json_text(message);
  line += '\n';
  if (!process_.write(line, deadline)) {
    if (process_.exited()) throw TransportError("the server " + process_.describe_exit() + " (stdin closed)");
    throw TransportError(Clock::now() >= deadline ? "the server did not read its stdin in time"
                                                  : "the server closed its stdin");
  }
}

std::optional<json> StdioTransport::receive(Deadline deadline) {
  for (;;) {
    const auto newline = buffer_.find('\n', scanned_);
    scanned_ = newline == std::string::npos ? buffer_.size() : 0;
    if (newline != std::string::npos) {
      std::string line;
      if (newline + 1 == buffer_.size()) {  // the whole buffer: taken, not copied
        line = std::move(buffer_);
        line.pop_back();
        buffer_.clear();
      } else {
        line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
      }
      ++line_number_;
      bytes_received_ += line.size() + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      if (expected_) {
        if (auto id = expected_->id_if_repeated(line, limits_)) {
          json message = expected_->in_place;
          message["id"] = std::move(*id);
          duplicates_.clear();
          last_line_ = std::move(line);
          repeated_ = true;
          return message;
        }
      }
      repeated_ = false;
      try {
        Received received = read_message(line, limits_);
        duplicates_ = std::move(received.duplicates);
        last_line_ = std::move(line);
        return std::move(received.message);
      } catch (const InputError& e) {
        // Not protocol: the specification reserves stdout for MCP messages. Counted and kept
        // for the report; too many means the server is not speaking MCP at all.
        if (noise_count_++ == 0)
          first_noise_ = "line " + std::to_string(line_number_) + ": " + excerpt(line) + " (" + e.what() + ")";
        if (noise_count_ > limits_.max_noise_lines)
          throw TransportError("the server wrote more than " + std::to_string(limits_.max_noise_lines) +
                               " lines that are not JSON-RPC to stdout; first, " + first_noise_);
        continue;
      }
    }
    if (buffer_.size() > limits_.max_message)
      throw TransportError("the server sent a line longer than " + std::to_string(limits_.max_message) +
                           " bytes (line " + std::to_string(line_number_ + 1) + ")");
    switch (process_.read(buffer_, limits_.max_message + 1 - buffer_.size() + 1, deadline)) {
      case ChildProcess::ReadStatus::data: break;
      case ChildProcess::ReadStatus::timeout: return std::nullopt;
      case ChildProcess::ReadStatus::eof: {
        std::string why = "the server closed its stdout";
        for (int i = 0; i < 50 && !process_.exited(); ++i) ::usleep(2000);  // let it finish dying
        if (process_.exited()) why = "the server " + process_.describe_exit();
        if (!buffer_.empty()) why += ", in the middle of line " + std::to_string(line_number_ + 1);
        throw TransportError(why);
      }
    }
  }
}

void StdioTransport::close() { process_.kill_group(); }

void StdioTransport::begin_close() { process_.begin_kill_group(); }

std::string StdioTransport::target() const { return "stdio: " + command_; }

std::string StdioTransport::diagnostics() { return process_.stderr_log(); }

std::string ServerTarget::describe() const {
  if (!url.empty()) return url;
  return join(command, " ");
}

std::unique_ptr<Transport> connect(const ServerTarget& target, const TransportLimits& limits) {
  if (!target.url.empty()) return make_http_transport(target.url, limits, target.headers);
  ProcessOptions process;
  process.argv = target.command;
  process.env = target.env;
  process.working_dir = target.working_dir;
  return std::make_unique<StdioTransport>(process, limits);
}

}  // namespace mcp_hints
