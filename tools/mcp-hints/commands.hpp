#pragma once
// The subcommands of mcp-hints; each takes its own arguments (argv[0] is the subcommand name)
// and returns the process exit code. An mcp_hints::Error a command does not catch ends the run
// in main, with the exit code of its category.
#include <string>
#include <vector>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints::cli {

// The exit codes (mcp_hints::ExitCode), as plain ints for the commands to return.
enum Exit {
  pass = static_cast<int>(ExitCode::pass),
  findings = static_cast<int>(ExitCode::findings),
  bad_input = static_cast<int>(ExitCode::bad_input),
  incomplete = static_cast<int>(ExitCode::incomplete),
};

int lint_command(const std::vector<std::string>& args);
int check_server_command(const std::vector<std::string>& args);
int mock_command(const std::vector<std::string>& args);
int model_command(const std::vector<std::string>& args);
int certify_command(const std::vector<std::string>& args);
int matrix_command(const std::vector<std::string>& args);
int vocab_command(const std::vector<std::string>& args);
int report_command(const std::vector<std::string>& args);
int translate_command(const std::vector<std::string>& args);
int infer_command(const std::vector<std::string>& args);

}  // namespace mcp_hints::cli
