//===- JsonTest.cpp - The strict JSON reader ------------------------------===//

#include "tk/Error.h"
#include "tk/Json.h"

#include <gtest/gtest.h>

#include <string>

using namespace tk;

namespace {

json::Value parse(const std::string &text) { return json::parse(text, "t.json"); }

/// The error message for `text`, or "" if it parsed.
std::string errorOf(const std::string &text) {
  try {
    json::parse(text, "t.json");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(Json, Scalars) {
  EXPECT_TRUE(parse("null").isNull());
  EXPECT_TRUE(parse("true").getBool());
  EXPECT_FALSE(parse(" false ").getBool());
  EXPECT_EQ(parse("0").getInteger(), 0);
  EXPECT_EQ(parse("-0").getInteger(), 0);
  EXPECT_EQ(parse("42").getInteger(), 42);
  EXPECT_EQ(parse("-9223372036854775808").getInteger(), INT64_MIN);
  EXPECT_EQ(parse("9223372036854775807").getInteger(), INT64_MAX);
  EXPECT_DOUBLE_EQ(parse("1.5").getNumber(), 1.5);
  EXPECT_FALSE(parse("1.0").isInteger());
  EXPECT_DOUBLE_EQ(parse("-2.5e3").getNumber(), -2500.0);
  EXPECT_DOUBLE_EQ(parse("1E-2").getNumber(), 0.01);
  EXPECT_DOUBLE_EQ(parse("2e+2").getNumber(), 200.0);
  EXPECT_EQ(parse("1e-400").getNumber(), 0.0); // Underflow is fine.
  EXPECT_EQ(parse("0.0000001e-320").getNumber(), 0.0);
  EXPECT_EQ(errorOf("1234567890e300"), "t.json:1:1 (byte 0): number "
                                      "1234567890e300 is out of the range of a "
                                      "double");
  EXPECT_EQ(errorOf("-0.001e312"), "t.json:1:1 (byte 0): number -0.001e312 "
                                   "is out of the range of a double");
  // Beyond int64_t: still a number, but not an integer.
  json::Value big = parse("18446744073709551616");
  EXPECT_TRUE(big.isNumber());
  EXPECT_FALSE(big.isInteger());
  EXPECT_DOUBLE_EQ(big.getNumber(), 18446744073709551616.0);
}

TEST(Json, Strings) {
  EXPECT_EQ(parse("\"\"").getString(), "");
  EXPECT_EQ(parse(R"("a\"b\\c\/d\b\f\n\r\t")").getString(),
            "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(parse(R"("\u0041\u00e9\u20ac")").getString(),
            "A\xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(parse(R"("\ud83d\ude00")").getString(), "\xf0\x9f\x98\x80");
  EXPECT_EQ(parse("\"caf\xc3\xa9\"").getString(), "caf\xc3\xa9");
  EXPECT_EQ(parse(R"("\u0000")").getString(), std::string(1, '\0'));
}

TEST(Json, Containers) {
  json::Value v = parse(R"( { "a" : [1, 2.5, "x", null, true, {"b": []}],
                            "c": {} } )");
  ASSERT_TRUE(v.isObject());
  ASSERT_EQ(v.getObject().size(), 2u);
  EXPECT_EQ(v.getObject()[0].first, "a"); // Order is kept.
  const json::Value *a = v.find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->getArray().size(), 6u);
  EXPECT_EQ(a->getArray()[0].getInteger(), 1);
  EXPECT_EQ(a->getArray()[2].getString(), "x");
  EXPECT_TRUE(a->getArray()[5].find("b")->getArray().empty());
  EXPECT_TRUE(v.find("c")->getObject().empty());
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_TRUE(parse("[]").getArray().empty());
}

TEST(Json, AccessorsCheckKinds) {
  EXPECT_THROW(parse("1").getString(), Error);
  EXPECT_THROW(parse("1.5").getInteger(), Error);
  EXPECT_THROW(parse("\"x\"").getArray(), Error);
  EXPECT_EQ(parse("[1]").find("x"), nullptr);
}

TEST(Json, ErrorsNameFileLineColumnAndByte) {
  EXPECT_EQ(errorOf("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            "t.json:3:7 (byte 18): unexpected character '2', expected ':' "
            "after key");
  EXPECT_EQ(errorOf(""), "t.json:1:1 (byte 0): empty document, expected a "
                         "JSON value");
  EXPECT_EQ(errorOf("  "), "t.json:1:3 (byte 2): empty document, expected a "
                           "JSON value");
}

TEST(Json, EveryErrorKind) {
  struct Case {
    const char *text;
    const char *message;
  };
  const Case cases[] = {
      {"1 2", "t.json:1:3 (byte 2): unexpected character '2' after the JSON "
              "value"},
      {"[1,]", "t.json:1:4 (byte 3): unexpected character ']', expected a "
               "JSON value"},
      {"{\"a\":1,}", "t.json:1:8 (byte 7): unexpected character '}', "
                     "expected a string as object key"},
      {"{1:2}", "t.json:1:2 (byte 1): unexpected character '1', expected a "
                "string as object key"},
      {"{\"a\" 1}", "t.json:1:6 (byte 5): unexpected character '1', "
                    "expected ':' after key"},
      {"{\"a\":1 \"b\":2}", "t.json:1:8 (byte 7): unexpected character "
                            "'\"', expected ',' or '}' in object"},
      {"[1 2]", "t.json:1:4 (byte 3): unexpected character '2', expected "
                "',' or ']' in array"},
      {"[1", "t.json:1:3 (byte 2): unexpected end of input, expected ',' or "
             "']' in array"},
      {"{\"a\":1,\"a\":2}", "t.json:1:8 (byte 7): duplicate object key "
                            "\"a\""},
      {"tru", "t.json:1:1 (byte 0): invalid literal, expected 'true'"},
      {"nul", "t.json:1:1 (byte 0): invalid literal, expected 'null'"},
      {"NaN", "t.json:1:1 (byte 0): unexpected character 'N', expected a "
              "JSON value"},
      {"// c\n1", "t.json:1:1 (byte 0): unexpected character '/', expected "
                  "a JSON value"},
      {"01", "t.json:1:2 (byte 1): leading zeros are not allowed in JSON "
             "numbers"},
      {"-", "t.json:1:2 (byte 1): expected a digit in number"},
      {"1.", "t.json:1:3 (byte 2): expected a digit after '.' in number"},
      {"1e", "t.json:1:3 (byte 2): expected a digit in number exponent"},
      {"+1", "t.json:1:1 (byte 0): unexpected character '+', expected a "
             "JSON value"},
      {"1e999", "t.json:1:1 (byte 0): number 1e999 is out of the range of a "
                "double"},
      {"\"abc", "t.json:1:5 (byte 4): unterminated string"},
      {"\"a\nb\"", "t.json:1:3 (byte 2): unescaped control character in "
                   "string"},
      {"\"\\x\"", "t.json:1:2 (byte 1): invalid escape '\\x' in string"},
      {"\"\\u12G4\"", "t.json:1:6 (byte 5): invalid hex digit in \\u "
                      "escape"},
      {"\"\\u12\"", "t.json:1:4 (byte 3): truncated \\u escape"},
      {"\"\\ud800\"", "t.json:1:8 (byte 7): high surrogate not followed by "
                      "a \\u low surrogate"},
      {"\"\\ud800\\u0041\"", "t.json:1:14 (byte 13): high surrogate not "
                             "followed by a low surrogate"},
      {"\"\\udc00\"", "t.json:1:8 (byte 7): unpaired low surrogate in \\u "
                      "escape"},
      {"\"\xff\"", "t.json:1:2 (byte 1): invalid UTF-8 byte in string"},
      {"\"\xc3\"", "t.json:1:2 (byte 1): invalid UTF-8 sequence in string"},
      {"\"\xc0\x80\"", "t.json:1:2 (byte 1): invalid UTF-8 byte in string"},
      {"\"\xe0\x80\x80\"", "t.json:1:2 (byte 1): invalid UTF-8 sequence in "
                           "string"},
      {"\"\xed\xa0\x80\"", "t.json:1:2 (byte 1): invalid UTF-8 sequence in "
                           "string"},
      {"\"\xf4\x90\x80\x80\"", "t.json:1:2 (byte 1): invalid UTF-8 sequence "
                               "in string"},
      {"\"\xe2\x82", "t.json:1:2 (byte 1): truncated UTF-8 sequence in "
                     "string"},
      {"\x01", "t.json:1:1 (byte 0): unexpected byte 0x01, expected a JSON "
               "value"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(errorOf(c.text), c.message) << "input: " << c.text;
}

TEST(Json, NestingIsBounded) {
  std::string ok = std::string(json::kMaxDepth, '[') +
                   std::string(json::kMaxDepth, ']');
  EXPECT_EQ(errorOf(ok), "");

  std::string tooDeep = std::string(json::kMaxDepth + 1, '[') +
                        std::string(json::kMaxDepth + 1, ']');
  EXPECT_EQ(errorOf(tooDeep),
            "t.json:1:257 (byte 256): arrays/objects nested deeper than 256 "
            "levels");

  // Far deeper than any stack would survive without the bound.
  std::string hostile(1000000, '[');
  EXPECT_NE(errorOf(hostile).find("nested deeper than 256"),
            std::string::npos);
  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"a\":";
  EXPECT_NE(errorOf(objects).find("nested deeper than 256"),
            std::string::npos);
}

TEST(Json, QuoteRoundTrips) {
  std::string raw = "a\"b\\c\n\t\x01\xc3\xa9";
  EXPECT_EQ(parse(json::quote(raw)).getString(), raw);
}

} // namespace
