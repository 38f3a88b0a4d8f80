// The library says what was wrong; the commands (tools/) say how to fix it on the command line.
// So no string literal in a library's sources names a flag ("--vocab"), except where a library
// runs a command line itself (listed below, with the reason).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

struct Literal {
  std::string file;  // relative to the folder scanned
  std::size_t line;
  std::string text;
};

// Literals that name a flag because the library runs that command line, not to say something.
const std::set<std::pair<std::string, std::string>> kCommandLines = {
    // The certification harness starts `mcp-hints mock` for each server of a scenario.
    {"conformance/src/client_harness.cpp", "--scenario"},
    {"conformance/src/client_harness.cpp", "--server"},
    {"conformance/src/client_harness.cpp", "--record"},
    {"conformance/src/client_harness.cpp", "--transport"},
    // A real host's version, for the report: `HOST --version`.
    {"conformance/src/hosts.cpp", "--version"},
};

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Every string literal of a C++ source, raw ones included, with the line it starts on; comments
// and character literals are skipped.
std::vector<Literal> string_literals(const std::string& file, const std::string& s) {
  std::vector<Literal> out;
  std::size_t line = 1;
  auto skip_to = [&](std::size_t from, const std::string& end) {
    const auto at = s.find(end, from);
    const std::size_t stop = at == std::string::npos ? s.size() : at + end.size();
    for (std::size_t k = from; k < stop; ++k) line += s[k] == '\n';
    return stop;
  };
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos) break;
    } else if (s.compare(i, 2, "/*") == 0) {
      i = skip_to(i, "*/");
    } else if (s[i] == '\'' && (i == 0 || !identifier_char(s[i - 1]))) {
      for (++i; i < s.size() && s[i] != '\''; ++i) i += s[i] == '\\';
      ++i;
    } else if (s[i] == '"' && i > 0 && s[i - 1] == 'R' &&
               (i == 1 || !identifier_char(s[i - 2]) || s[i - 2] == '8' || s[i - 2] == 'L' || s[i - 2] == 'u' ||
                s[i - 2] == 'U')) {
      const auto open = s.find('(', i);
      const std::string end = ")" + s.substr(i + 1, open - i - 1) + "\"";
      const std::size_t start_line = line, body = open + 1;
      i = skip_to(body, end);
      out.push_back({file, start_line, s.substr(body, i - end.size() - body)});
    } else if (s[i] == '"') {
      std::string text;
      for (++i; i < s.size() && s[i] != '"' && s[i] != '\n'; ++i) {
        if (s[i] == '\\') text += s[i++];
        text += s[i];
      }
      out.push_back({file, line, text});
      ++i;
    } else {
      line += s[i] == '\n';
      ++i;
    }
  }
  return out;
}

struct Scan {
  std::vector<Literal> flags;                             // literals that name a flag
  std::set<std::pair<std::string, std::string>> allowed;  // the kCommandLines entries seen
};

// The string literals under root/folder (*.cpp, *.hpp) that name a flag: "--" and a letter,
// starting a word.
Scan scan(const fs::path& root, const std::vector<std::string>& folders) {
  static const std::regex flag("(^|[^A-Za-z0-9-])--[a-z]");
  Scan result;
  for (const auto& folder : folders)
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      const std::string file = fs::relative(entry.path(), root).generic_string();
      for (auto& literal : string_literals(file, test_support::read_file(entry.path()))) {
        if (!std::regex_search(literal.text, flag)) continue;
        if (kCommandLines.count({file, literal.text}))
          result.allowed.insert({file, literal.text});
        else
          result.flags.push_back(std::move(literal));
      }
    }
  return result;
}

TEST(Design, LibraryMessagesNameNoFlag) {
  const auto result = scan(test_support::source_dir(), {"core", "mock-servers", "conformance"});
  for (const auto& l : result.flags)
    ADD_FAILURE() << l.file << ":" << l.line << ": \"" << l.text
                  << "\" names a flag: say what was wrong, and let the command that took the flag say it";
  // An allowance that no longer matches anything goes.
  EXPECT_EQ(result.allowed, kCommandLines);
}

TEST(Design, FlagScanCatchesAPlantedMessage) {
  const auto result = scan(test_support::source_dir() / "tests" / "design" / "flag-messages", {"core"});
  std::vector<std::pair<std::size_t, std::string>> found;
  for (const auto& l : result.flags) found.emplace_back(l.line, l.text);
  const std::vector<std::pair<std::size_t, std::string>> planted = {{11, "raw strings count:\n  --raw-flag"},
                                                                    {13, ": give --frobnicate"}};
  EXPECT_EQ(found, planted);
}

}  // namespace
