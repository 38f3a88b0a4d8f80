// A JSON object's member by name (mcp_hints/json/member.hpp): found only where the value is an
// object holding exactly that name, and given as the member itself, not a copy.
#include "mcp_hints/json/member.hpp"

#include <string>

#include <gtest/gtest.h>

using json = nlohmann::json;
using mcp_hints::member;
using mcp_hints::string_member;

TEST(Member, IsFoundOnlyUnderItsExactName) {
  const json object = {{"a", 1}, {"ab", "text"}, {"abc", json::array()}, {std::string("a\0b", 3), true}, {"", 0}};
  for (const auto& [name, value] : object.items()) {
    const json* found = member(object, name);
    ASSERT_NE(found, nullptr) << name;
    EXPECT_EQ(found, &object.find(name).value()) << "the member itself, for " << name;
  }
  for (const std::string& missing : {std::string("b"), std::string("A"), std::string("abcd"), std::string("a\0", 2),
                                     std::string("a\0c", 3), std::string(" a"), std::string("a ")})
    EXPECT_EQ(member(object, missing), nullptr) << missing;
  for (const json& other : {json(), json::array({"a"}), json("a"), json(1), json(true), json::object()})
    EXPECT_EQ(member(other, "a"), nullptr) << other.dump();
}

TEST(Member, IsAStringMemberOnlyWhenItIsAString) {
  const json object = {{"s", "text"}, {"n", 1}, {"z", nullptr}, {"o", {{"s", "inner"}}}, {"a", {"s"}}};
  ASSERT_NE(string_member(object, "s"), nullptr);
  EXPECT_EQ(string_member(object, "s"), &object["s"].get_ref<const std::string&>());
  for (const char* name : {"n", "z", "o", "a", "missing"}) EXPECT_EQ(string_member(object, name), nullptr) << name;
  EXPECT_EQ(string_member(json("s"), "s"), nullptr);
  EXPECT_EQ(*string_member(object["o"], "s"), "inner");
}
