// A JSON object's member by name (mcp_hints/json/member.hpp): found only where the value is an
// object holding exactly that name, and given as the member itself, not a copy.
#include "mcp_hints/json/member.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using json = nlohmann::json;
using mcp_hints::compare_names;
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

namespace {

// Names that differ in their first byte, in a later one, in length only, in bytes past ASCII (which
// std::string orders as unsigned), and with NULs inside.
std::vector<std::string> awkward_names() {
  std::vector<std::string> names = {"",
                                    "a",
                                    "b",
                                    "ab",
                                    "abc",
                                    "abd",
                                    "abcd",
                                    "B",
                                    "_",
                                    "~",
                                    "a b",
                                    "a\x7f",
                                    "a\x80",
                                    "\x80",
                                    "\xff",
                                    "\xff\xff",
                                    "\xc3\xa9",
                                    "e\xcc\x81",
                                    "com.example/riskLevel",
                                    "com.example/category",
                                    "com.example/",
                                    "mcp.dev/effect",
                                    "mcp.dev/effects",
                                    "mcp.dev/effecT"};
  names.push_back(std::string("\0", 1));
  names.push_back(std::string("a\0", 2));
  names.push_back(std::string("a\0b", 3));
  names.push_back(std::string("\0\0", 2));
  return names;
}

int sign(int order) { return (order > 0) - (order < 0); }

// A name for a failure's message, whatever its bytes.
std::string shown(const std::string& name) { return json(name).dump(-1, ' ', true, json::error_handler_t::replace); }

}  // namespace

TEST(Member, NamesAreOrderedAsStdStringOrdersThem) {
  // The map's descent compares with compare_names; any order but std::string's would lose members.
  const auto names = awkward_names();
  for (const auto& a : names)
    for (const auto& b : names)
      EXPECT_EQ(sign(compare_names(a, b)), sign(a.compare(b))) << shown(a) << " against " << shown(b);
}

TEST(Member, IsFoundInObjectsOfEveryShape) {
  // Objects of 1 to 40 members drawn from the awkward names and random ones (bytes of the whole
  // range, lengths 0 to 24): each member is found, as itself, and no name left out is.
  std::mt19937 random(20261127);
  auto names = awkward_names();
  for (int i = 0; i < 200; ++i) {
    std::string name(random() % 25, '\0');
    for (auto& c : name) c = static_cast<char>(random() % 4 == 0 ? 'a' + random() % 3 : random() % 256);
    names.push_back(name);
  }
  for (int round = 0; round < 300; ++round) {
    std::shuffle(names.begin(), names.end(), random);
    const std::size_t size = 1 + random() % 40;
    json::object_t object;
    for (std::size_t i = 0; i < size; ++i) object.emplace(names[i], static_cast<int>(i));
    const json value(object);
    for (const auto& name : names) {
      const auto expected = value.get_ref<const json::object_t&>().find(name);
      const json* found = member(value, name);
      if (expected == value.get_ref<const json::object_t&>().end()) {
        EXPECT_EQ(found, nullptr) << shown(name);
      } else {
        EXPECT_EQ(found, &expected->second) << shown(name);
      }
    }
  }
}
