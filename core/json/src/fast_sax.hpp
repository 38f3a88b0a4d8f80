#pragma once
// A reader of JSON (text in memory, or a stream a megabyte at a time) that gives a nlohmann SAX
// handler exactly the events nlohmann's own strict parser would (one value, then only whitespace),
// with the positions the handlers read (FastPositions: what detail::ChunkedInput reports at each
// event). It reads only what it is sure of: at anything else (any error, a byte-order mark, a
// limit, a handler that stops) it gives up, and the caller reads the input again through
// nlohmann's parser, which then says what is wrong in its own words. It never accepts what
// nlohmann refuses. nlohmann's lexer copies each character twice and counts it once more; this
// reader takes plain runs of a string sixteen bytes at a time, and gives a string or a member name
// as a view (the handler's string_value and key_name, in place of string and key): where it is
// plain and whole in the window, a view of the window, so that its text is copied once, into the
// handler's value. Private to the json role.
#include <bit>
#include <charconv>
#include <clocale>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints::detail {

template <class Handler, class Source>
class FastSaxReader;

// The text of a document in memory: all of it at once.
class TextSource {
 public:
  TextSource(std::string_view text, const InputLimits& limits)
      : text_(text), over_limit_(text.size() > limits.max_bytes) {}
  std::string_view window() const { return text_; }
  // Nothing more to read.
  bool refill(std::size_t, std::string_view&) { return false; }
  bool over_limit() const { return over_limit_; }

 private:
  std::string_view text_;
  bool over_limit_;
};

// A stream read a large chunk at a time. A refill keeps the last bytes of the window (the token
// under way), moved to the front, and reads after them; the buffer grows only for a token longer
// than it (a string, which the reader bounds by max_string).
class StreamSource {
 public:
  StreamSource(std::istream& in, const InputLimits& limits) : in_(in), max_bytes_(limits.max_bytes), buffer_(1 << 20) {}
  std::string_view window() const { return {buffer_.data(), size_}; }
  // The window's last `kept` bytes, then what follows them; false at the end of the input or the
  // byte limit.
  bool refill(std::size_t kept, std::string_view& window) {
    if (over_limit_ || !in_) return false;
    std::memmove(buffer_.data(), buffer_.data() + (size_ - kept), kept);
    if (buffer_.size() - kept < buffer_.size() / 2) buffer_.resize(buffer_.size() * 2);
    in_.read(buffer_.data() + kept, static_cast<std::streamsize>(buffer_.size() - kept));
    const auto got = static_cast<std::size_t>(in_.gcount());
    consumed_ += got;
    if (consumed_ > max_bytes_) over_limit_ = true;
    size_ = kept + got;
    window = {buffer_.data(), size_};
    return got > 0 && !over_limit_;
  }
  bool over_limit() const { return over_limit_; }

 private:
  std::istream& in_;
  const std::size_t max_bytes_;
  std::vector<char> buffer_;
  std::size_t size_ = 0, consumed_ = 0;
  bool over_limit_ = false;
};

// Where the reader is, as a handler asks it (the interface of ChunkedInput that handlers use),
// and the text of a value copied as the reader passes it, for a handler that keeps it.
class FastPositions {
 public:
  // Where the token of the event started.
  TextPosition token_start() const { return token_start_; }
  // The line the reader is on. After a number nlohmann has read one character more, the one
  // that ends it: a newline there already counts.
  std::size_t line() const { return line_ + after_number_; }

  // The text from where the token of this event started, up to where the reader is when
  // end_capture() is called (past the value, when called at its last event). Begun at an object's
  // or array's first event, whose token is still in the window; a scalar's may have left it.
  void begin_capture() {
    capturing_ = true;
    captured_.clear();
    capture_from_ = token_at_;
  }
  std::string end_capture() {
    captured_.append(reinterpret_cast<const char*>(capture_from_),
                     static_cast<std::size_t>(*reader_at_ - capture_from_));
    capturing_ = false;
    std::string text = std::move(captured_);
    captured_ = std::string();
    captured_.reserve(text.size());  // room for a value like it: the next tool's, most likely
    return text;
  }

