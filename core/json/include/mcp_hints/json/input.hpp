#pragma once
// Bounded reading of untrusted JSON: every limit gives an InputError with one line of text.
#include <cstddef>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

struct InputLimits {
  std::size_t max_bytes = std::size_t{1} << 30;    // whole document
  std::size_t max_depth = 256;                     // nesting of arrays and objects
  std::size_t max_string = std::size_t{16} << 20;  // one string or member name, in bytes
};

// Where a value starts in its document: 1-based line, and 1-based column counted in UTF-16 code
// units (as SARIF's default column kind, editors and GitHub annotations count them: a character
// outside the Basic Multilingual Plane counts two). 0 when unknown.
struct TextPosition {
  std::size_t line = 0, column = 0;
};

// A problem with input: says what was wrong and, where known, where (JSON pointer, line). When a
// limit of InputLimits was passed, limit() names its member ("max_string"), so a program can say
// which of its own options raises it.
class InputError : public Error {
 public:
  explicit InputError(const std::string& what, std::string pointer = {}, std::size_t line = 0, std::string limit = {})
      : Error(Category::bad_input, what), pointer_(std::move(pointer)), line_(line), limit_(std::move(limit)) {}
  const std::string& pointer() const { return pointer_; }
  std::size_t line() const { return line_; }
  const std::string& limit() const { return limit_; }

 private:
  std::string pointer_;
  std::size_t line_;
  std::string limit_;
};

// The limits of InputLimits, and the one wording of each for every reader.
enum class InputLimit { bytes, depth, string };
InputError limit_error(InputLimit which, const InputLimits& limits, std::string pointer = {}, TextPosition at = {});

// A member name given twice in one object. RFC 8259 says names SHOULD be unique and that
// parsers then disagree (some keep the first value, some the last, some refuse): the readers
// here keep the last value, and say which members were repeated so the caller can refuse the
// document or report it.
struct DuplicateMember {
  std::string pointer;     // of the member, below the value being built (the repeated name is its last token)
  nlohmann::json earlier;  // the value given first (when repeated more than twice: the one replaced)
  TextPosition earlier_at, later_at;  // where each value starts, when known
  // The repeated name, and one line: "member "x" given twice at /a: first true (line 3, column 5),
  // then false (line 4, column 5)"; `later` is the value kept.
  std::string name() const;
  std::string describe(const nlohmann::json& later) const;
};

// The value given after duplicates[i]'s earlier one, which took its place: in `root`, the value read
// with those members given twice, unless it was replaced in turn (the name given a third time, or
// an object holding it given again), then as it was when replaced. Null if there is none.
nlohmann::json given_after(const nlohmann::json& root, std::span<const DuplicateMember> duplicates, std::size_t i);

// Builds one JSON value from SAX events, remembering where it is so a caller can say where a
// problem was. Nothing here recurses, so any depth the caller allows is safe to build.
class JsonBuilder {
 public:
  bool building() const { return !stack_.empty(); }
  std::size_t depth() const { return stack_.size(); }
  // A value: the root when nothing is being built, else the next member or element.
  // `at` says where it starts, for a repeated member's report.
  void value(nlohmann::json&& v, TextPosition at = {});
  // An object or array: the root, or nested in the open container.
  void open(bool is_array, TextPosition at = {});
  // A string value, taken by swapping: `s` is left holding what the value's place held before
  // (a recycled string's room), or moved from; either way for the caller to clear.
  void string(std::string& s, TextPosition at = {});
  // A string value copied into its place (into a recycled string's room, where there is one).
  void string(std::string_view s, TextPosition at = {});
  // Copied, not taken: the member's map node copies it anyway, and a reader's buffer and key_
  // each keep their room for the next name.
  void key(std::string_view k) { copy_text(key_, k); }
  // A value built before and no longer wanted: the next root is built into it. Where the new
  // value has what the old one had in the same place (the same member of an object, the same
  // element of an array, of the same kind), its map node, container and string are used again,
  // not freed and allocated anew: the tools of a catalog mostly have one shape. Members and
  // elements not given again are freed as their container closes (an array keeps its room, a
  // string the larger of the two). The value built is the same either way.
  void recycle(nlohmann::json&& old) { spare_root_ = std::move(old); }
  // Closes the innermost container.
  void close();
  // True once a root value is complete; take() hands it over and resets the builder.
  bool done() const { return done_; }
  nlohmann::json take();
  // Members repeated in the value built so far (pointers below its root); take() keeps them until
  // take_duplicates() hands them over.
  std::vector<DuplicateMember>& duplicates() { return duplicates_; }
  std::vector<DuplicateMember> take_duplicates() { return std::exchange(duplicates_, {}); }
  // Where the next value goes, as a JSON pointer below the root.
  std::string path() const;
  // The pointer the next value will have: path() and its member name or element index ("" for
  // the root).
  std::string next_pointer() const;
  // The name of the next member, when the open container is an object.
  const std::string& next_key() const { return key_; }

