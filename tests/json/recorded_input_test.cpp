#include "mcp_hints/json/recorded_input.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <streambuf>
#include <string>

namespace {

using mcp_hints::RecordedStream;

// A stream read once through (as a pipe): no seek, and reads of at most `most` bytes, as a pipe
// hands over what it holds.
class PipeLike : public std::streambuf {
 public:
  explicit PipeLike(std::string text, std::size_t most = 4096) : text_(std::move(text)), most_(most) {}

 protected:
  int_type underflow() override {
    if (at_ == text_.size()) return traits_type::eof();
    const std::size_t n = std::min(most_, text_.size() - at_);
    setg(text_.data() + at_, text_.data() + at_, text_.data() + at_ + n);
    at_ += n;
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string text_;
  std::size_t most_;
  std::size_t at_ = 0;
};

// Bytes of every value, in a sequence that does not repeat within a read.
std::string patterned(std::size_t size) {
  std::string out(size, '\0');
  std::uint32_t x = 12345;
  for (auto& c : out) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 24);
  }
  return out;
}

// Up to `n` bytes read from where `in` stands.
std::string read_some(std::istream& in, std::size_t n) {
  std::string out(n, '\0');
  in.read(out.data(), static_cast<std::streamsize>(n));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return out;
}

// The environment variable set for as long as it lives, then as it was.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

// Read in pieces of every size, a pipe gives every byte in order and says where it is; a seek
// goes back to any byte read (the first, those at and around the edges of the 1 MiB buffer, the
// middle, where the reading is) and what follows is read again, the bytes not yet read after it;
// no seek goes past what was taken from the pipe, nor from the end, which is not known.
TEST(RecordedInput, GivesEveryByteInOrderAndGoesBackToAnyByteRead) {
  constexpr std::size_t kBuffer = std::size_t{1} << 20;
  const std::string text = patterned(3 * kBuffer + 12345);
  PipeLike pipe(text);
  std::istream once(&pipe);
  std::unique_ptr<RecordedStream> holder;
  std::istream& in = mcp_hints::seekable(once, holder);
  ASSERT_NE(holder, nullptr);
  ASSERT_NE(&in, &once);
  std::mt19937 random(3);
  std::string got;
  while (got.size() < 2 * kBuffer + 7) {
    ASSERT_EQ(in.tellg(), std::streampos(static_cast<std::streamoff>(got.size())));
    got += read_some(in, 1 + random() % 70000);
  }
  ASSERT_EQ(got, text.substr(0, got.size()));
  const std::size_t read_so_far = got.size();
  // The buffer takes a megabyte from the pipe at a time: three so far.
  EXPECT_FALSE(in.seekg(static_cast<std::streamoff>(3 * kBuffer + 1)));
  in.clear();
  EXPECT_FALSE(in.seekg(0, std::ios::end));
  in.clear();
  for (const std::size_t back : {std::size_t{0}, std::size_t{1}, kBuffer - 1, kBuffer, kBuffer + 1, read_so_far / 2,
                                 2 * kBuffer, read_so_far - 1, read_so_far}) {
    ASSERT_TRUE(in.seekg(static_cast<std::streamoff>(back))) << back;
    ASSERT_EQ(in.tellg(), std::streampos(static_cast<std::streamoff>(back))) << back;
    const std::string again = read_some(in, 5000);
    ASSERT_EQ(again, text.substr(back, 5000)) << back;
    ASSERT_TRUE(in.seekg(static_cast<std::streamoff>(read_so_far))) << back;  // where it was
  }
  // The rest, after going back to the start: the kept bytes, then the pipe's, to its end.
  ASSERT_TRUE(in.seekg(0));
  std::string whole;
  while (in) whole += read_some(in, 1 + random() % 300000);
  EXPECT_EQ(whole.size(), text.size());
  EXPECT_EQ(whole, text);
  in.clear();
  ASSERT_TRUE(in.seekg(static_cast<std::streamoff>(text.size() - 10)));
  EXPECT_EQ(read_some(in, 100), text.substr(text.size() - 10));
}

// A file can go back itself: it is read as it is. Where no temporary file can be made, a pipe is
// read as it comes.
TEST(RecordedInput, OnlyAStreamThatCannotGoBackIsRecorded) {
  std::istringstream file("{\"tools\":[]}");
  std::unique_ptr<RecordedStream> holder;
  EXPECT_EQ(&mcp_hints::seekable(file, holder), &file);
  EXPECT_EQ(holder, nullptr);

  PipeLike pipe("{\"tools\":[]}");
  std::istream once(&pipe);
  {
    const ScopedEnvironment nowhere("TMPDIR", "/proc");  // a folder where no file can be made
    EXPECT_EQ(&mcp_hints::seekable(once, holder), &once);
    EXPECT_EQ(holder, nullptr);
  }
  EXPECT_EQ(read_some(once, 100), "{\"tools\":[]}");
}

// When the file stops taking the bytes (a full disk; here a limit on the size of a file), they are
// still read in order, to the end, and a seek goes back no further than the buffer holds.
TEST(RecordedInput, AFileThatStopsTakingBytesStopsOnlyTheGoingBack) {
  constexpr std::size_t kBuffer = std::size_t{1} << 20;
  const std::string text = patterned(3 * kBuffer + 999);
  // In a child: the limit and the signal it raises stay there.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
    const rlimit limit{kBuffer + kBuffer / 2, kBuffer + kBuffer / 2};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(10);
    PipeLike pipe(text, 100000);
    std::istream once(&pipe);
    std::unique_ptr<RecordedStream> holder;
    std::istream& in = mcp_hints::seekable(once, holder);
    if (!holder) ::_exit(11);
    std::string got = read_some(in, 2 * kBuffer + 10);  // the second megabyte did not fit
    if (got != text.substr(0, got.size()) || got.size() != 2 * kBuffer + 10) ::_exit(12);
    if (in.seekg(0)) ::_exit(13);  // kept no more: no going back past the buffer
    in.clear();
    if (!in.seekg(static_cast<std::streamoff>(2 * kBuffer + 3))) ::_exit(14);  // within the buffer
    if (read_some(in, 7) != text.substr(2 * kBuffer + 3, 7)) ::_exit(15);
    got += read_some(in, text.size());
    if (got != text) ::_exit(16);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}
