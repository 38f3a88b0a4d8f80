#pragma once
// Streams the tools out of a saved tools/list: one tool at a time is in memory, so a catalog of
// any size is read in bounded memory.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints {

// The accepted shapes of a saved tools/list.
enum class CatalogShape { list_result, jsonrpc_response, bare_array };

// Where each value of one tool starts, told value by value as the tool is read, and looked up by
// JSON pointer below the tool ("" is the tool). Values are kept by their place in the tree, not by
// pointer: a lookup (a finding's) walks down to it, and nothing is spelled or allocated for it.
//
// The fast reader keeps a tool's text instead, and its values are placed from it the first time a
// position is asked for: most tools of a catalog have no finding, and are never asked. So one
// thread at a time asks (the one working on the tool).
class ValuePositions {
 public:
  enum class Kind { scalar, object, array };
  ValuePositions() = default;
  // The values of the tool whose text this is, read from `start` of its document when asked.
  ValuePositions(std::string text, TextPosition start) : text_(std::move(text)), text_start_(start) {}
  // Where the next value starts: the tool itself when nothing is open, else member `key` of the
  // open object or the next element of the open array (`key` unused). An object or array stays
  // open, holding the values that follow, until close(). A member given again (`replaces`: the
  // builder knows) takes the place of the value it replaces and of everything inside it, and the
  // earlier start is returned.
  TextPosition add(std::string_view key, TextPosition at, bool replaces, Kind kind);
  // The innermost open object or array ends.
  void close();
  // The value's position; for a pointer to something the tool does not have (a missing key),
  // that of the nearest enclosing value it has.
  TextPosition at(std::string_view pointer) const;
  // For each member given twice in the tool (in the order read), where it was first given: the
  // earlier_at the reader gives for a tool whose values it places as read.
  void place_earlier(std::vector<DuplicateMember>& duplicates) const;
  // Room for as many values and names as another tool had, so that a tool's are not grown to
  // size a doubling at a time.
  void reserve_like(const ValuePositions& other) {
    entries_.reserve(other.entries_.size());
    names_.reserve(other.names_.size());
  }

 private:
  // The values placed from the kept text, once; the members given twice found on the way.
  void place_from_text(std::vector<DuplicateMember>* duplicates = nullptr) const;
  static constexpr std::uint32_t none = 0xffffffff;
  struct Entry {
    std::uint32_t parent;       // the entry of the enclosing value; none for the tool
    std::uint32_t index;        // the element's index, in an array
    std::size_t key_start = 0;  // the member's name in names_, in an object
    std::size_t key_size = 0;
    TextPosition at;
    bool in_array = false;
    bool live = true;  // false once a member given again replaced it (or what holds it)
  };
  std::string_view key(const Entry& entry) const {
    return std::string_view(names_).substr(entry.key_start, entry.key_size);
  }
  struct Open {
    std::uint32_t entry;
    bool is_array;
    std::uint32_t elements = 0;
  };
  // The live value directly inside `parent` that a pointer's token names; none if the tool has none.
  std::uint32_t child(std::uint32_t parent, std::string_view token) const;
  // The entry after all that `entry` holds.
  std::size_t end_of(std::size_t entry) const;

  // Filled as the values are read, or from text_ when first asked (hence mutable: placing them
  // changes no answer).
  mutable std::vector<Entry> entries_;  // in document order: what a value holds follows it, all together
  mutable std::string names_;           // the members' names, one after another
  std::vector<Open> open_;
  mutable std::string text_;  // the tool's text, until its values are placed
  TextPosition text_start_;
};

struct CatalogTool {
  nlohmann::json tool;                      // the tool object as given (may be any JSON value if the file is wrong)
  std::string pointer;                      // where it stands in the document, e.g. "/result/tools/3"
  std::size_t index;                        // position in the tools array
  std::size_t line;                         // line of the document where the tool starts (1-based)
  ValuePositions positions;                 // where each of its values starts
  std::vector<DuplicateMember> duplicates;  // members given twice in one of its objects (the last value is kept)
};

struct CatalogSummary {
  CatalogShape shape;
  std::size_t tool_count = 0;
  // Read by the fast reader alone (a file of well-formed JSON within the limits); else nlohmann's
  // parser read it, or what the fast reader gave up on. The tools are the same either way.
  bool read_fast = false;
};

// Calls on_tool for each tool in document order. Throws InputError for input that is not JSON,
// breaks a limit, is not one of the accepted shapes, or repeats a member outside the tools (which
// tools array counts would be a guess); a member repeated inside a tool is the tool's to report.
// `spare_trees`, if given: trees of tools done with, which the caller may add to as it goes; each
// tool is built into one of them while there are any (JsonBuilder::recycle), rather than anew.
CatalogSummary read_catalog(std::istream& in, const InputLimits& limits,
                            const std::function<void(CatalogTool&&)>& on_tool,
                            std::vector<nlohmann::json>* spare_trees = nullptr);

// A tool of a saved tools/list not read yet: its text, to be read (read_tool) by the thread that
// works on it, so that a tool's tree is built, worked on and built into again on one core.
struct CatalogToolText {
  std::string text;                 // an object or array, as the document spells it
  TextPosition start;               // where it starts in the document
  std::size_t depth = 0;            // the containers around it, as InputLimits::max_depth counts them
  std::string pointer;              // as CatalogTool's
  std::size_t index = 0;            // as CatalogTool's
  std::size_t line = 0;             // as CatalogTool's
  std::optional<CatalogTool> read;  // a tool that is neither an object nor an array, read already
};

// read_catalog's fast reader, handing on each tool as its text: of a tool's text it only finds
// where it ends, which read_tool then reads. nullopt where the reader gave up, as read_catalog's
// fast reader gives up (on anything but well-formed JSON within the limits): read_catalog then
// reads the document again, passing over the tools read before. Throws what on_text throws, and
// InputError for a well-formed document that is not a tools/list. The input must be seekable.
std::optional<CatalogSummary> read_catalog_texts(std::istream& in, const InputLimits& limits,
                                                 const std::function<void(CatalogToolText&&)>& on_text);

// What a thread keeps from reading one tool's text to the next (read_tool).
struct ToolReading {
  std::vector<nlohmann::json> spare_trees;  // the next tool is built into the last (JsonBuilder::recycle)
  JsonBuilder builder;                      // its room for the containers open kept
};

// The tool of a text handed on by read_catalog_texts, the same as read_catalog gives. nullopt
// where its text is not well-formed JSON within the limits: the document is then read again
// (read_catalog_texts).
std::optional<CatalogTool> read_tool(CatalogToolText&& text, const InputLimits& limits, ToolReading* reading = nullptr);

}  // namespace mcp_hints