 private:
  // The place of the next value (a member given again is listed, its earlier value taken), holding
  // what a recycled value had there, else null; and its member name, the map's own, which stays
  // where it is, when the open container is an object.
  std::pair<nlohmann::json*, const std::string*> place(TextPosition at);
  // The place of the next scalar: the root, which is then done, or the next member or element.
  nlohmann::json* scalar_place(TextPosition at);
  // `to` = `text`, which is mostly a reader's and copied by clear() and append(): assign() takes a
  // slower path, there for text within `to` itself, which only such text takes here.
  static void copy_text(std::string& to, std::string_view text) {
    if (text.data() >= to.data() && text.data() <= to.data() + to.size()) {
      to.assign(text);
      return;
    }
    to.clear();
    to.append(text);
  }
  nlohmann::json root_;
  nlohmann::json spare_root_;
  // For each open container (as stack_): an object's recycled members not given again yet (left
  // in place, taken when given, erased when it closes), or how many elements an array has been
  // given (a recycled array's elements after them are its old ones, cut off when it closes).
  struct Open {
    std::vector<nlohmann::json::object_t::iterator> untouched;
    std::size_t elements = 0;
  };
  std::vector<Open> open_;
  std::vector<DuplicateMember> duplicates_;
  std::vector<nlohmann::json*> stack_;
  // Where each open container but the root stands in its parent, spelled as a pointer only when
  // asked (for an error, or a member given twice): its member name, else its element index.
  struct Step {
    const std::string* key;
    std::size_t index;
  };
  std::vector<Step> steps_;
  std::string key_;
  bool done_ = false;
};

// A document and the members it repeats.
struct JsonDocument {
  nlohmann::json value;
  std::vector<DuplicateMember> duplicates;
};

// How a document in memory is read: by the fast reader, and by nlohmann's parser where the fast
// reader gives up (on anything but well-formed JSON within the limits), so that every error is
// nlohmann's and said in its words; by nlohmann's parser alone; or by the fast reader alone, which
// throws InputError where it gives up. The results are the same; the last two are for comparing.
enum class JsonReader { fastest, nlohmann_only, fast_only };

// Parses a whole document held in memory, within the limits; a repeated member keeps its last
// value and is listed (a peer's message, which a judge reports rather than refuses). `recycled`,
// when given, is a value done with (the last message read, say) that the document is built into,
// so that nodes and strings of the same shape are not made and freed again; it is left null.
JsonDocument parse_json_document(std::string_view text, const InputLimits& limits = {},
                                 JsonReader reader = JsonReader::fastest, nlohmann::json* recycled = nullptr);
// The same for input this suite is given to act on (scenarios, drafts, arguments): a repeated
// member is an InputError too, since which value counts would be a guess.
nlohmann::json parse_json(std::string_view text, const InputLimits& limits = {});

// Where the value of the member `name` of an object's text stands ([first, second) bytes): the
// first member so named as the text spells it (a name written with an escape is not taken for it),
// behind members of any kind; nullopt where there is none or the text breaks off first. Nothing
// else of the text is checked: a caller holds it to a text that parsed.
std::optional<std::pair<std::size_t, std::size_t>> member_value_span(std::string_view text, std::string_view name);

// The value `other` holds where `text` holds the one at `span` (a member's of the object `text`
// is: member_value_span): when `other` is `text` to the byte outside that span, and what stands
// there in `other` reads (within the limits, as a member's value: a level deeper) as one JSON value
// of type `type` that gives no member twice; nullopt otherwise. `other` then reads as the document
// `text` reads as, with that value in its place (as long as `text` gave no member twice).
std::optional<nlohmann::json> value_in_place(std::string_view text, std::pair<std::size_t, std::size_t> span,
                                             nlohmann::json::value_t type, std::string_view other,
                                             const InputLimits& limits);

// Reads a peer's messages one after another, each into the tree of the one before
// (parse_json_document). A message that is the last one read whole, to the byte, but for the value
// of its member `name` (a client's requests that differ in their ids) is not read again: that
// value alone is (value_in_place), and takes the member's place in the tree.
class MessageReader {
 public:
  explicit MessageReader(std::string name, InputLimits limits = {}, JsonReader reader = JsonReader::fastest);
  // The message `text` reads as: the tree parse_json_document(text) gives. Throws InputError as that
  // does, and the message is null then.
  nlohmann::json& read(std::string_view text);
  // The message read last (null before the first and after one that did not read).
  nlohmann::json& message() { return message_; }
  // Whether the last read took the message before with a new value rather than reading it whole.
  bool repeated() const { return repeated_; }

 private:
  std::string name_;
  InputLimits limits_;
  JsonReader reader_;
  nlohmann::json message_;
  bool repeated_ = false;
  // The last text read whole, where its tree may be taken again: it gave no member twice, and the
  // value of `name_` stands at span_ with the type type_.
  std::string text_;
  std::optional<std::pair<std::size_t, std::size_t>> span_;
  nlohmann::json::value_t type_ = nlohmann::json::value_t::null;
};

// The text of a stream, read no further than one byte past limits.max_bytes: enough for
// parse_json to refuse it by its size, so a huge file is never held whole.
std::string read_text(std::istream& in, const InputLimits& limits = {});

// nlohmann's parse error as one short line: "not valid JSON: parse error at line L, column C: ...".
std::string describe_parse_error(const std::exception& error);

// Escapes one reference token of a JSON pointer (RFC 6901).
std::string escape_pointer_token(std::string_view token);
// Appends "/" and the escaped token to a pointer.
void append_pointer_token(std::string& out, std::string_view token);
// The member name a reference token spells; nullopt for a '~' that is not "~0" or "~1".
std::optional<std::string> unescape_pointer_token(std::string_view token);

}  // namespace mcp_hints
