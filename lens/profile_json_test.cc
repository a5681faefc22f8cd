#include "lens/profile_json.h"

#include <gtest/gtest.h>

#include <limits>

#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

constexpr const char* kHeader = R"("format":"openTPU-profile","version":1)";
constexpr const char* kRow = R"([0,0,5,1,"MM","1x32",0,0,1,2,10,-1,{},8,8,1])";

// A file with one profile whose body (after kind, name, cycles) is `rest`.
std::string FileWith(const std::string& rest, const std::string& header = kHeader) {
  std::string comma = rest.empty() ? "" : ",";
  return "{" + header + R"(,"profiles":[{"kind":"isa","name":"k","cycles":100)" + comma + rest +
         "}]}";
}

// The error message of parsing `json`; fails the test when it parses.
std::string ErrorOf(const std::string& json) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(json);
  EXPECT_FALSE(f.ok()) << json;
  if (f.ok()) return "";
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  return f.status().message();
}

TEST(ProfileJson, EveryKindRoundTrips) {
  ProfileFile f = SyntheticFile(
      {ProfileKind::kIsa, ProfileKind::kRtl, ProfileKind::kBoard, ProfileKind::kHw}, 100);
  f.profiles[0].roofline.efficiency = 0.1 + 0.2;  // a double that needs all 17 digits
  StatusOr<std::string> json = ProfileFileToJson(f);
  ASSERT_TRUE(json.ok()) << json.status().message();
  StatusOr<ProfileFile> back = ProfileFileFromJson(*json);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == f);
  EXPECT_EQ(back->profiles[3].instrs[7], f.profiles[3].instrs[7]);
}

TEST(ProfileJson, SeveralLargeProfilesRoundTrip) {
  // Past the 1024 rows after which the reader sizes its row vector from the text left.
  ProfileFile f = SyntheticFile({ProfileKind::kRtl, ProfileKind::kIsa, ProfileKind::kHw}, 5000);
  StatusOr<ProfileFile> back = ProfileFileFromJson(*ProfileFileToJson(f));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == f);
  EXPECT_LT(back->profiles[0].instrs.capacity(), 2 * back->profiles[0].instrs.size());
}

TEST(ProfileJson, OverlongNumberIsAnErrorNotACrash) {
  // Found by fuzz_profile_reader: RapidJSON's full-precision strtod read out of bounds.
  StatusOr<ProfileFile> f =
      ProfileFileFromJson("{\"format\":0." + std::string(750, '0') + "8198441921648689606}");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message(), "invalid JSON at byte 10: number longer than 64 characters");
}

TEST(ProfileJson, FractionsAreReadExactly) {
  // RapidJSON's own conversion gives ...584 for this one (profile_number_stream.h).
  StatusOr<ProfileFile> f =
      ProfileFileFromJson(FileWith(R"("roofline":{"efficiency":0.11935319286735585})"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].roofline.efficiency, 0.11935319286735585);
}

TEST(ProfileJson, ExponentsOfAnySizeReadAsStrtodReadsThem) {
  // 1.1.0 overflows an int adding a 10-digit negative exponent to the fraction's digits.
  for (const char* text : {"1.25e-2147483647", "0.5e-99999999999999999999", "1e-400"}) {
    StatusOr<ProfileFile> f =
        ProfileFileFromJson(FileWith(std::string(R"("roofline":{"efficiency":)") + text + "}"));
    ASSERT_TRUE(f.ok()) << text << ": " << f.status().message();
    EXPECT_EQ(f->profiles[0].roofline.efficiency, 0.0) << text;
  }
  StatusOr<ProfileFile> f =
      ProfileFileFromJson(FileWith(R"("roofline":{"efficiency":2.5E+0299})"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].roofline.efficiency, 2.5e299);
  // Past 308 RapidJSON would stop with "number too big"; strtod gives infinity.
  f = ProfileFileFromJson(FileWith(R"("roofline":{"efficiency":1e400})"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].roofline.efficiency, std::numeric_limits<double>::infinity());
}

TEST(ProfileJson, OverlongNumberWithAnExponentIsAnError) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(
      FileWith(R"("roofline":{"efficiency":1e-)" + std::string(70, '9') + "}"));
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find(": number longer than 64 characters"), std::string::npos)
      << f.status().message();
}

TEST(ProfileJson, NonFiniteNumberIsNotWritten) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 3);
  f.profiles[0].roofline.efficiency = 0.0 / 0.0;
  StatusOr<std::string> json = ProfileFileToJson(f);
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.status().message(), "profiles[0]: roofline: efficiency: not a finite number");
}

