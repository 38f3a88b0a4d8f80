#pragma once
// Writes a JSON document to a stream piece by piece, byte for byte as nlohmann::json::dump(indent)
// would write the whole document (invalid UTF-8 replaced), so a report of a million findings is
// written as it is made and never held as one DOM or one string. The caller opens objects and
// arrays, names members and gives values; within an object it gives the members in the order
// dump would write them (nlohmann::json sorts keys).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints {

class JsonStreamWriter {
 public:
  // indent: spaces per level, as dump's first argument (0 or more; dump's -1, one line, is not
  // supported: a streamed report is for people and tools that read it whole alike).
  // depth: the nesting at which the first value is written, for a piece of a document written
  // apart (an array spilled to disk until the members before it are known) and put in with raw().
  JsonStreamWriter(std::ostream& out, int indent, std::size_t depth = 0);
  ~JsonStreamWriter();  // writes what is still held (a document left open is left unfinished)
  JsonStreamWriter(const JsonStreamWriter&) = delete;
  JsonStreamWriter& operator=(const JsonStreamWriter&) = delete;

  void begin_object();
  void begin_array();
  void end();                               // the innermost object or array
  void key(std::string_view name);          // the next member of the innermost object; std::logic_error
                                            // when not after the previous one in dump's order
  void value(const nlohmann::json& value);  // a whole value: an array element, a member's, or the document
  // The same for a string or a number, without making a json of it first.
  void text(std::string_view s);
  void number(std::uint64_t n);
  void member(std::string_view name, const nlohmann::json& v) {
    key(name);
    value(v);
  }
  // A whole object (as an element, a member's value or the document): the members of `members`
  // and those `streamed` writes (each function writes its member's value), in dump's order.
  using Streamed = std::map<std::string, std::function<void()>, std::less<>>;
  void object(const nlohmann::json& members, const Streamed& streamed);
  // A value written elsewhere already, at this place's depth (see depth above), put in as it is.
  void raw(const std::function<void(std::ostream&)>& write);

 private:
  void before_value();
  void after_value();
  void flush();
  void newline(std::size_t depth);

  std::ostream& out_;
  int indent_;
  std::size_t base_depth_;
  struct Level {
    bool object = false;
    bool empty = true;
    std::string last_key;
  };
  std::vector<Level> open_;
  bool after_key_ = false;
  std::string pending_;  // text not yet written to out_ (see flush)
};

}  // namespace mcp_hints