 private:
  template <class Handler, class Source>
  friend class FastSaxReader;
  TextPosition token_start_;
  std::size_t line_ = 1;
  std::size_t after_number_ = 0;
  const unsigned char* token_at_ = nullptr;          // where the token of the event starts
  const unsigned char* const* reader_at_ = nullptr;  // the reader's place
  bool capturing_ = false;
  const unsigned char* capture_from_ = nullptr;  // in the window: what is not yet in captured_
  std::string captured_;
};

// The open containers, innermost last: whether each is an array. The first levels (the default
// depth limit's worth) are bits in the reader itself, so reading a message allocates nothing here;
// deeper ones, under a raised limit, go to a vector.
class OpenContainers {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  void push(bool is_array) {
    if (size_ < kInline) {
      const std::uint64_t bit = std::uint64_t{1} << (size_ % 64);
      bits_[size_ / 64] = is_array ? bits_[size_ / 64] | bit : bits_[size_ / 64] & ~bit;
    } else {
      deeper_.push_back(is_array);
    }
    ++size_;
  }
  bool back() const {
    const std::size_t i = size_ - 1;
    return i < kInline ? (bits_[i / 64] >> (i % 64)) & 1 : deeper_.back();
  }
  void pop() {
    if (--size_ >= kInline) deeper_.pop_back();
  }

 private:
  static constexpr std::size_t kInline = 256;
  std::uint64_t bits_[kInline / 64] = {};
  std::vector<bool> deeper_;
  std::size_t size_ = 0;
};

// Follows a container's strings and brackets a block of 64 bytes at a time, to find where it
// closes without reading its values: a quote not escaped opens or closes a string, and a bracket
// outside strings opens or closes a container. What it finds is right only for JSON: a text that
// is not is refused when it is read.
struct ContainerScan {
  // The bits set: std::popcount is a library call where the build may not assume the instruction.
  static std::size_t count(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return static_cast<std::size_t>((x * 0x0101010101010101u) >> 56);
  }
  struct Masks {
    std::uint64_t quote, backslash, open, close, newline, high;  // a bit a byte, the first lowest
  };
  std::size_t depth = 1;        // containers open, the scanned one included
  std::uint64_t in_string = 0;  // all ones when a string is open past the last block
  bool escapes_next = false;    // the last block ended in a backslash that escapes the next byte

  static Masks masks_of(const unsigned char* block) {
    Masks m{};
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), newline = _mm_set1_epi8('\n');
    // '{' and '[' differ from '}' and ']' in one bit, and from each other in another (0x20).
    const __m128i case_bit = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    for (int i = 0; i < 4; ++i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * i));
      const __m128i folded = _mm_or_si128(v, case_bit);
      const auto bits = [&](__m128i eq) {
        return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(eq))) << (16 * i);
      };
      m.quote |= bits(_mm_cmpeq_epi8(v, quote));
      m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
      m.open |= bits(_mm_cmpeq_epi8(folded, open));
      m.close |= bits(_mm_cmpeq_epi8(folded, close));
      m.newline |= bits(_mm_cmpeq_epi8(v, newline));
      m.high |= bits(v);
    }
#else
    for (int i = 0; i < 64; ++i) {
      const unsigned char c = block[i];
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (c == '"') m.quote |= bit;
      if (c == '\\') m.backslash |= bit;
      if ((c | 0x20) == '{') m.open |= bit;
      if ((c | 0x20) == '}') m.close |= bit;
      if (c == '\n') m.newline |= bit;
      if (c >= 0x80) m.high |= bit;
    }
