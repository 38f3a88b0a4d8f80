#include "mcp_hints/json/recorded_input.hpp"

#include <algorithm>
#include <string_view>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

RecordedInput::RecordedInput(std::streambuf& from) : from_(from), buffer_(new char[kBufferBytes]) {
  setg(buffer_.get(), buffer_.get(), buffer_.get());
}

RecordedInput::int_type RecordedInput::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::uint64_t next = start_ + static_cast<std::uint64_t>(egptr() - eback());
  std::size_t got = 0;
  if (next < taken_) {  // gone back: read again from the file, up to what was taken
    got = kept_.read_at(next, buffer_.get(),
                        static_cast<std::size_t>(std::min<std::uint64_t>(kBufferBytes, taken_ - next)));
  } else {
    const std::streamsize n = from_.sgetn(buffer_.get(), static_cast<std::streamsize>(kBufferBytes));
    got = n > 0 ? static_cast<std::size_t>(n) : 0;
    if (got > 0 && kept_whole_) {
      try {
        kept_.append(std::string_view(buffer_.get(), got));
      } catch (const Error&) {
        kept_whole_ = false;  // read on as it comes; no seek goes back from here
      }
    }
    taken_ += got;
  }
  start_ = next;
  setg(buffer_.get(), buffer_.get(), buffer_.get() + got);
  return got == 0 ? traits_type::eof() : traits_type::to_int_type(buffer_[0]);
}

RecordedInput::pos_type RecordedInput::seekoff(off_type off, std::ios_base::seekdir dir,
                                               std::ios_base::openmode which) {
  if (dir == std::ios_base::cur) return seekpos(pos_type(static_cast<off_type>(read_position()) + off), which);
  if (dir == std::ios_base::beg) return seekpos(pos_type(off), which);
  return pos_type(off_type(-1));  // where the stream ends is not known before it is read
}

RecordedInput::pos_type RecordedInput::seekpos(pos_type pos, std::ios_base::openmode which) {
  const auto to = static_cast<off_type>(pos);
  if ((which & std::ios_base::in) == 0 || to < 0) return pos_type(off_type(-1));
  const auto at = static_cast<std::uint64_t>(to);
  const std::uint64_t buffered_end = start_ + static_cast<std::uint64_t>(egptr() - eback());
  if (at >= start_ && at <= buffered_end) {  // within what the buffer holds
    setg(eback(), eback() + (at - start_), egptr());
    return pos;
  }
  if (!kept_whole_ || at > taken_) return pos_type(off_type(-1));
  start_ = at;
  setg(buffer_.get(), buffer_.get(), buffer_.get());
  return pos;
}

RecordedStream::RecordedStream(std::istream& in) : buffer(*in.rdbuf()), stream(&buffer) {}

std::istream& seekable(std::istream& in, std::unique_ptr<RecordedStream>& holder) {
  if (in.tellg() != std::streampos(-1)) return in;
  try {
    holder = std::make_unique<RecordedStream>(in);
  } catch (const Error&) {
    return in;  // no temporary file: read as it comes
  }
  return holder->stream;
}

}  // namespace mcp_hints
