#include "mcp_hints/json/catalog_reader.hpp"

#include "mcp_hints/json/text.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <set>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "chunked_input.hpp"
#include "fast_sax.hpp"

namespace mcp_hints {
namespace {

using json = nlohmann::json;
using detail::ChunkedInput;
using detail::ChunkedIterator;

// How a handler places a tool's values: as they are read; by keeping the tool's text, read again
// for them when asked (FastPositions alone copies it; a tool that is an object or array); or,
// reading one tool's text on its own (the document's root is the tool), as they are read. Or the
// handler builds no tool that is an object or array but hands on its text (as_text: the fast
// reader passes over it), and reads such a text on its own (text_of_tool), its values placed from
// the text when asked.
enum class PlacedValues { as_read, from_kept_text, tool_alone, as_text, text_of_tool };

// A SAX handler that finds the tools array of any accepted shape and builds one tool at a time.
// `Positions` says where the reader is: ChunkedInput under nlohmann's parser, FastPositions under
// the fast reader.
template <class Positions>
class CatalogHandler final : public nlohmann::json_sax<json> {
 public:
  // `spare_trees`: tools' trees to build the next tools into (JsonBuilder::recycle), if any.
  // `on_text`: where tools' texts go (PlacedValues::as_text). `builder`: one to build with that
  // outlives the handler, keeping its room (else the handler's own).
  CatalogHandler(const InputLimits& limits, Positions& state, const std::function<void(CatalogTool&&)>& on_tool,
                 PlacedValues placed = PlacedValues::as_read, std::vector<json>* spare_trees = nullptr,
                 const std::function<void(CatalogToolText&&)>* on_text = nullptr, JsonBuilder* builder = nullptr)
      : limits_(limits),
        state_(state),
        on_tool_(on_tool),
        placed_(placed),
        spare_trees_(spare_trees),
        on_text_(on_text),
        builder_(builder ? *builder : own_builder_) {}

  // Frames of the document outside the tool being built.
  struct Frame {
    bool is_array;
    std::string key;                          // current member name (objects)
    std::size_t index = 0;                    // next element index (arrays)
    std::set<std::string, std::less<>> keys;  // member names seen (objects)
  };

