#include "mcp_hints/mock/recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "mcp_hints/json/text.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;

Recorder::Recorder(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  // The record is the run's output: one that cannot be written makes the run incomplete (exit 3),
  // as every output mcp-hints cannot write does.
  if (fd_ < 0) throw Error(Error::Category::incomplete, "cannot record to " + path + ": " + std::strerror(errno));
}

double unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Recorder::~Recorder() {
  if (fd_ >= 0) ::close(fd_);
}

void Recorder::write_line(json&& line) {
  line["time"] = unix_seconds();
  std::string text = json_text(line);
  text += '\n';
  std::lock_guard lock(mutex_);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk must not take the server down
    done += static_cast<std::size_t>(n);
  }
}

void Recorder::message(const std::string& connection, std::string_view direction, const json& message,
                       const std::string& authorization) {
  json line = {{"connection", connection}, {"direction", direction}, {"message", message}};
  if (!authorization.empty()) line["authorization"] = authorization;
  write_line(std::move(line));
}

void Recorder::batch(const std::string& connection, std::string_view direction, const nlohmann::json& batch,
                     const std::string& authorization) {
  if (!batch.is_array() || batch.empty()) return message(connection, direction, batch, authorization);
  for (const auto& element : batch) message(connection, direction, element, authorization);
}

void Recorder::raw(const std::string& connection, std::string_view text) {
  write_line({{"connection", connection}, {"direction", "in"}, {"raw", std::string(text.substr(0, 65536))}});
}

void Recorder::event(const std::string& connection, std::string_view what) {
  write_line({{"connection", connection}, {"event", what}});
}

}  // namespace mcp_hints::mock
