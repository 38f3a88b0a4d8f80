// The one set of text helpers every message and report uses.
#include "mcp_hints/json/text.hpp"

#include <gtest/gtest.h>

#include <random>

#include <string>
#include <vector>

#include "json_samples.hpp"

using json = nlohmann::json;

TEST(Text, JoinPutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(mcp_hints::join(std::vector<std::string>{}), "");
  EXPECT_EQ(mcp_hints::join(std::vector<std::string>{"a"}), "a");
  EXPECT_EQ(mcp_hints::join(std::vector<std::string>{"a", "", "c"}), "a, , c");
  EXPECT_EQ(mcp_hints::join(std::vector<std::string>{"a", "b"}, " and "), "a and b");
}

// Every byte but A-Z is kept, so a name with UTF-8 in it compares as written.
TEST(Text, AsciiLowerLowersTheAsciiLettersAlone) {
  EXPECT_EQ(mcp_hints::ascii_lower("Read-Only_HINT 2 @[`{"), "read-only_hint 2 @[`{");
  EXPECT_EQ(mcp_hints::ascii_lower("\xC3\x89T\xC3\x89 \xFF"), "\xC3\x89t\xC3\x89 \xFF");
  EXPECT_EQ(mcp_hints::ascii_lower(""), "");
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte += static_cast<char>(c);
  const std::string lowered = mcp_hints::ascii_lower(every_byte);
  ASSERT_EQ(lowered.size(), 256u);
  for (int c = 0; c < 256; ++c)
    EXPECT_EQ(static_cast<unsigned char>(lowered[static_cast<std::size_t>(c)]), c >= 'A' && c <= 'Z' ? c + 32 : c) << c;
}

TEST(Text, ShortenKeepsShortTextAndCutsLongTextOnACharacterBoundary) {
  EXPECT_EQ(mcp_hints::shorten("abcdef", 6), "abcdef");
  EXPECT_EQ(mcp_hints::shorten("abcdefg", 6), "abc...");
  EXPECT_EQ(mcp_hints::shorten(std::string(100, 'x'), 80).size(), 80u);
  // "é" is two bytes: a cut that would fall inside it backs up before it.
  const std::string cut = mcp_hints::shorten(
      "ab\xc3\xa9"
      "defgh",
      6);
  EXPECT_EQ(cut, "ab...");
  EXPECT_LE(cut.size(), 6u);
}

TEST(Text, PrintableShowsControlCharactersEscapedOnOneShortLine) {
  EXPECT_EQ(mcp_hints::printable("a\x1b[2Jb\n\xc3\xa9\xff", 80), "a\\x1b[2Jb\\n\xc3\xa9\\xff");
  EXPECT_EQ(mcp_hints::printable(std::string(200, 'x'), 120).size(), 120u);
}

TEST(Text, ValuesAreShownAsJsonAndStringsAsTheyAre) {
  EXPECT_EQ(mcp_hints::value_text(json("read")), "read");
  EXPECT_EQ(mcp_hints::value_text(json{{"a", 1}}), R"({"a":1})");
  EXPECT_EQ(mcp_hints::shown(json("read")), R"("read")");
  EXPECT_EQ(mcp_hints::shown(json(std::string(200, 'x'))).size(), 80u);
  EXPECT_EQ(mcp_hints::shown(json("\xff")), "\"\xef\xbf\xbd\"");  // invalid UTF-8 does not throw
}

