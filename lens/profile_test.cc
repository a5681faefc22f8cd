#include "lens/profile.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

TEST(Profile, KindNamesParseBack) {
  for (ProfileKind k :
       {ProfileKind::kRtl, ProfileKind::kIsa, ProfileKind::kBoard, ProfileKind::kHw}) {
    ProfileKind back = ProfileKind::kIsa;
    ASSERT_TRUE(ParseKind(KindName(k), &back)) << KindName(k);
    EXPECT_EQ(back, k);
  }
  ProfileKind unused;
  EXPECT_FALSE(ParseKind("ISA", &unused));
}

TEST(Profile, NoteLevelNamesParseBack) {
  for (NoteLevel l : {NoteLevel::kGood, NoteLevel::kWarn, NoteLevel::kBad, NoteLevel::kInfo}) {
    NoteLevel back = NoteLevel::kInfo;
    ASSERT_TRUE(ParseNoteLevel(NoteLevelName(l), &back));
    EXPECT_EQ(back, l);
  }
  NoteLevel unused;
  EXPECT_FALSE(ParseNoteLevel("error", &unused));
}

TEST(Profile, ConfigOfTakesTheBoardConfiguration) {
  ProfileConfig c = ConfigOf(isa::Config::Board());
  EXPECT_EQ(c.D, 128);
  EXPECT_EQ(c.MCOLS, 2);
  EXPECT_EQ(c.FIFO_DEPTH, 1024);
  EXPECT_EQ(c.DRAM_BYTES, int64_t{4} << 30);
  EXPECT_EQ(c.MEM, "ideal");
}

TEST(Profile, BucketColumnsResizeTogether) {
  Buckets b;
  b.bm = {5};
  b.Resize(3);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b.bm, (std::vector<int64_t>{5, 0, 0}));
  for (const auto& [name, column] : Buckets::Columns()) EXPECT_EQ((b.*column).size(), 3u) << name;
}

TEST(Profile, CreatedTimeIsIso8601Utc) {
  std::string t = NowIso8601();
  ASSERT_EQ(t.size(), 20u) << t;
  EXPECT_EQ(t[4], '-');
  EXPECT_EQ(t[10], 'T');
  EXPECT_EQ(t.back(), 'Z');
}

}  // namespace
}  // namespace otpu::lens
