#include "base/json.h"

#include <gtest/gtest.h>

#include <string>

namespace otpu {
namespace {

std::string Nested(int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); }

TEST(Json, ParsesWithinTheDepthLimit) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseJson(Nested(kMaxJsonDepth), "x.json", &doc).ok());
  EXPECT_TRUE(doc.IsArray());
}

TEST(Json, OverlongNumbersAreFoundOutsideStringsOnly) {
  const std::string ok = "{\"s\":\"" + std::string(500, '7') + "\\\"" + std::string(500, '7') +
                         "\",\"x\":-1.25e-300,\"t\":true}";
  EXPECT_EQ(FindOverlongJsonNumber(ok), std::string_view::npos);
  const std::string bad = "{\"x\":0." + std::string(700, '0') + "8198441921648689606}";
  EXPECT_EQ(FindOverlongJsonNumber(bad), 5u);
  Status s = CheckJsonNumbers(bad, "p.otpuprof");
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), "p.otpuprof: invalid JSON at byte 5: number longer than 64 characters");
}

TEST(Json, DeepNestingIsAnErrorNamingTheFileNotACrash) {
  rapidjson::Document doc;
  Status s = ParseJson(Nested(200000), "deep.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), "deep.json: invalid JSON at byte 128: nested deeper than 128 levels");
}

TEST(Json, DeepObjectsAreRefusedToo) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "{\"a\":";
  text += "1" + std::string(1000, '}');
  rapidjson::Document doc;
  Status s = ParseJson(text, "config.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("config.json: invalid JSON at byte 640: nested deeper than 128"),
            std::string::npos);
}

TEST(Json, DuplicateKeyIsAnErrorNamingTheKey) {
  rapidjson::Document doc;
  Status s = ParseJson(R"({"a": 1, "b": {"a": 2}, "a": 3})", "p.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("p.json: invalid JSON at byte 27: duplicate key \"a\""), std::string::npos)
      << s.message();
}

TEST(Json, DuplicateKeyInABigObjectIsFound) {
  std::string text = "{";
  for (int i = 0; i < 1000; ++i) text += "\"k" + std::to_string(i) + "\":1,";
  text += "\"k500\":2}";
  rapidjson::Document doc;
  Status s = ParseJson(text, "tokenizer.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("duplicate key \"k500\""), std::string::npos) << s.message();
}

TEST(Json, SameKeyInSiblingObjectsIsFine) {
  rapidjson::Document doc;
  ASSERT_TRUE(ParseJson(R"([{"a": 1}, {"a": 2}, {"a": {"a": 3}}])", "x", &doc).ok());
  EXPECT_EQ(doc[2]["a"]["a"].GetInt(), 3);
}

TEST(Json, SyntaxErrorNamesFileAndOffset) {
  rapidjson::Document doc;
  Status s = ParseJson("{\"a\": }", "c.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "c.json: invalid JSON at byte 6: Invalid value.");
}

// A fuzzed profile crashed RapidJSON 1.1.0's full-precision strtod (an out-of-bounds read of
// its cached powers): numbers whose magnitude is past 1e+-320 are refused before that parse.
TEST(Json, NumbersOutOfRangeAreRefusedBeforeAFullPrecisionParse) {
  rapidjson::Document doc;
  Status s = ParseStrictJson("{\"x\": 0.0000003333333333333332e-0333}", "b.json", &doc);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "b.json: invalid JSON at byte 6: number beyond 1e320 or below 1e-320");
  EXPECT_FALSE(ParseStrictJson("[0e-999]", "z", &doc).ok());
  EXPECT_FALSE(ParseStrictJson("[1e400]", "big", &doc).ok());
  EXPECT_FALSE(ParseStrictJson("[-12.5e319]", "big", &doc).ok());
  EXPECT_TRUE(ParseStrictJson("[1.7976931348623157e308, 2.2250738585072014e-308, 5e-320, 0, -0.5]",
                              "ok", &doc).ok());
  EXPECT_EQ(FindOutOfRangeJsonNumber("{\"s\": \"1e999\", \"n\": 3}"), std::string_view::npos);
}

}  // namespace
}  // namespace otpu
