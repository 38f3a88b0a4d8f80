#include "mcp_hints/json/canonical.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "mcp_hints/json/text.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// JCS orders member names by their UTF-16 code units.
std::u16string utf16(const std::string& utf8) {
  std::u16string out;
  for (std::size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    char32_t cp;
    std::size_t n;
    if (c < 0x80) {
      cp = c;
      n = 1;
    } else if ((c >> 5) == 0x6) {
      cp = c & 0x1f;
      n = 2;
    } else if ((c >> 4) == 0xe) {
      cp = c & 0x0f;
      n = 3;
    } else {
      cp = c & 0x07;
      n = 4;
    }
    for (std::size_t k = 1; k < n && i + k < utf8.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3f);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xd800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xdc00 + (cp & 0x3ff)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

void jcs(const json& v, std::string& out) {
  switch (v.type()) {
    case json::value_t::object: {
      std::vector<std::pair<std::u16string, const std::string*>> keys;
      for (auto it = v.begin(); it != v.end(); ++it) keys.emplace_back(utf16(it.key()), &it.key());
      std::sort(keys.begin(), keys.end());
      out += '{';
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, *keys[i].second);  // JSON.stringify's string form, which JCS uses
        out += ':';
        jcs(v.at(*keys[i].second), out);
      }
      out += '}';
      return;
    }
    case json::value_t::array:
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        jcs(v[i], out);
      }
      out += ']';
      return;
    case json::value_t::string: append_json_string(out, v.get_ref<const std::string&>()); return;
    case json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case json::value_t::null: out += "null"; return;
    case json::value_t::number_integer: out += std::to_string(v.get<std::int64_t>()); return;
    case json::value_t::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); return;
    default:
      throw CanonicalizationError("a " + std::string(v.type_name()) +
                                  " is outside the extension's value profile (no floats)");
  }
}

void cbor_head(std::uint8_t major, std::uint64_t value, std::string& out) {
  const auto put = [&](int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((value >> (8 * i)) & 0xff);
  };
  if (value < 24) {
    out += static_cast<char>((major << 5) | value);
  } else if (value <= 0xff) {
    out += static_cast<char>((major << 5) | 24);
    put(1);
  } else if (value <= 0xffff) {
    out += static_cast<char>((major << 5) | 25);
    put(2);
  } else if (value <= 0xffffffffULL) {
    out += static_cast<char>((major << 5) | 26);
    put(4);
  } else {
    out += static_cast<char>((major << 5) | 27);
    put(8);
  }
}

// CBOR core deterministic encoding (RFC 8949 §4.2.1): shortest heads, definite lengths, map keys
// in the bytewise order of their encodings.
void cbor(const json& v, std::string& out) {
  switch (v.type()) {
    case json::value_t::object: {
      std::vector<std::pair<std::string, const json*>> members;
      for (auto it = v.begin(); it != v.end(); ++it) {
        std::string key;
        cbor_head(3, it.key().size(), key);
        key += it.key();
        members.emplace_back(std::move(key), &it.value());
      }
      std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      cbor_head(5, members.size(), out);
      for (const auto& [key, value] : members) {
        out += key;
        cbor(*value, out);
      }
      return;
    }
    case json::value_t::array:
      cbor_head(4, v.size(), out);
      for (const auto& item : v) cbor(item, out);
      return;
    case json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      cbor_head(3, s.size(), out);
      out += s;
      return;
    }
    case json::value_t::boolean: out += static_cast<char>(v.get<bool>() ? 0xf5 : 0xf4); return;
    case json::value_t::null: out += static_cast<char>(0xf6); return;
    case json::value_t::number_unsigned: cbor_head(0, v.get<std::uint64_t>(), out); return;
    case json::value_t::number_integer: {
      const std::int64_t n = v.get<std::int64_t>();
      if (n >= 0)
        cbor_head(0, static_cast<std::uint64_t>(n), out);
      else
        cbor_head(1, static_cast<std::uint64_t>(-(n + 1)), out);
      return;
    }
    default:
      throw CanonicalizationError("a " + std::string(v.type_name()) +
                                  " is outside the extension's value profile (no floats)");
  }
}

}  // namespace

std::string canonical_bytes(const json& record, std::string_view canonicalization) {
  std::string out;
  if (canonicalization == "jcs/rfc8785")
    jcs(record, out);
  else if (canonicalization == "cbor/rfc8949")
    cbor(record, out);
  else
    throw CanonicalizationError("unknown canonicalization \"" + std::string(canonicalization) +
                                "\" (jcs/rfc8785, cbor/rfc8949)");
  return out;
}

}  // namespace mcp_hints