  bool null() override { return value(json(nullptr)); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
  bool string(string_t& v) override { return given_string(v); }      // swapped into its place
  bool string_value(std::string_view v) { return given_string(v); }  // the fast reader's, copied
  template <class Text>
  bool given_string(Text& v) {
    if (!builder_.building()) return value(json(std::string(std::move(v))));
    builder_.string(v, state_.token_start());
    note_added(ValuePositions::Kind::scalar);
    return true;
  }
  bool binary(binary_t& v) override { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool key(string_t& k) override { return key_name(k); }
  bool key_name(std::string_view k) {
    if (builder_.building()) {
      builder_.key(k);
      return true;
    }
    auto& frame = frames_.back();
    if (!frame.keys.emplace(k).second) {
      const std::string object = pointer(frames_.size() - 1);
      throw InputError("member \"" + printable(k, 80) + "\" given twice in " +
                           (object.empty() ? "the top-level object" : "the object at " + object) +
                           "; which one counts is undefined (RFC 8259, 4)",
                       object + "/" + escape_pointer_token(k), state_.line());
    }
    frame.key.assign(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  // Whether the container opening here is a tool to hand on as its text (the fast reader asks):
  // one within the depth limit (past it, open() says so).
  bool takes_text() const {
    return placed_ == PlacedValues::as_text && !builder_.building() && at_tools_array() &&
           depth() + 1 <= limits_.max_depth;
  }
  // The text of the tool that takes_text() took, the reader now past it.
  bool container_text(std::string&& text) {
    const TextPosition start = state_.token_start();
    (*on_text_)(CatalogToolText{std::move(text), start, frames_.size(), pointer(), frames_.back().index, start.line,
                                std::nullopt});
    ++frames_.back().index;
    ++tool_count_;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    error_ = describe_parse_error(ex);
    return false;
  }

  // Where the parser is: the container being read, inside the tool being built if any.
  std::string location() const { return builder_.building() ? tool_pointer_ + builder_.path() : pointer(); }

  const std::string& error() const { return error_; }
  const std::string& error_pointer() const { return error_pointer_; }
  bool saw_tools() const { return tools_found_; }
  CatalogShape shape() const { return shape_; }
  std::size_t tool_count() const { return tool_count_; }
  const json& rpc_error() const { return rpc_error_; }
  bool root_is_object() const { return root_kind_ == 1; }
  bool root_seen() const { return root_kind_ != 0; }
  const std::vector<std::string>& root_keys() const { return root_keys_; }
  bool tools_not_array() const { return tools_not_array_; }

 private:
  // The pointer of the first `depth` frames (all by default). Spelled for every tool read:
  // appended to one string, without a string a token.
  std::string pointer(std::size_t depth = static_cast<std::size_t>(-1)) const {
    std::string p;
    for (const auto& f : std::span(frames_).first(std::min(depth, frames_.size()))) {
      if (!f.is_array) {
        append_pointer_token(p, f.key);
        continue;
      }
      char digits[24];
      const auto end = std::to_chars(digits, digits + sizeof digits, f.index).ptr;
      p += '/';
      p.append(digits, end);
    }
    return p;
  }

  // Where the tools array sits: [] (bare array), ["tools"], or ["result","tools"].
  bool at_tools_array() const {
    if (frames_.empty()) return false;
    if (frames_.size() == 1 && frames_[0].is_array) return true;
    if (frames_.size() == 2 && !frames_[0].is_array && frames_[1].is_array) return frames_[0].key == "tools";
    if (frames_.size() == 3 && !frames_[0].is_array && !frames_[1].is_array && frames_[2].is_array)
      return frames_[0].key == "result" && frames_[1].key == "tools";
    return false;
  }

  std::size_t depth() const { return frames_.size() + builder_.depth(); }

  bool fail_depth() { throw limit_error(InputLimit::depth, limits_, location(), state_.token_start()); }

  bool open(bool is_array) {
    if (depth() + 1 > limits_.max_depth) return fail_depth();
    if (builder_.building()) {
      builder_.open(is_array, state_.token_start());
      note_added(kind_of(is_array));
      return true;
    }
    if (tool_starts_here()) {
      start_tool(placed_ == PlacedValues::from_kept_text || placed_ == PlacedValues::text_of_tool);
      builder_.open(is_array);
      note_added(kind_of(is_array));
      return true;
    }
    if (frames_.empty()) {
      root_kind_ = is_array ? 2 : 1;
    } else if (capture_rpc_error()) {
      rpc_building_ = true;
      builder_.open(is_array);
      return true;
    }
    note_member(is_array);
    frames_.push_back(Frame{is_array, {}, 0, {}});
    if (is_array && at_tools_array()) {
      tools_found_ = true;
      shape_ = frames_.size() == 1   ? CatalogShape::bare_array
               : frames_.size() == 2 ? CatalogShape::list_result
                                     : CatalogShape::jsonrpc_response;
    }
    return true;
  }

  // Notes facts about the root object's members for a clear error when no tools array is found.
  void note_member(bool is_array) {
    if (frames_.size() == 1 && !frames_[0].is_array) {
      root_keys_.push_back(frames_[0].key);
      if (frames_[0].key == "tools" && !is_array) tools_not_array_ = true;
    }
    if (frames_.size() == 2 && frames_[0].key == "result" && !frames_[0].is_array && frames_[1].key == "tools" &&
        !is_array)
      tools_not_array_ = true;
  }

  bool capture_rpc_error() const { return frames_.size() == 1 && !frames_[0].is_array && frames_[0].key == "error"; }

  bool close() {
    if (builder_.building()) {
      if (!rpc_building_ && !keeping_text_) positions_.close();
      builder_.close();
      if (builder_.done()) finish_built();
      return true;
    }
    frames_.pop_back();
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    return true;
  }

  bool value(json&& v) {
    if (builder_.building()) {
      builder_.value(std::move(v), state_.token_start());
      note_added(ValuePositions::Kind::scalar);
      return true;
    }
    if (tool_starts_here()) {
      // A scalar is read whole before it is known to be a tool (its start may have left the
      // window by then): placed as read, which costs no more than keeping its text.
      start_tool(false);
      builder_.value(std::move(v));
      note_added(ValuePositions::Kind::scalar);
      finish_built();
      return true;
    }
    if (frames_.empty()) {
      root_kind_ = 3;
      return true;
    }
    if (capture_rpc_error()) rpc_error_ = std::move(v);
    note_member(false);
    if (frames_.back().is_array) ++frames_.back().index;
    return true;
  }

  // The value just added to the tool: where it starts (a JSON-RPC error's are not kept), and, when
  // it took the place of a member given before, where that one started.
  void note_added(ValuePositions::Kind kind) {
    if (keeping_text_) return;
    auto& duplicates = builder_.duplicates();
    const bool replaced = duplicates.size() > duplicates_seen_;
    if (!rpc_building_) earlier_ = positions_.add(builder_.next_key(), state_.token_start(), replaced, kind);
    if (replaced) duplicates.back().earlier_at = earlier_;
    duplicates_seen_ = duplicates.size();
  }
  static ValuePositions::Kind kind_of(bool is_array) {
    return is_array ? ValuePositions::Kind::array : ValuePositions::Kind::object;
  }

  void finish_built() {
    if (rpc_building_) {
      rpc_building_ = false;
      rpc_error_ = builder_.take();
      builder_.take_duplicates();
      duplicates_seen_ = 0;
      frames_.back().key.clear();
      return;
    }
    const std::size_t index = frames_.empty() ? 0 : frames_.back().index;
    json tool = builder_.take();
    std::vector<DuplicateMember> duplicates = builder_.take_duplicates();
    ValuePositions positions;
    if (keeping_text_) {
      keeping_text_ = false;
      // text_of_tool: read_tool places them, from the text it has.
      if constexpr (std::is_same_v<Positions, detail::FastPositions>) {
        if (placed_ == PlacedValues::from_kept_text) positions = ValuePositions(state_.end_capture(), tool_start_);
        // Where a member given twice was first given is said now: a tool's members given twice
        // are few, and its report says them.
        if (!duplicates.empty() && placed_ == PlacedValues::from_kept_text) positions.place_earlier(duplicates);
      }
    } else {
      positions.reserve_like(positions_);
      std::swap(positions, positions_);
    }
    on_tool_(
        CatalogTool{std::move(tool), tool_pointer_, index, tool_line_, std::move(positions), std::move(duplicates)});
    duplicates_seen_ = 0;
    if (!frames_.empty()) ++frames_.back().index;
    ++tool_count_;
  }

  // Where a tool starts: in the tools array, or the root of a tool read on its own.
  bool tool_starts_here() const {
    return placed_ == PlacedValues::tool_alone || placed_ == PlacedValues::text_of_tool ? frames_.empty()
                                                                                        : at_tools_array();
  }
  // `keep_text`: the tool's values are placed from its text, kept as it is read from here (an
  // object's or array's opening bracket, just read: still in the reader's window).
  void start_tool(bool keep_text) {
    if (spare_trees_ && !spare_trees_->empty()) {
      builder_.recycle(std::move(spare_trees_->back()));
      spare_trees_->pop_back();
    }
    tool_pointer_ = pointer();
    tool_line_ = state_.line();
    tool_start_ = state_.token_start();
    if constexpr (std::is_same_v<Positions, detail::FastPositions>) {
      keeping_text_ = keep_text;
      if (keep_text && placed_ == PlacedValues::from_kept_text) state_.begin_capture();
    }
  }

  const InputLimits& limits_;
  Positions& state_;
  const std::function<void(CatalogTool&&)>& on_tool_;
  const PlacedValues placed_;
  std::vector<json>* spare_trees_;
  const std::function<void(CatalogToolText&&)>* on_text_;
  TextPosition tool_start_;
  bool keeping_text_ = false;  // the tool being built is placed from its kept text
  std::vector<Frame> frames_;
  JsonBuilder own_builder_;
  JsonBuilder& builder_;  // the tool (or JSON-RPC error) being built
  std::string tool_pointer_;
  std::size_t tool_line_ = 0;
  ValuePositions positions_;  // of the tool being built
  TextPosition earlier_;      // of the value the last one noted replaces
  std::size_t duplicates_seen_ = 0;
  std::size_t tool_count_ = 0;
  bool tools_found_ = false;
  bool tools_not_array_ = false;
  bool rpc_building_ = false;
  CatalogShape shape_ = CatalogShape::bare_array;
  json rpc_error_;
  int root_kind_ = 0;  // 0 none, 1 object, 2 array, 3 scalar
  std::vector<std::string> root_keys_;
  std::string error_;
  std::string error_pointer_;
};

std::string list_keys(const std::vector<std::string>& keys) {
  if (keys.empty()) return "an empty object";
  std::string out = "members ";
  for (std::size_t i = 0; i < keys.size() && i < 6; ++i) out += (i ? ", " : "") + ("\"" + keys[i] + "\"");
  if (keys.size() > 6) out += ", …";
  return out;
}

}  // namespace

TextPosition ValuePositions::add(std::string_view key, TextPosition at, bool replaces, Kind kind) {
  Entry entry{none, 0, 0, 0, at, false};
  TextPosition earlier;
  if (!open_.empty()) {
    Open& parent = open_.back();
    entry.parent = parent.entry;
    if (parent.is_array) {
      entry.in_array = true;
      entry.index = parent.elements++;
    } else {
      entry.key_start = names_.size();
      entry.key_size = key.size();
      names_ += key;
      if (replaces) {
        // The value given first, and everything inside it (the run of entries after it whose
        // ancestry reaches it), are gone from the tool.
        for (std::size_t i = entries_.size(); i-- > parent.entry + 1;) {
          Entry& old = entries_[i];
          if (old.parent != parent.entry || !old.live || this->key(old) != key) continue;
          earlier = old.at;
          for (std::size_t j = i, end = end_of(i); j < end; ++j) entries_[j].live = false;
          break;
        }
      }
    }
  }
  entries_.push_back(std::move(entry));
  if (kind != Kind::scalar) open_.push_back({static_cast<std::uint32_t>(entries_.size() - 1), kind == Kind::array});
  return earlier;
}

void ValuePositions::close() {
  if (!open_.empty()) open_.pop_back();
}

std::size_t ValuePositions::end_of(std::size_t entry) const {
  // What a value holds follows it, all together; the first entry after it is held by something before it.
  std::size_t end = entry + 1;
  while (end < entries_.size() && entries_[end].parent != none && entries_[end].parent >= entry) ++end;
  return end;
}

std::uint32_t ValuePositions::child(std::uint32_t parent, std::string_view token) const {
  std::optional<std::string> unescaped;
  if (token.find('~') != std::string_view::npos) {
    unescaped = unescape_pointer_token(token);
    if (!unescaped) return none;  // not a pointer's token
    token = *unescaped;
  }
  // An element's index as a pointer spells it: digits, no leading zero.
  std::uint32_t index = 0;
  const bool is_index = !token.empty() && token.size() <= 9 && (token == "0" || token[0] != '0') &&
                        std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (is_index) std::from_chars(token.data(), token.data() + token.size(), index);
  for (std::size_t i = parent + 1, end = end_of(parent); i < end; ++i) {
    const Entry& e = entries_[i];
    if (e.parent != parent || !e.live) continue;
    if (e.in_array ? is_index && e.index == index : key(e) == token) return static_cast<std::uint32_t>(i);
  }
  return none;
}

void ValuePositions::place_from_text(std::vector<DuplicateMember>* duplicates) const {
  const std::string text = std::exchange(text_, std::string());
  // The text was read within the document's limits once already: none stops it now.
  const InputLimits unlimited{SIZE_MAX, SIZE_MAX, SIZE_MAX};
  const std::function<void(CatalogTool &&)> take = [&](CatalogTool&& tool) {
    entries_ = std::move(tool.positions.entries_);
    names_ = std::move(tool.positions.names_);
    if (duplicates) *duplicates = std::move(tool.duplicates);
  };
  detail::FastPositions at;
  CatalogHandler handler(unlimited, at, take, PlacedValues::tool_alone);
  detail::TextSource source(text, unlimited);
  detail::FastSaxReader(source, unlimited, handler, at, text_start_).read();
}

void ValuePositions::place_earlier(std::vector<DuplicateMember>& duplicates) const {
  std::vector<DuplicateMember> placed;
  if (entries_.empty()) place_from_text(&placed);
  for (std::size_t i = 0; i < duplicates.size() && i < placed.size(); ++i)
    duplicates[i].earlier_at = placed[i].earlier_at;
}

TextPosition ValuePositions::at(std::string_view pointer) const {
  if (entries_.empty() && !text_.empty()) place_from_text();
  // The tool is the first entry; a pointer is walked down as far as the tool has its values.
  if (entries_.empty() || !entries_[0].live) return {};
  std::uint32_t current = 0;
  while (!pointer.empty() && pointer[0] == '/') {
    const auto end = pointer.find('/', 1);
    const std::uint32_t next = child(current, pointer.substr(1, end == std::string_view::npos ? end : end - 1));
    if (next == none) break;
    current = next;
    pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
  }
  return entries_[current].at;
}

namespace {

// What the whole document said, once read: a JSON-RPC error, or no tools array, is an InputError.
template <class Handler>
CatalogSummary summary_of(const Handler& handler) {
  if (!handler.rpc_error().is_null()) {
    const auto& e = handler.rpc_error();
    // A well-formed error says {code, message}; show whatever this one says.
    const json& said = e.is_object() && e.contains("message") ? e["message"] : e;
    const std::string detail =
        said.is_object() && said.empty() ? std::string("no message") : shorten(value_text(said), 200);
    std::string code = e.is_object() && e.contains("code") && e["code"].is_number() ? e["code"].dump() + " " : "";
    throw InputError("the document is a JSON-RPC error response (" + code + detail + "), not a tools/list result",
                     "/error");
  }
  if (!handler.saw_tools()) {
    if (handler.tools_not_array()) throw InputError("the tools member is not an array", "/tools");
    if (!handler.root_is_object())
      throw InputError("not a tools/list result: expected an object with a tools array, or an array of tools");
    throw InputError("not a tools/list result: no tools array at /tools or /result/tools (found " +
                     list_keys(handler.root_keys()) + ")");
  }
  return CatalogSummary{handler.shape(), handler.tool_count()};
}

// The fast reader over a stream (detail::FastSaxReader); nullopt where it gave up, with `given`
// the tools it handed on before. What on_tool (or on_text) throws goes through. With on_text, the
// tools that are objects or arrays go there as their texts, the others to on_tool.
std::optional<CatalogSummary> read_catalog_fast(std::istream& in, const InputLimits& limits,
                                                const std::function<void(CatalogTool&&)>& on_tool, std::size_t& given,
                                                std::vector<json>* spare_trees,
                                                const std::function<void(CatalogToolText&&)>* on_text = nullptr) {
  bool on_tool_threw = false;
  const auto counted_call = [&](const auto& call, auto&& tool) {
    ++given;
    try {
      call(std::move(tool));
    } catch (...) {
      on_tool_threw = true;
      throw;
    }
  };
  const std::function<void(CatalogTool &&)> counted = [&](CatalogTool&& tool) { counted_call(on_tool, tool); };
  const std::function<void(CatalogToolText &&)> counted_text = [&](CatalogToolText&& text) {
    counted_call(*on_text, text);
  };
  detail::FastPositions at;
  CatalogHandler handler(limits, at, counted, on_text ? PlacedValues::as_text : PlacedValues::from_kept_text,
                         spare_trees, &counted_text);
  detail::StreamSource source(in, limits);
  try {
    if (!detail::FastSaxReader(source, limits, handler, at).read()) return std::nullopt;
  } catch (const InputError&) {
    if (on_tool_threw) throw;
    return std::nullopt;  // the handler's own error: nlohmann's reading says it, in its place
  }
  CatalogSummary summary = summary_of(handler);
  summary.read_fast = true;
  return summary;
}

}  // namespace

std::optional<CatalogSummary> read_catalog_texts(std::istream& in, const InputLimits& limits,
                                                 const std::function<void(CatalogToolText&&)>& on_text) {
  const std::function<void(CatalogTool &&)> read_already = [&](CatalogTool&& tool) {
    CatalogToolText text;
    text.pointer = tool.pointer;
    text.index = tool.index;
    text.line = tool.line;
    text.read = std::move(tool);
    on_text(std::move(text));
  };
  std::size_t given = 0;
  return read_catalog_fast(in, limits, read_already, given, nullptr, &on_text);
}

std::optional<CatalogTool> read_tool(CatalogToolText&& text, const InputLimits& limits, ToolReading* reading) {
  if (text.read) return std::move(*text.read);
  // Read on its own, the tool is the root: the containers around it count against the depth.
  InputLimits inside = limits;
  inside.max_depth -= std::min(text.depth, limits.max_depth);
  std::optional<CatalogTool> tool;
  const std::function<void(CatalogTool &&)> take = [&](CatalogTool&& read) { tool = std::move(read); };
  detail::FastPositions at;
  CatalogHandler handler(inside, at, take, PlacedValues::text_of_tool, reading ? &reading->spare_trees : nullptr,
                         nullptr, reading ? &reading->builder : nullptr);
  detail::TextSource source(text.text, inside);
  bool read = false;
  try {
    read = detail::FastSaxReader(source, inside, handler, at, text.start).read() && tool;
  } catch (const InputError&) {
  }
  if (!read) {
    if (reading) reading->builder = JsonBuilder();  // left inside the tool refused
    return std::nullopt;
  }
  tool->pointer = std::move(text.pointer);
  tool->index = text.index;
  tool->line = text.line;
  tool->positions = ValuePositions(std::move(text.text), text.start);
  if (!tool->duplicates.empty()) tool->positions.place_earlier(tool->duplicates);
  return tool;
}

CatalogSummary read_catalog(std::istream& in, const InputLimits& limits,
                            const std::function<void(CatalogTool&&)>& on_tool,
                            std::vector<nlohmann::json>* spare_trees) {
  // The fast reader first, where the input can be read again from here (a file): where it gives
  // up, nlohmann's parser reads it again and says what is wrong, the tools handed on passed over.
  std::size_t given = 0;
  if (const auto start = in.tellg(); start != std::streampos(-1)) {
    if (auto summary = read_catalog_fast(in, limits, on_tool, given, spare_trees)) return *summary;
    in.clear();
    if (!in.seekg(start)) throw InputError("the input could not be read a second time");
  }
  std::size_t passed = 0;
  const std::function<void(CatalogTool &&)> after_given = [&](CatalogTool&& tool) {
    if (passed++ >= given) on_tool(std::move(tool));
  };
  ChunkedInput input(in, limits);
  CatalogHandler handler(limits, input, given == 0 ? on_tool : after_given, PlacedValues::as_read, spare_trees);
  const bool ok = nlohmann::json::sax_parse(ChunkedIterator(&input), ChunkedIterator(), &handler);
  input.throw_if_stopped(limits, handler.location());
  if (!ok) throw InputError(handler.error(), handler.error_pointer(), input.line());
  return summary_of(handler);
}

}  // namespace mcp_hints
