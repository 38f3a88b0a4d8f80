#pragma once
// The one root of every error the library throws on purpose, and the exit-code contract it maps
// to. A std::exception that is not an Error is a bug, or the machine giving out (memory).
#include <stdexcept>
#include <string>
#include <utility>

namespace mcp_hints {

// The exit codes of every mcp-hints program: the numbers live here and nowhere else.
enum class ExitCode : int { pass = 0, findings = 1, bad_input = 2, incomplete = 3 };

class Error : public std::runtime_error {
 public:
  enum class Category {
    bad_input,   // what the run was given cannot be used (a file, a scenario, an option): fix it, run again
    incomplete,  // the run could not finish (a server or client that failed, hung or spoke nonsense)
  };
  Error(Category category, const std::string& what) : std::runtime_error(what), category_(category) {}
  Category category() const { return category_; }

 private:
  Category category_;
};

constexpr ExitCode exit_code(Error::Category category) {
  return category == Error::Category::bad_input ? ExitCode::bad_input : ExitCode::incomplete;
}

// An option a library call cannot use (a member of LintOptions, TranslateOptions, ...): what()
// says which value and why, in the library's words; option() names the member, so a program
// can say which of its own flags or settings gave it.
class OptionError : public Error {
 public:
  OptionError(std::string option, const std::string& what)
      : Error(Category::bad_input, what), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

}  // namespace mcp_hints
