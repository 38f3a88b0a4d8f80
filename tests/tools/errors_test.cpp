// One error root: every error the library throws on purpose is an mcp_hints::Error, and its
// category gives the exit code the command ends with.
#include <gtest/gtest.h>

#include <type_traits>

#include "mcp_hints/json/canonical.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/live/check_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace {

using namespace mcp_hints;
using Category = Error::Category;

static_assert(std::is_base_of_v<std::runtime_error, Error>);
static_assert(std::is_base_of_v<Error, InputError>);
static_assert(std::is_base_of_v<Error, CanonicalizationError>);
static_assert(std::is_base_of_v<Error, TransportError>);
static_assert(std::is_base_of_v<Error, ProtocolError>);
static_assert(std::is_base_of_v<Error, ProcessError>);
static_assert(std::is_base_of_v<Error, CallRefused>);
static_assert(std::is_base_of_v<Error, mock::ScenarioError>);
static_assert(std::is_base_of_v<Error, OptionError>);

TEST(Errors, CategoriesMapToTheExitCodeContract) {
  EXPECT_EQ(static_cast<int>(ExitCode::pass), 0);
  EXPECT_EQ(static_cast<int>(ExitCode::findings), 1);
  EXPECT_EQ(static_cast<int>(ExitCode::bad_input), 2);
  EXPECT_EQ(static_cast<int>(ExitCode::incomplete), 3);
  EXPECT_EQ(exit_code(Category::bad_input), ExitCode::bad_input);
  EXPECT_EQ(exit_code(Category::incomplete), ExitCode::incomplete);
}

TEST(Errors, EachKindHasItsCategory) {
  auto category = [](const Error& e) { return e.category(); };
  // What the run was given cannot be used: fix it and run again.
  EXPECT_EQ(category(InputError("x", "/tools/0", 3)), Category::bad_input);
  EXPECT_EQ(category(CanonicalizationError("x")), Category::bad_input);
  EXPECT_EQ(category(CallRefused("delete_pod", "refused", true)), Category::bad_input);
  EXPECT_EQ(category(mock::ScenarioError("x")), Category::bad_input);
  EXPECT_EQ(category(OptionError("pinned", "x")), Category::bad_input);
  // The run could not finish: the peer failed, hung or spoke nonsense.
  EXPECT_EQ(category(TransportError("x")), Category::incomplete);
  EXPECT_EQ(category(ProtocolError("x")), Category::incomplete);
  EXPECT_EQ(category(ProtocolError("x", {{"code", -32601}})), Category::incomplete);
  EXPECT_EQ(category(ProcessError("x")), Category::incomplete);
}

TEST(Errors, KeepWhatTheyCarry) {
  const InputError input("not valid JSON", "/tools/0", 3);
  EXPECT_STREQ(input.what(), "not valid JSON");
  EXPECT_EQ(input.pointer(), "/tools/0");
  EXPECT_EQ(input.line(), 3u);
  const OptionError option("meta_prefix", "'a/b' is not a prefix of your own");
  EXPECT_EQ(option.option(), "meta_prefix");
  const CallRefused refused("delete_pod", "refused, its effect is delete", true);
  EXPECT_STREQ(refused.what(), "tools/call delete_pod: refused, its effect is delete");
  EXPECT_EQ(refused.tool(), "delete_pod");
  EXPECT_EQ(refused.why(), "refused, its effect is delete");
  EXPECT_TRUE(refused.side_effects());
  EXPECT_EQ(ProtocolError("x", {{"code", -32601}}).error["code"], -32601);
}

}  // namespace
