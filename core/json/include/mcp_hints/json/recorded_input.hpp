#pragma once
// A stream read once through (a pipe) made one that a reader can go back in. The catalog readers
// read a document with the fast reader only where they can read it again from its start (where
// the fast reader gives up, nlohmann's parser reads it again and says what is wrong): a pipe read
// as it comes goes through nlohmann's parser alone, three to four times slower.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <streambuf>

#include "mcp_hints/json/temporary_file.hpp"

namespace mcp_hints {

// Each byte taken from `from` is also kept in a temporary file as it passes, and a seek goes back
// to any of them (or to where the reading is): what was read is then read again from the file,
// and the rest from `from`. Where the file cannot take a write (a full disk), the bytes are still
// read as they come, but no seek goes back any more.
class RecordedInput : public std::streambuf {
 public:
  // Throws Error(incomplete) when no temporary file can be made.
  explicit RecordedInput(std::streambuf& from);

 protected:
  int_type underflow() override;
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override;
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override;

 private:
  std::uint64_t read_position() const { return start_ + static_cast<std::uint64_t>(gptr() - eback()); }

  std::streambuf& from_;
  TemporaryFile kept_;
  bool kept_whole_ = true;   // every byte taken from `from_` is in kept_
  std::uint64_t taken_ = 0;  // bytes taken from `from_`
  std::uint64_t start_ = 0;  // the position of the buffer's first byte
  // Reads of a pipe this large cost few system calls, and the file takes them in few writes.
  static constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
  std::unique_ptr<char[]> buffer_;  // not cleared: only what is read into it is read from it
};

// A stream's bytes read through a RecordedInput, as a stream.
struct RecordedStream {
  explicit RecordedStream(std::istream& in);
  RecordedInput buffer;
  std::istream stream;
};

// `in` itself where it can seek (a file); else `in` read through a RecordedInput, made in `holder`.
// Where no temporary file can be made, `in` itself: it is then read as it comes.
std::istream& seekable(std::istream& in, std::unique_ptr<RecordedStream>& holder);

}  // namespace mcp_hints