#endif
    return m;
  }

  // How many of the block's first n bytes belong to the container: n, or up to and including its
  // closing bracket (depth is then 0).
  std::size_t scan(const Masks& m, std::size_t n) {
    const std::uint64_t given = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    // Bytes escaped by a backslash (itself not escaped): a quote among them ends no string.
    std::uint64_t escaped = escapes_next ? 1 : 0;
    escapes_next = false;
    for (std::uint64_t starts = m.backslash & given & ~escaped; starts != 0;) {
      const auto i = static_cast<std::size_t>(std::countr_zero(starts));
      if (i == n - 1) {
        escapes_next = true;
        break;
      }
      escaped |= std::uint64_t{2} << i;
      starts &= ~(std::uint64_t{3} << i);
    }
    // Inside a string: from a quote up to the next (the opening quote in, the closing one out).
    std::uint64_t strings = m.quote & given & ~escaped;
    for (int shift = 1; shift < 64; shift *= 2) strings ^= strings << shift;
    strings ^= in_string;
    in_string = (strings >> (n - 1) & 1) != 0 ? ~std::uint64_t{0} : 0;
    const std::uint64_t opens = m.open & given & ~strings, closes = m.close & given & ~strings;
    if (closes == 0) {
      if (opens != 0) depth += count(opens);
      return n;
    }
    if (const std::size_t closing = count(closes); closing < depth) {  // the container cannot close here
      depth = depth + count(opens) - closing;
      return n;
    }
    for (std::uint64_t brackets = opens | closes; brackets != 0; brackets &= brackets - 1) {
      const int i = std::countr_zero(brackets);
      if ((opens >> i & 1) != 0) {
        ++depth;
      } else if (--depth == 0) {
        return static_cast<std::size_t>(i) + 1;
      }
    }
    return n;
  }
};

template <class Handler, class Source>
class FastSaxReader {
 public:
  // `start`: where the text starts in its document (a value read again on its own).
  FastSaxReader(Source& source, const InputLimits& limits, Handler& handler, FastPositions& at,
                TextPosition start = {1, 1})
      : source_(source), limits_(limits), handler_(handler), at_(at), column_(start.column) {
    const std::string_view window = source.window();
    p_ = reinterpret_cast<const unsigned char*>(window.data());
    end_ = p_ + window.size();
    at_.line_ = start.line;
    at_.reader_at_ = &p_;
  }

  // True when the whole input was read and every event given; false when the reader gave up (the
  // events given so far are to be thrown away with the handler).
  bool read() {
    if (source_.over_limit() || (ensure(1) && *p_ == 0xef)) return false;  // over the limit, or a byte-order mark
    skip_space();
    if (!value()) return false;
    for (;;) {
      if (!stack_.empty() && !after_value()) return false;
      if (stack_.empty()) break;
    }
    skip_space();
    return p_ == end_ && !source_.over_limit();
  }

 private:
  // More of the input past end_, keeping the bytes from `keep` (at or before p_) where they are
  // needed; `keep` and p_ follow them. False at the end of the input.
  bool more(const unsigned char*& keep) {
    const auto kept = static_cast<std::size_t>(end_ - keep);
    const auto offset = static_cast<std::size_t>(p_ - keep);
    if (at_.capturing_) {  // the window moves: what it holds of the value is copied first
      at_.captured_.append(reinterpret_cast<const char*>(at_.capture_from_),
                           static_cast<std::size_t>(end_ - at_.capture_from_));
      at_.capture_from_ = end_;
    }
    std::string_view window;
    if (!source_.refill(kept, window)) return false;
    keep = reinterpret_cast<const unsigned char*>(window.data());
    p_ = keep + offset;
    end_ = keep + window.size();
    at_.capture_from_ = keep + kept;  // where the old window's end now stands
    return true;
  }
  // At least n bytes from p_ on, unless the input ends first.
  bool ensure(std::size_t n) {
    while (static_cast<std::size_t>(end_ - p_) < n) {
      const unsigned char* keep = p_;
      if (!more(keep)) return false;
    }
    return true;
  }

  // A value begins at p_ (after any space); its events are given, and a container is left open.
  bool value() {
    if (!ensure(1)) return false;
    start_token();
    switch (*p_) {
      case '{':
      case '[': return open(*p_ == '[');
      case '"': return string() && handler_.string_value(string_text());
      case 't': return literal("true", 4) && handler_.boolean(true);
      case 'f': return literal("false", 5) && handler_.boolean(false);
      case 'n': return literal("null", 4) && handler_.null();
      default: return number();
    }
  }

