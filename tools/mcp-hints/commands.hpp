#pragma once
// The subcommands of mcp-hints; each takes its own arguments (argv[0] is the subcommand name)
// and returns the process exit code.
#include <string>
#include <vector>

namespace mcp_hints::cli {

// Exit codes shared by every command.
enum Exit { pass = 0, findings = 1, bad_input = 2, incomplete = 3 };

int lint_command(const std::vector<std::string>& args);
int check_server_command(const std::vector<std::string>& args);
int mock_command(const std::vector<std::string>& args);
int certify_command(const std::vector<std::string>& args);
int vocab_command(const std::vector<std::string>& args);
int report_command(const std::vector<std::string>& args);
int translate_command(const std::vector<std::string>& args);
int infer_command(const std::vector<std::string>& args);

}  // namespace mcp_hints::cli