TEST(ProfileJson, MissingOptionalKeysTakeDefaults) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(FileWith(""));
  ASSERT_TRUE(f.ok()) << f.status().message();
  const Profile& p = f->profiles[0];
  EXPECT_EQ(p.kind, ProfileKind::kIsa);
  EXPECT_EQ(p.cycles, 100);
  EXPECT_EQ(p.clock_mhz, 100);
  EXPECT_EQ(p.config, ProfileConfig{});
  EXPECT_EQ(p.units.size(), 5u);
  EXPECT_TRUE(p.instrs.empty());
  EXPECT_FALSE(p.board.has_value());
  EXPECT_EQ(f->tool, kProfileTool);
}

TEST(ProfileJson, UnknownKeysAreIgnored) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(
      FileWith(R"("future":{"instrs":[1,2]},"instrs":[)" + std::string(kRow) + "]"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].instrs.size(), 1u);
}

TEST(ProfileJson, IntegersPrintedAsFloatsAreAccepted) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(
      FileWith(R"("macs":1e3,"instrs":[[0,0,5.0,1,"MM","",0,0,1,2,10,-1,{"frz":2.0},8,8,1]])"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].macs, 1000);
  EXPECT_EQ(f->profiles[0].instrs[0].pc, 5);
  EXPECT_EQ(f->profiles[0].instrs[0].counters[0], (CounterValue{"frz", 2}));
}

TEST(ProfileJson, PartialBucketsAreZeroFilled) {
  StatusOr<ProfileFile> f = ProfileFileFromJson(
      FileWith(R"("slices":[{"buckets":{"c":[63,99],"n":[64,36],"bm":[5,6]}}])"));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].slices[0].buckets.ld, (std::vector<int64_t>{0, 0}));
}

TEST(ProfileJson, AnotherFormatIsRejected) {
  EXPECT_EQ(ErrorOf(R"({"format":"x","version":1,"profiles":[]})"),
            "not an openTPU profile (format \"x\")");
}

TEST(ProfileJson, MissingFormatIsRejected) {
  EXPECT_EQ(ErrorOf(R"({"traceEvents":[]})"), "not an openTPU profile (no \"format\")");
}

TEST(ProfileJson, NewerVersionIsRejected) {
  EXPECT_EQ(ErrorOf(R"({"format":"openTPU-profile","version":2,"profiles":[]})"),
            "version 2 is newer than this reader (1)");
}

TEST(ProfileJson, NewerVersionIsReportedBeforeItsUnknownRows) {
  std::string json = FileWith(R"("instrs":[[1,2,3]])", R"("format":"openTPU-profile","version":7)");
  EXPECT_EQ(ErrorOf(json), "version 7 is newer than this reader (1)");
}

TEST(ProfileJson, InvalidJsonNamesTheOffset) {
  EXPECT_EQ(ErrorOf(R"({"format":"openTPU-profile",})"),
            "invalid JSON at byte 28: Missing a name for object member.");
}

TEST(ProfileJson, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_EQ(ErrorOf(deep), "invalid JSON at byte 128: nested deeper than 128 levels");
}

TEST(ProfileJson, DeepNestingInsideAProfileIsAnError) {
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  EXPECT_NE(ErrorOf(FileWith("\"extra\":" + deep)).find("nested deeper than 128 levels"),
            std::string::npos);
}

TEST(ProfileJson, DuplicateKeyIsRejected) {
  EXPECT_EQ(ErrorOf(R"({"format":"openTPU-profile","version":1,"version":1,"profiles":[]})"),
            "invalid JSON at byte 49: duplicate key \"version\"");
}

TEST(ProfileJson, TopLevelMustBeAnObject) {
  EXPECT_EQ(ErrorOf("[1,2]"), "file: expected an object, got an array");
}

TEST(ProfileJson, MissingProfilesIsRejected) {
  EXPECT_EQ(ErrorOf(std::string("{") + kHeader + "}"), "missing required key \"profiles\"");
}

TEST(ProfileJson, MissingRequiredKeyNamesItsPath) {
  std::string json = std::string("{") + kHeader + R"(,"profiles":[{"kind":"isa","name":"k"}]})";
  EXPECT_EQ(ErrorOf(json), "profiles[0]: missing required key \"cycles\"");
}

TEST(ProfileJson, WrongTypeNamesTheKeyPath) {
  EXPECT_EQ(ErrorOf(FileWith(R"("config":{"D":"32"})")),
            "profiles[0].config.D: expected an integer, got a string");
}

