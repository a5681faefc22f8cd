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

}  // namespace
}  // namespace otpu