  // A container opens at p_: its event, and its end at once when it is empty. A handler that
  // takes it as its text (takes_text) is given that instead, once the reader is past it.
  bool open(bool is_array) {
    if (stack_.size() >= limits_.max_depth) return false;  // the handler's limit, and its words
    if constexpr (requires(Handler & h, std::string && text) {
                    { h.takes_text() } -> std::same_as<bool>;
                    { h.container_text(std::move(text)) } -> std::same_as<bool>;
                  }) {
      if (handler_.takes_text()) return skip_container() && handler_.container_text(at_.end_capture());
    }
    advance_ascii(1);
    constexpr auto unknown_size = static_cast<std::size_t>(-1);
    if (!(is_array ? handler_.start_array(unknown_size) : handler_.start_object(unknown_size))) return false;
    skip_space();
    if (ensure(1) && *p_ == (is_array ? ']' : '}')) {
      advance_ascii(1);
      return is_array ? handler_.end_array() : handler_.end_object();
    }
    stack_.push(is_array);
    if (!is_array) return member();
    return value();
  }

  // A member name, its colon and its value (the name's first character at p_, after space).
  bool member() {
    skip_space();
    if (!ensure(1) || *p_ != '"') return false;
    start_token();
    if (!string() || !handler_.key_name(string_text())) return false;
    skip_space();
    if (!ensure(1) || *p_ != ':') return false;
    advance_ascii(1);
    skip_space();
    return value();
  }

  // After a value inside the innermost open container: a comma and the next, or its end.
  bool after_value() {
    skip_space();
    if (!ensure(1)) return false;
    const bool in_array = stack_.back();
    if (*p_ == ',') {
      advance_ascii(1);
      if (in_array) {
        skip_space();
        return value();
      }
      return member();
    }
    if (*p_ != (in_array ? ']' : '}')) return false;
    advance_ascii(1);
    stack_.pop();
    return in_array ? handler_.end_array() : handler_.end_object();
  }

  // Past the container whose opening bracket is at p_, to past its closing bracket, its text
  // captured (FastPositions::end_capture), lines and columns counted: only its strings and
  // brackets are followed, 64 bytes at a time, not its values read. The text is JSON only if a
  // reader of its own says so. False where the input ends first.
  bool skip_container() {
    at_.begin_capture();
    advance_ascii(1);
    ContainerScan scan;
    for (;;) {
      while (end_ - p_ >= 64)
        if (scanned(scan, p_, 64)) return true;
      if (p_ != end_) {  // the window's last bytes, fewer than 64, in a block of their own
        unsigned char last[64] = {};
        const auto left = static_cast<std::size_t>(end_ - p_);
        std::memcpy(last, p_, left);
        const unsigned char* at = last;
        const bool closed = scanned(scan, at, left);
        p_ += at - last;
        if (closed) return true;
      }
      const unsigned char* keep = p_;
      if (!more(keep)) return false;
    }
  }

  // Scans the block at `block` (its first n bytes; 64 can be read), moves it past those that
  // belong to the container and counts their lines and columns; true when the container closed.
  bool scanned(ContainerScan& scan, const unsigned char*& block, std::size_t n) {
    const ContainerScan::Masks masks = ContainerScan::masks_of(block);
    const std::size_t used = scan.scan(masks, n);
    const std::uint64_t in_use = used == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << used) - 1;
    // Columns count UTF-16 code units: a byte past ASCII that continues a sequence counts none,
    // one that starts a sequence of four counts two. `from`: the first byte counted, up to `used`.
    const auto units = [&](std::size_t from) {
      std::size_t count = used - from;
      const std::uint64_t range = from == 64 ? 0 : in_use & ~((std::uint64_t{1} << from) - 1);
      for (std::uint64_t high = masks.high & range; high != 0; high &= high - 1) {
        const unsigned char c = block[std::countr_zero(high)];
        if (c < 0xc0) --count;
        if (c >= 0xf0) ++count;
      }
      return count;
    };
    if (const std::uint64_t newlines = masks.newline & in_use; newlines != 0) {
      at_.line_ += ContainerScan::count(newlines);
      column_ = 1 + units(static_cast<std::size_t>(64 - std::countl_zero(newlines)));
    } else {
      column_ += units(0);
    }
    block += used;
    return scan.depth == 0;
  }

  void start_token() {
    at_.token_start_ = {at_.line_, column_};
    at_.token_at_ = p_;
  }
  void advance_ascii(std::size_t n) {
    p_ += n;
    column_ += n;
  }

  // Past any space at p_. Most tokens follow one another at once, or after a line break and an
  // indent: those are read here, the rest (the window's end among them) by skip_more_space.
  // A token at once, or after one space (as after a member's colon in most documents), is passed
  // where skip_space is called (inlined); the rest is a call.
  [[gnu::always_inline]] void skip_space() {
    if (p_ != end_ && *p_ > ' ') return;
    if (end_ - p_ >= 2 && p_[0] == ' ' && p_[1] > ' ') {
      advance_ascii(1);
      return;
    }
    skip_some_space();
  }
  void skip_some_space() {
    if (p_ != end_ && *p_ == '\n') {
      ++at_.line_;
      column_ = 1;
      ++p_;
    }
    const unsigned char* const from = p_;
    skip_spaces();
    column_ += static_cast<std::size_t>(p_ - from);
    if (p_ == end_ || *p_ <= ' ') skip_more_space();
  }
  // Past the spaces (0x20 only) at p_, sixteen at a time while the window holds that many.
  void skip_spaces() {
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    while (end_ - p_ >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
      const unsigned others = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, space))) & 0xffffu;
      if (others != 0) {
        p_ += __builtin_ctz(others);
        return;
      }
      p_ += 16;
    }
