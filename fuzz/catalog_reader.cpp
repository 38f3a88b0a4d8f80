// Any bytes, saved as a catalog: read from the file (the fast reader first, nlohmann's parser
// where it gives up, the tools it handed on passed over), from the file on two threads (each
// tool's text found by following its strings and brackets, then read on its own), through a
// stream that cannot be read again, recorded as it is read (as a command reads a pipe: the fast
// reader first, read again from the recording where it gives up), and through a stream that
// cannot be read again (nlohmann's parser alone): the same tools, with the same lines, positions
// and repeated members, then the same summary or the same error. A difference aborts.
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <streambuf>
#include <string>

#include "fuzz_support.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/parallel_catalog.hpp"
#include "mcp_hints/json/recorded_input.hpp"

namespace {

class OnceThroughBuffer : public std::streambuf {
 public:
  explicit OnceThroughBuffer(std::string text) : text_(std::move(text)) {
    setg(text_.data(), text_.data(), text_.data() + text_.size());
  }

 private:
  std::string text_;
};

// `threads`: read by read_catalog_in_parallel on that many, each tool handed back as read.
std::string everything_read(std::istream& in, std::size_t threads = 0) {
  mcp_hints::InputLimits limits;
  limits.max_depth = 24;
  limits.max_string = 256;
  std::string out;
  try {
    const std::function<void(mcp_hints::CatalogTool &&)> keep = [&](mcp_hints::CatalogTool&& t) {
      const auto cbor = nlohmann::json::to_cbor(t.tool);
      out += t.pointer + " " + std::to_string(t.index) + " " + std::to_string(t.line) + " " +
             std::string(cbor.begin(), cbor.end());
      const auto at = t.positions.at("");
      out += " " + std::to_string(at.line) + ":" + std::to_string(at.column);
      for (const auto& d : t.duplicates)
        out += " " + d.pointer + "@" + std::to_string(d.later_at.line) + ":" + std::to_string(d.later_at.column) + "/" +
               std::to_string(d.earlier_at.line) + ":" + std::to_string(d.earlier_at.column);
      out += "\n";
    };
    const std::function<mcp_hints::CatalogTool(mcp_hints::CatalogTool &&)> as_read = [](mcp_hints::CatalogTool&& t) {
      return std::move(t);
    };
    const auto summary = threads > 0 ? mcp_hints::read_catalog_in_parallel(in, limits, threads, as_read, keep)
                                     : mcp_hints::read_catalog(in, limits, keep);
    out += "read " + std::to_string(summary.tool_count);
  } catch (const mcp_hints::InputError& e) {
    out += std::string("error: ") + e.what() + " " + e.pointer() + " " + std::to_string(e.line());
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static mcp_hints::fuzz::ScratchFile file("catalog-reader");
  const auto text = mcp_hints::fuzz::text_of(data, size);
  file.write(text);
  std::ifstream from_file(file.path(), std::ios::binary);
  std::ifstream on_two_threads(file.path(), std::ios::binary);
  OnceThroughBuffer buffer{std::string(text)}, recorded_buffer{std::string(text)};
  std::istream from_pipe(&buffer), once(&recorded_buffer);
  std::unique_ptr<mcp_hints::RecordedStream> recording;
  std::istream& recorded = mcp_hints::seekable(once, recording);
  const std::string piped = everything_read(from_pipe);
  if (everything_read(from_file) != piped || everything_read(on_two_threads, 2) != piped ||
      everything_read(recorded) != piped)
    std::abort();
  return 0;
}
