#include "mcp_hints/wire/jsonrpc.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;

TEST(JsonRpc, BuildsMessages) {
  EXPECT_EQ(rpc::request(1, "tools/list"), json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  EXPECT_EQ(rpc::request("a", "x", json{{"k", 1}})["params"]["k"], 1);
  EXPECT_FALSE(rpc::notification("n").contains("id"));
  EXPECT_EQ(rpc::error(3, rpc::method_not_found, "no")["error"]["code"], -32601);
  EXPECT_EQ(rpc::result(3, json::object())["result"], json::object());
  // Whole, member by member.
  EXPECT_EQ(rpc::request("a", "x", json{{"k", 1}}),
            json::parse(R"({"jsonrpc":"2.0","id":"a","method":"x","params":{"k":1}})"));
  EXPECT_EQ(rpc::notification("n", json::array({1})), json::parse(R"({"jsonrpc":"2.0","method":"n","params":[1]})"));
  EXPECT_EQ(rpc::result(nullptr, "r"), json::parse(R"({"jsonrpc":"2.0","id":null,"result":"r"})"));
  EXPECT_EQ(rpc::error(3, rpc::method_not_found, "no"),
            json::parse(R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}})"));
}

TEST(JsonRpc, ClassifiesMessagesAndRejectsMalformedOnes) {
  EXPECT_EQ(rpc::classify(rpc::request(1, "m")), rpc::Kind::request);
  EXPECT_EQ(rpc::classify(rpc::notification("m")), rpc::Kind::notification);
  EXPECT_EQ(rpc::classify(rpc::result("x", 1)), rpc::Kind::result);
  EXPECT_EQ(rpc::classify(rpc::error(1, -1, "e")), rpc::Kind::error);
  EXPECT_EQ(rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})")),
            rpc::Kind::error);
  for (const char* bad :
       {R"([])", R"(1)", R"({"id":1,"method":"m"})", R"({"jsonrpc":"1.0","id":1,"method":"m"})",
        R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", R"({"jsonrpc":"2.0","id":1,"method":3})",
        R"({"jsonrpc":"2.0","id":1,"method":"m","params":3})", R"({"jsonrpc":"2.0","id":1})",
        R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1}})",
        R"({"jsonrpc":"2.0","id":1,"error":{"message":"no code"}})", R"({"jsonrpc":2.0,"id":1,"method":"m"})",
        R"({"jsonrpc":"2.0","id":null,"method":"m"})", R"({"jsonrpc":"2.0","id":true,"result":1})",
        R"({"jsonrpc":"2.0","id":null,"result":1})", R"({"jsonrpc":"2.0","id":1,"error":"bad"})",
        R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5}})",
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-1},"result":1})", R"({"jsonrpc":"2.0"})"})
    EXPECT_EQ(rpc::classify(json::parse(bad)), rpc::Kind::invalid) << bad;
  EXPECT_EQ(rpc::classify(json::parse(R"({"jsonrpc":"2.0","method":"m","params":[1]})")), rpc::Kind::notification);
  EXPECT_EQ(rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":"x","method":"m","params":{}})")), rpc::Kind::request);
  EXPECT_EQ(rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":"x","result":null})")), rpc::Kind::result);
  EXPECT_EQ(rpc::describe(rpc::request(1, "tools/list")), "request tools/list");
  EXPECT_EQ(rpc::describe(json(1)), "malformed message");
}

TEST(JsonRpc, EnvelopeHoldsEachMemberByItsExactNameOnly) {
  // Every subset of the six names, among names of the same lengths and near spellings: each
  // pointer is the message's own member of exactly that name, or null when it has none.
  const std::vector<std::string> names = {"jsonrpc", "id", "method", "params", "result", "error"};
  const std::vector<std::string> decoys = {"Id",      "iD",     "ix",     "i",     "idd",    "JSONRPC", "jsonrpx",
                                           "method_", "Method", "methos", "param", "paramS", "results", "resulT",
                                           "errors",  "Error",  "errir",  "",      "abcdef", "zzzzzzz", "xi"};
  for (unsigned subset = 0; subset < 64; ++subset) {
    json message = json::object();
    for (const auto& decoy : decoys) message[decoy] = "decoy " + decoy;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (subset & (1u << i)) message[names[i]] = names[i];
    const rpc::Envelope e = rpc::envelope_of(message);
    const json* found[] = {e.jsonrpc, e.id, e.method, e.params, e.result, e.error};
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (subset & (1u << i))
        EXPECT_EQ(found[i], &message.at(names[i])) << names[i] << " in " << message.dump();
      else
        EXPECT_EQ(found[i], nullptr) << names[i] << " in " << message.dump();
    }
  }
  for (const json& other : {json(), json::array({json{{"id", 1}}}), json("id"), json(1)}) {
    const rpc::Envelope e = rpc::envelope_of(other);
    for (const json* member : {e.jsonrpc, e.id, e.method, e.params, e.result, e.error}) EXPECT_EQ(member, nullptr);
  }
}