TEST(Text, EscapersMakeTextSafeForTheirFormat) {
  EXPECT_EQ(mcp_hints::markdown_cell("a|b\nc\rd\x1b"), "a\\|b\\nc\\rd\\x1b");
  EXPECT_EQ(mcp_hints::html_escape(R"(<a href="x">'&'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(mcp_hints::html_escape("a\x01\tb\n<\xff"), "a\\x01\tb\n&lt;\\xff");
}

// Both escapers append runs of plain text whole. Against their definitions, one byte at a time
// (visible: printable ASCII kept, \n \t \r named, other control bytes and invalid UTF-8 as \xNN,
// C1 as \u00NN; html_escape: the five entities, tabs and line breaks kept, the rest as visible
// shows it), over random strings drawn from bytes that meet every branch and sequence edge.
TEST(Text, EscapersAgreeWithTheirDefinitionsOverRandomBytes) {
  const auto hex = [](std::string& out, const char* prefix, unsigned value, int digits) {
    out += prefix;
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += "0123456789abcdef"[(value >> shift) & 0xf];
  };
  const auto sequence_length = [](std::string_view t) -> std::size_t {
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(t[i]); };
    std::size_t n = b(0) >= 0xc2 && b(0) <= 0xdf   ? 2
                    : b(0) >= 0xe0 && b(0) <= 0xef ? 3
                    : b(0) >= 0xf0 && b(0) <= 0xf4 ? 4
                                                   : 0;
    if (n == 0 || t.size() < n) return 0;
    const unsigned low = b(0) == 0xe0 ? 0xa0 : b(0) == 0xf0 ? 0x90 : 0x80;
    const unsigned high = b(0) == 0xed ? 0x9f : b(0) == 0xf4 ? 0x8f : 0xbf;
    if (b(1) < low || b(1) > high) return 0;
    for (std::size_t i = 2; i < n; ++i)
      if ((b(i) & 0xc0) != 0x80) return 0;
    return n;
  };
  const auto visible_by_definition = [&](std::string_view t) {
    std::string out;
    for (std::size_t i = 0; i < t.size();) {
      const auto c = static_cast<unsigned char>(t[i]);
      const std::size_t n = c >= 0x80 ? sequence_length(t.substr(i)) : 0;
      if (c >= 0x20 && c < 0x7f)
        out += static_cast<char>(c);
      else if (c == '\n' || c == '\t' || c == '\r')
        out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
      else if (n == 0)
        hex(out, "\\x", c, 2);
      else if (c == 0xc2 && static_cast<unsigned char>(t[i + 1]) < 0xa0)
        hex(out, "\\u", static_cast<unsigned char>(t[i + 1]), 4);
      else
        out += t.substr(i, n);
      i += n == 0 ? 1 : n;
    }
    return out;
  };
  const auto html_by_definition = [&](std::string_view t) {
    std::string out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= t.size(); ++i) {
      if (i < t.size() && t[i] != '\t' && t[i] != '\n' && t[i] != '\r') continue;
      for (char c : visible_by_definition(t.substr(start, i - start)))
        out += c == '&'    ? "&amp;"
               : c == '<'  ? "&lt;"
               : c == '>'  ? "&gt;"
               : c == '"'  ? "&quot;"
               : c == '\'' ? "&apos;"
                           : std::string(1, c);
      if (i < t.size()) out += t[i];
      start = i + 1;
    }
    return out;
  };
  const std::string alphabet =
      std::string("aZ ~&<>\"'\t\n\r\x01\x1f\x7f\x80\x9f\xa0\xbf\xc0\xc1\xc2\xc3\xdf\xe0\xe2\xed\xef\xf0\xf4\xf5\xff") +
      '\0';
  std::mt19937 random(20261127);
  for (int round = 0; round < 20000; ++round) {
    std::string text(random() % 24, ' ');
    for (auto& c : text) c = alphabet[random() % alphabet.size()];
    ASSERT_EQ(mcp_hints::visible(text), visible_by_definition(text)) << testing::PrintToString(text);
    ASSERT_EQ(mcp_hints::html_escape(text), html_by_definition(text)) << testing::PrintToString(text);
  }
}

TEST(Text, VisibleEscapesEveryControlCharacterAndKeepsPrintableText) {
  EXPECT_EQ(mcp_hints::visible("\x1b[2J\x1b[31mred"), "\\x1b[2J\\x1b[31mred");
  EXPECT_EQ(mcp_hints::visible("a\tb\nc\rd\x07\x7f"), "a\\tb\\nc\\rd\\x07\\x7f");
  EXPECT_EQ(mcp_hints::visible("\xc2\x9b"
                               "1m"),
            "\\u009b1m");  // C1 CSI
  EXPECT_EQ(mcp_hints::visible("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82"),
            "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82");
  EXPECT_EQ(mcp_hints::visible("\xff\xc3"), "\\xff\\xc3");                             // invalid, cut short
  EXPECT_EQ(mcp_hints::visible("\xc0\xaf\xed\xa0\x80"), "\\xc0\\xaf\\xed\\xa0\\x80");  // overlong, surrogate
}

TEST(Text, ClosestNameFindsSmallTyposAndNothingFarOff) {
  const std::vector<std::string> names = {"lint", "check-server", "certify", "confirm.min-trust", "confirm.min-risk"};
  EXPECT_EQ(mcp_hints::closest_name("lnit", names), "lint");
  EXPECT_EQ(mcp_hints::closest_name("certfy", names), "certify");
  EXPECT_EQ(mcp_hints::closest_name("confirm.min-trus", names), "confirm.min-trust");
  EXPECT_EQ(mcp_hints::closest_name("check", names), "check-server");  // the only one it starts
  EXPECT_EQ(mcp_hints::closest_name("confirm", names), std::nullopt);  // starts two: ambiguous
  EXPECT_EQ(mcp_hints::closest_name("vocabulary", names), std::nullopt);
  EXPECT_EQ(mcp_hints::closest_name("", names), std::nullopt);
  EXPECT_EQ(mcp_hints::did_you_mean("lnt", names), " (did you mean 'lint'?)");
  EXPECT_EQ(mcp_hints::did_you_mean("zzz", names), "");
  // Lengths apart by more than the typos allowed are no match, and a name of megabytes is no
  // typo of anything (found by fuzz/expected_failures: a 4 KB name took seconds).
  EXPECT_EQ(mcp_hints::closest_name("lintxyz", names), std::nullopt);
  EXPECT_EQ(mcp_hints::closest_name("lintxy", names), "lint");
  EXPECT_EQ(mcp_hints::closest_name(std::string(std::size_t{8} << 20, 'l'), names), std::nullopt);
}