#endif
    while (p_ != end_ && *p_ == ' ') ++p_;
  }
  void skip_more_space() {
    while (ensure(1)) {
      for (; p_ != end_; ++p_) {
        const unsigned char c = *p_;
        if (c == ' ' || c == '\t' || c == '\r') {
          ++column_;
        } else if (c == '\n') {
          ++at_.line_;
          column_ = 1;
        } else {
          return;
        }
      }
    }
  }

  bool literal(const char* word, std::size_t length) {
    if (!ensure(length) || std::memcmp(p_, word, length) != 0) return false;
    advance_ascii(length);
    return true;
  }

  // Any byte of the word that a string cannot take as it is: a control character, a quote, a
  // backslash, or one past ASCII.
  static bool plain_word(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & highs;
    const std::uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    const std::uint64_t has_quote = (quote - ones) & ~quote & highs;
    const std::uint64_t has_backslash = (backslash - ones) & ~backslash & highs;
    return ((below_space | has_quote | has_backslash) | (w & highs)) == 0;
  }

  // Past the plain bytes at p_ (neither a control character, a quote, a backslash nor one past
  // ASCII), sixteen or eight at a time while the window holds that many; the rest, byte by byte,
  // is the caller's.
  void skip_plain_run() {
#if defined(__SSE2__)
    // Compared as signed bytes, one past ASCII is below 0x20 as a control character is.
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (end_ - p_ >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
      const __m128i special =
          _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
      if (const int mask = _mm_movemask_epi8(special); mask != 0) {
        p_ += __builtin_ctz(static_cast<unsigned>(mask));
        return;
      }
      p_ += 16;
    }
#endif
    while (end_ - p_ >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p_, 8);
      if (!plain_word(w)) return;
      p_ += 8;
    }
  }

  // Past the plain bytes at p_, to the end of their run or of the window.
  void skip_plain() {
    skip_plain_run();
    while (p_ != end_ && *p_ >= 0x20 && *p_ < 0x80 && *p_ != '"' && *p_ != '\\') ++p_;
  }

  // A string from its opening quote at p_: its text is string_text(). The reader ends past its
  // closing quote.
  bool string() {
    text_.clear();
    ++p_;
    {
      // Most strings are one plain run, whole in the window: their text is left where it stands.
      const unsigned char* const run = p_;
      skip_plain();
      const auto plain = static_cast<std::size_t>(p_ - run);
      if (p_ != end_ && *p_ == '"') {
        if (plain > limits_.max_string) return false;
        ++p_;
        column_ += plain + 2;
        in_window_ = {reinterpret_cast<const char*>(run), plain};
        return true;
      }
      p_ = run;
    }
    in_window_ = {};
    std::size_t raw = 0;    // bytes between the quotes: nlohmann's limit on one string counts them
    std::size_t units = 1;  // the column's count: UTF-16 code units, the opening quote included
    for (;;) {
      const unsigned char* run = p_;
      skip_plain();
      const auto plain = static_cast<std::size_t>(p_ - run);
      text_.append(reinterpret_cast<const char*>(run), plain);
      units += plain;
      raw += plain;
      if (raw > limits_.max_string) return false;
      if (!ensure(1)) return false;
      const unsigned char c = *p_;
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;  // the window ended inside a run
      if (c == '"') {
        ++p_;
        ++units;
        break;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        std::size_t escape = 0;  // its bytes, all ASCII
        if (!unescape(escape)) return false;
        units += escape;
        raw += escape;
        continue;
      }
      ensure(4);  // as much of a sequence as there is
      const std::size_t length = utf8_sequence();
      if (length == 0) return false;
      text_.append(reinterpret_cast<const char*>(p_), length);
      units += length == 4 ? 2 : 1;
      raw += length;
      p_ += length;
    }
    if (raw > limits_.max_string) return false;
    column_ += units;
    return true;
  }

  // The text of the string just read: in the window, or copied into text_.
  std::string_view string_text() const { return in_window_.data() ? in_window_ : std::string_view(text_); }

  // The length of the well-formed UTF-8 sequence at p_ (RFC 3629, as nlohmann reads it); 0 if none.
  std::size_t utf8_sequence() const {
    const auto continuation = [&](std::size_t i, unsigned char low, unsigned char high) {
      return end_ - p_ > static_cast<std::ptrdiff_t>(i) && p_[i] >= low && p_[i] <= high;
    };
    const unsigned char c = *p_;
    if (c >= 0xc2 && c <= 0xdf) return continuation(1, 0x80, 0xbf) ? 2 : 0;
    if (c == 0xe0) return continuation(1, 0xa0, 0xbf) && continuation(2, 0x80, 0xbf) ? 3 : 0;
    if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef)
      return continuation(1, 0x80, 0xbf) && continuation(2, 0x80, 0xbf) ? 3 : 0;
    if (c == 0xed) return continuation(1, 0x80, 0x9f) && continuation(2, 0x80, 0xbf) ? 3 : 0;
    if (c == 0xf0)
      return continuation(1, 0x90, 0xbf) && continuation(2, 0x80, 0xbf) && continuation(3, 0x80, 0xbf) ? 4 : 0;
    if (c >= 0xf1 && c <= 0xf3)
      return continuation(1, 0x80, 0xbf) && continuation(2, 0x80, 0xbf) && continuation(3, 0x80, 0xbf) ? 4 : 0;
    if (c == 0xf4)
      return continuation(1, 0x80, 0x8f) && continuation(2, 0x80, 0xbf) && continuation(3, 0x80, 0xbf) ? 4 : 0;
    return 0;
  }

  // Four hex digits after "\u" at p_; -1 if they are not there.
  long hex4(const unsigned char* at) const {
    if (end_ - at < 4) return -1;
    long value = 0;
    for (int i = 0; i < 4; ++i) {
      const unsigned char c = at[i];
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return -1;
      value = value * 16 + digit;
    }
    return value;
  }

  // The escape at p_ (a backslash) into text_; `length` is set to its bytes.
  bool unescape(std::size_t& length) {
    if (!ensure(2)) return false;
    const unsigned char kind = p_[1];
    const char* simple = nullptr;
    switch (kind) {
      case '"': simple = "\""; break;
      case '\\': simple = "\\"; break;
      case '/': simple = "/"; break;
      case 'b': simple = "\b"; break;
      case 'f': simple = "\f"; break;
      case 'n': simple = "\n"; break;
      case 'r': simple = "\r"; break;
      case 't': simple = "\t"; break;
      case 'u': break;
      default: return false;
    }
    if (simple) {
      text_ += *simple;
      p_ += 2;
      length = 2;
      return true;
    }
    if (!ensure(6)) return false;
    long code = hex4(p_ + 2);
    if (code < 0) return false;
    p_ += 6;
    length = 6;
    if (code >= 0xdc00 && code <= 0xdfff) return false;  // a low surrogate first
    if (code >= 0xd800 && code <= 0xdbff) {
      if (!ensure(6) || p_[0] != '\\' || p_[1] != 'u') return false;
      const long low = hex4(p_ + 2);
      if (low < 0xdc00 || low > 0xdfff) return false;
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      p_ += 6;
      length = 12;
    }
    if (code < 0x80) {
      text_ += static_cast<char>(code);
    } else if (code < 0x800) {
      text_ += static_cast<char>(0xc0 | (code >> 6));
      text_ += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      text_ += static_cast<char>(0xe0 | (code >> 12));
      text_ += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      text_ += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      text_ += static_cast<char>(0xf0 | (code >> 18));
      text_ += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      text_ += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      text_ += static_cast<char>(0x80 | (code & 0x3f));
    }
    return true;
  }

  static bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

  static bool number_byte(unsigned char c) {
    return digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }

  // A number at p_ (RFC 8259's grammar), converted as nlohmann converts it: an integer as a
  // signed or unsigned 64-bit one where it fits, anything else as the nearest double.
  bool number() {
    // The number's bytes all in the window, and the one after them unless the input ends there.
    std::size_t length = 0;
    for (;;) {
      while (p_ + length != end_ && number_byte(p_[length])) ++length;
      // A number longer than a string may be is left to nlohmann's parser, so that the window
      // grows no further for it than for a string.
      if (length > limits_.max_string) return false;
      if (p_ + length != end_) break;
      const unsigned char* keep = p_;
      if (!more(keep)) break;
    }
    const unsigned char* const first = p_;
    const unsigned char* const last = p_ + length;
    const unsigned char* q = first;
    if (q != last && *q == '-') ++q;
    if (q == last) return false;
    if (*q == '0') {
      ++q;
    } else if (*q >= '1' && *q <= '9') {
      while (q != last && digit(*q)) ++q;
    } else {
      return false;
    }
    bool integer = true;
    if (q != last && *q == '.') {
      integer = false;
      ++q;
      if (q == last || !digit(*q)) return false;
      while (q != last && digit(*q)) ++q;
    }
    if (q != last && (*q == 'e' || *q == 'E')) {
      integer = false;
      ++q;
      if (q != last && (*q == '+' || *q == '-')) ++q;
      if (q == last || !digit(*q)) return false;
      while (q != last && digit(*q)) ++q;
    }
    // What ends a number in JSON that nlohmann reads on: space, a comma, a bracket, the end.
    if (q != last || (last != end_ && !(*last == ' ' || *last == '\t' || *last == '\r' || *last == '\n' ||
                                        *last == ',' || *last == ']' || *last == '}')))
      return false;
    const char* const from = reinterpret_cast<const char*>(first);
    const char* const to = reinterpret_cast<const char*>(last);
    at_.after_number_ = last != end_ && *last == '\n' ? 1 : 0;
    advance_ascii(length);
    bool given = false;
    if (integer && *first == '-') {
      std::int64_t value = 0;
      if (const auto r = std::from_chars(from, to, value); r.ec == std::errc() && r.ptr == to) {
        given = true;
        if (!handler_.number_integer(value)) return stop_number();
      }
    } else if (integer) {
      std::uint64_t value = 0;
      if (const auto r = std::from_chars(from, to, value); r.ec == std::errc() && r.ptr == to) {
        given = true;
        if (!handler_.number_unsigned(value)) return stop_number();
      }
    }
    if (!given) {
      double value = 0;
      if (const auto r = std::from_chars(from, to, value); r.ec == std::errc::result_out_of_range) {
        // Past a double's range (1e-400, 1e400): nlohmann takes what strtod gives, in any locale
        // as in "C" (0 or the nearest subnormal; infinity it refuses).
        static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
        number_text_.assign(from, to);
        value = strtod_l(number_text_.c_str(), nullptr, c_locale);
      } else if (r.ec != std::errc() || r.ptr != to) {
        return stop_number();
      }
      if (!std::isfinite(value)) return stop_number();
      number_text_.assign(from, to);
      if (!handler_.number_float(value, number_text_)) return stop_number();
    }
    at_.after_number_ = 0;
    return true;
  }
  bool stop_number() {
    at_.after_number_ = 0;
    return false;
  }

  Source& source_;
  const unsigned char* p_ = nullptr;
  const unsigned char* end_ = nullptr;
  const InputLimits& limits_;
  Handler& handler_;
  FastPositions& at_;
  std::size_t column_ = 1;
  OpenContainers stack_;
  std::string text_;            // the last string read, when not in_window_
  std::string_view in_window_;  // the last string read, where it stands in the window, if it does
  std::string number_text_;
};

}  // namespace mcp_hints::detail