TEST(ProfileJson, WrongTypeInsideAnArrayNamesTheIndex) {
  EXPECT_EQ(ErrorOf(FileWith(R"("slices":[{"busy":[1,2,"x"]}])")),
            "profiles[0].slices[0].busy[2]: expected an integer, got a string");
}

TEST(ProfileJson, UnknownKindIsRejected) {
  std::string json =
      std::string("{") + kHeader + R"(,"profiles":[{"kind":"gpu","name":"k","cycles":1}]})";
  EXPECT_EQ(ErrorOf(json), "profiles[0].kind: unknown kind \"gpu\" (rtl, isa, board, hw)");
}

TEST(ProfileJson, UnknownNoteLevelIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("notes":[{"level":"meh","text":"x"}])")),
            "profiles[0].notes[0].level: unknown level \"meh\" (good, warn, bad, info)");
}

TEST(ProfileJson, InstrRowWithTooFewColumnsIsRejected) {
  std::string rows = std::string(kRow) + "," + kRow + "," + kRow + R"(,[0,3,5,1,"MM"])";
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[)" + rows + "]")),
            "profiles[0].instrs[3]: expected 16 columns, got 5");
}

TEST(ProfileJson, InstrRowWithTooManyColumnsIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[[0,0,5,1,"MM","",0,0,1,2,10,-1,{},8,8,1,9]])")),
            "profiles[0].instrs[0]: expected 16 columns, got more");
}

TEST(ProfileJson, InstrColumnOfWrongTypeNamesTheColumn) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[[0,0,5,1,7,"",0,0,1,2,10,-1,{},8,8,1]])")),
            "profiles[0].instrs[0]: column 4 (name): expected a string, got a number");
}

TEST(ProfileJson, InstrRowThatIsNotAnArrayIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[)" + std::string(kRow) + R"(,{"pc":1}])")),
            "profiles[0].instrs[1]: expected an array of 16 columns, got an object");
}

TEST(ProfileJson, InstrCountersMustBeIntegers) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[[0,0,5,1,"MM","",0,0,1,2,10,-1,{"frz":"1"},8,8,1]])")),
            "profiles[0].instrs[0]: column 12 (counters): expected integer counters, got a string");
}

TEST(ProfileJson, InstrsThatIsNotAnArrayIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":5)")),
            "profiles[0].instrs: expected an array of rows, got an integer");
}

TEST(ProfileJson, InstrRowsOfTheSecondProfileNameIt) {
  std::string json = std::string("{") + kHeader +
                     R"(,"profiles":[{"kind":"isa","name":"a","cycles":1},)" +
                     R"({"kind":"isa","name":"b","cycles":1,"instrs":[[1]]}]})";
  EXPECT_EQ(ErrorOf(json), "profiles[1].instrs[0]: expected 16 columns, got 1");
}

TEST(ProfileJson, SourceIdOutOfRangeIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[[0,0,5,1,"MM","",0,0,1,2,10,3,{},8,8,1]])")),
            "profiles[0].instrs[0]: source 3 is not one of the 0 sources");
}

TEST(ProfileJson, UnitOutOfRangeIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("instrs":[[0,0,5,9,"MM","",0,0,1,2,10,-1,{},8,8,1]])")),
            "profiles[0].instrs[0]: unit 9 is not one of the 5 units");
}

TEST(ProfileJson, BucketsOfUnequalLengthAreRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("slices":[{"buckets":{"c":[63,127],"n":[64,64],"bm":[1]}}])")),
            "profiles[0].slices[0].buckets.bm: 1 windows, expected 2 (as c)");
}

TEST(ProfileJson, ProgramRowWithWrongColumnsIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("programs":[[[0,"NOP","","",-1]]])")),
            "profiles[0].programs[0][0]: expected 9 columns, got 5");
}

TEST(ProfileJson, ProgramWordOutOfRangeIsRejected) {
  std::string row = R"([0,"NOP","","",-1,[0,0,0,0,0,0,0,4294967296],[0,0,0,0],0,0])";
  EXPECT_EQ(ErrorOf(FileWith(R"("programs":[[)" + row + "]]")),
            "profiles[0].programs[0][0][5][7]: 4294967296 is not a 32-bit word");
}

TEST(ProfileJson, MissingNoteTextIsRejected) {
  EXPECT_EQ(ErrorOf(FileWith(R"("notes":[{"level":"good"}])")),
            "profiles[0].notes[0]: missing required key \"text\"");
}

}  // namespace
}  // namespace otpu::lens