TEST(Text, WrapBreaksBetweenWordsAtTheWidthAndKeepsInnerSpacing) {
  EXPECT_EQ(mcp_hints::wrap("aa bb cc dd", 5), "aa bb\ncc dd");
  EXPECT_EQ(mcp_hints::wrap("aa bb cc", 5, 2), "aa bb\n  cc");
  EXPECT_EQ(mcp_hints::wrap("MUST    title", 80), "MUST    title");
  EXPECT_EQ(mcp_hints::wrap("a-word-longer-than-the-width x", 5), "a-word-longer-than-the-width\nx");
  EXPECT_EQ(mcp_hints::wrap("\xc3\xa9\xc3\xa9\xc3\xa9 abc", 7), "\xc3\xa9\xc3\xa9\xc3\xa9 abc");  // é counts once
  EXPECT_EQ(mcp_hints::padded("MUST", 8), "MUST    ");
  EXPECT_EQ(mcp_hints::padded("TOO-LONG-LEVEL", 8), "TOO-LONG-LEVEL ");
}

TEST(Text, ColumnsAlignTheSecondColumnAndWrapItUnderItself) {
  const std::vector<mcp_hints::Row> rows = {
      {"a", "one two three"}, {"bbb", "four"}, {"a-very-long-first-cell", "five"}};
  EXPECT_EQ(mcp_hints::columns(rows, 2, 5, 14),
            "  a    one two\n"
            "       three\n"
            "  bbb  four\n"
            "  a-very-long-first-cell\n"
            "       five\n");
}

// A value's JSON text is dump's, byte for byte, at every indent: for random documents that use
// the whole grammar, every byte alone in a key and a value (escaped, kept or replaced as invalid
// UTF-8), every kind of number, empty and nested containers, and values that are not containers.
TEST(Text, JsonTextIsWhatDumpWrites) {
  std::vector<json> values;
  json_samples::Documents documents(7);
  for (int i = 0; i < 2000; ++i) values.push_back(json::parse(documents.next()));
  json bytes = json::object();
  for (int byte = 0; byte < 256; ++byte) {
    const std::string text = std::string("a") + static_cast<char>(byte) + "b";
    bytes[text] = json::array({text, std::string(1, static_cast<char>(byte))});
  }
  values.push_back(bytes);
  // Invalid UTF-8 of every kind (dump replaces it) beside valid characters of two to four bytes.
  for (const std::string bad :
       {"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80",
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\x80", "\xbf\xbf", "\xf0\x9f\x98", "\xe2\x82", "\xc3"})
    values.push_back(
        json{{"a\xc3\xa9" + bad + "b\xe2\x86\x92", json::array({bad + "\xf0\x9f\x98\x80\n", "\x7f" + bad})}});
  values.push_back(json{{"truncated", std::string("\xe2\x86", 2)},
                        {std::string("\xff", 1), std::string("\xc3\xa9\xc0 \xf0\x9f\x98\x80", 8)},
                        {"numbers",
                         {0, -1, 1, -9223372036854775807LL - 1, 9223372036854775807LL, 18446744073709551615ULL, 0U, 0.1,
                          -0.0, 0.0, 1e300, -2.5e-8, 3.0}},
                        {"empty", {{"object", json::object()}, {"array", json::array()}, {"string", ""}}},
                        {"nested", json::array({json::array({json::array()}), json::object({{"", nullptr}})})},
                        {"literals", {true, false, nullptr}}});
  for (json scalar : {json(), json(true), json(-7), json(7U), json(1.5), json("x"), json::array(), json::object()})
    values.push_back(scalar);
  for (const auto& value : values)
    for (int indent : {-1, 0, 1, 2, 4}) {
      const std::string expected = value.dump(indent, ' ', false, json::error_handler_t::replace);
      ASSERT_EQ(mcp_hints::json_text(value, indent), expected) << "indent " << indent;
      std::string appended = "before ";
      mcp_hints::append_json(appended, value, indent);
      ASSERT_EQ(appended, "before " + expected);
    }
  const json binary = json::binary({1, 2, 3});  // no JSON text makes one: written on one line
  EXPECT_EQ(mcp_hints::json_text(binary), binary.dump());
}
