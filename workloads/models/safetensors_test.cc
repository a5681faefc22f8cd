#include "workloads/models/safetensors.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <rapidjson/document.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <limits>

#include "workloads/models/io_test_util.h"

namespace otpu::models {
namespace {

using ::testing::HasSubstr;

// Values every dtype holds exactly.
const std::vector<float> kSmall = {1.0f, -2.5f, 0.0f, 0.375f, -0.125f, 96.0f};

TEST(Bf16, RoundsHalfwayToEven) {
  EXPECT_EQ(FloatToBf16(1.0f), 0x3F80);
  // 1 + 2^-8 is halfway between 0x3F80 and 0x3F81: even wins (down).
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  // 1 + 3 * 2^-8 is halfway between 0x3F81 and 0x3F82: even wins (up).
  EXPECT_EQ(FloatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
  EXPECT_EQ(Bf16ToFloat(0xC020), -2.5f);
}

TEST(Bf16, KeepsNanANan) {
  EXPECT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(F16, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = F16ToFloat(uint16_t(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(F16ToFloat(FloatToF16(f)))) << bits;
    } else {
      ASSERT_EQ(FloatToF16(f), bits) << "half 0x" << std::hex << bits;
    }
  }
}

TEST(F16, RoundsAndSaturatesLikeIeee) {
  EXPECT_EQ(F16ToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(FloatToF16(65519.0f), 0x7BFF);  // below the halfway point to 65536
  EXPECT_EQ(FloatToF16(65520.0f), 0x7C00);  // rounds up to infinity
  EXPECT_EQ(F16ToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(FloatToF16(std::ldexp(1.0f, -25)), 0x0000);  // halfway to the first subnormal: even
  EXPECT_EQ(FloatToF16(std::ldexp(3.0f, -26)), 0x0001);  // above halfway
  EXPECT_EQ(FloatToF16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // halfway: even (down)
}

class SafetensorsFileTest : public ::testing::Test {
 protected:
  std::string WriteSmall(Dtype dtype) {
    const std::string path = dir_.File("t.safetensors");
    std::vector<TensorToWrite> tensors = {{"a.weight", dtype, {2, 3}, kSmall},
                                          {"b", dtype, {3}, std::span(kSmall).first(3)}};
    EXPECT_TRUE(WriteSafetensors(path, tensors).ok());
    return path;
  }
  ScratchDir dir_;
};

TEST_F(SafetensorsFileTest, ReadsBackEachDtype) {
  for (Dtype dtype : {Dtype::kBF16, Dtype::kF16, Dtype::kF32}) {
    auto file = SafetensorsFile::Open(WriteSmall(dtype));
    ASSERT_TRUE(file.ok()) << file.status().message();
    const std::vector<int64_t> shape = {2, 3};
    auto a = (*file)->ReadFloat("a.weight", shape);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(*a, kSmall) << DtypeName(dtype);
    EXPECT_EQ((*file)->Find("a.weight")->dtype, dtype);
  }
}

TEST_F(SafetensorsFileTest, WritesAConformingHeader) {
  const std::string bytes = ReadRaw(WriteSmall(Dtype::kBF16));
  uint64_t len = 0;
  std::memcpy(&len, bytes.data(), 8);
  EXPECT_EQ(len % 8, 0u);
  rapidjson::Document doc;
  doc.Parse(bytes.data() + 8, len);
  ASSERT_FALSE(doc.HasParseError());
  // The format requires the tensors to cover the data section without holes.
  EXPECT_EQ(doc["a.weight"]["data_offsets"][0].GetUint64(), 0u);
  EXPECT_EQ(doc["a.weight"]["data_offsets"][1].GetUint64(),
            doc["b"]["data_offsets"][0].GetUint64());
  EXPECT_EQ(doc["b"]["data_offsets"][1].GetUint64(), bytes.size() - 8 - len);
  EXPECT_TRUE(doc.HasMember("__metadata__"));
}

TEST_F(SafetensorsFileTest, LeavesNoTemporaryFileBehind) {
  WriteSmall(Dtype::kF32);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
    ++files;
    EXPECT_EQ(e.path().filename(), "t.safetensors");
  }
  EXPECT_EQ(files, 1);
}

TEST_F(SafetensorsFileTest, WriterRejectsAValueCountThatDoesNotFitTheShape) {
  std::vector<TensorToWrite> tensors = {{"w", Dtype::kF32, {4, 4}, kSmall}};
  const Status s = WriteSafetensors(dir_.File("x.safetensors"), tensors);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("tensor w: 6 values for shape [4, 4]"));
}

TEST_F(SafetensorsFileTest, StreamedInPiecesEqualsTheWholeWrite) {
  const std::string whole = ReadRaw(WriteSmall(Dtype::kBF16));
  auto w = SafetensorsWriter::Create(dir_.File("s.safetensors"),
                                     {{"a.weight", Dtype::kBF16, {2, 3}}, {"b", Dtype::kBF16, {3}}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  // Pieces that cross from one tensor into the next.
  ASSERT_TRUE((*w)->Write(std::span(kSmall).first(4)).ok());
  ASSERT_TRUE((*w)->Write(std::span(kSmall).subspan(4, 2)).ok());
  ASSERT_TRUE((*w)->Write(std::span(kSmall).first(3)).ok());
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(ReadRaw(dir_.File("s.safetensors")), whole);
}

TEST_F(SafetensorsFileTest, StreamedWriterRefusesValuesPastTheLastTensor) {
  auto w = SafetensorsWriter::Create(dir_.File("s.safetensors"), {{"b", Dtype::kF32, {3}}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  const Status s = (*w)->Write(kSmall);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("s.safetensors: 3 values past the last tensor"));
}

TEST_F(SafetensorsFileTest, StreamedWriterNamesTheTensorLackingValuesAndLeavesNoFile) {
  {
    auto w = SafetensorsWriter::Create(dir_.File("s.safetensors"),
                                       {{"a", Dtype::kF32, {2}}, {"b", Dtype::kF32, {3}}});
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_TRUE((*w)->Write(std::span(kSmall).first(3)).ok());
    const Status s = (*w)->Finish();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(s.message(), HasSubstr("s.safetensors: tensor b has 1 of its 3 values"));
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));
}

TEST_F(SafetensorsFileTest, StreamedWriterRefusesADtypeItCannotConvert) {
  auto w = SafetensorsWriter::Create(dir_.File("s.safetensors"), {{"i", Dtype::kI32, {3}}});
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(w.status().message(), HasSubstr("tensor i: cannot write dtype I32"));
  auto neg = SafetensorsWriter::Create(dir_.File("s.safetensors"), {{"n", Dtype::kF32, {2, -1}}});
  ASSERT_FALSE(neg.ok());
  EXPECT_THAT(neg.status().message(), HasSubstr("tensor n: shape [2, -1] has a negative dimension"));
}

TEST_F(SafetensorsFileTest, StreamedWriterNamesATemporaryFileItCannotCreate) {
  auto w = SafetensorsWriter::Create(dir_.File("no/such/dir/s.safetensors"),
                                     {{"b", Dtype::kF32, {3}}});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kInternal);
  EXPECT_THAT(w.status().message(), HasSubstr("no/such/dir/s.safetensors.tmp."));
  EXPECT_THAT(w.status().message(), HasSubstr(": cannot create: "));
}

TEST_F(SafetensorsFileTest, IgnoresMetadata) {
  const std::string path = dir_.File("m.safetensors");
  WriteRaw(
      path,
      SafetensorsImage(
          R"({"__metadata__":{"format":"pt"},"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
          std::string("\0\0\x80\x3f", 4)));
  auto file = SafetensorsFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->tensors().size(), 1u);
  EXPECT_EQ((*(*file)->ReadFloat("x"))[0], 1.0f);
}

TEST_F(SafetensorsFileTest, MissingFileIsNotFoundNamingIt) {
  auto file = SafetensorsFile::Open(dir_.File("none.safetensors"));
  EXPECT_EQ(file.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(file.status().message(), HasSubstr("none.safetensors: no such file"));
}

TEST_F(SafetensorsFileTest, FileShorterThanTheLengthFieldIsTruncated) {
  const std::string path = dir_.File("short.safetensors");
  WriteRaw(path, "abc");
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(), HasSubstr("short.safetensors: truncated: 3 bytes"));
}

TEST_F(SafetensorsFileTest, FileCutInTheHeaderIsTruncated) {
  const std::string path = WriteSmall(Dtype::kF32);
  WriteRaw(path, ReadRaw(path).substr(0, 20));
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(), HasSubstr("t.safetensors: truncated: header of"));
}

TEST_F(SafetensorsFileTest, FileCutInTheDataNamesTheTensorOutsideIt) {
  const std::string path = WriteSmall(Dtype::kF32);
  const std::string bytes = ReadRaw(path);
  WriteRaw(path, bytes.substr(0, bytes.size() - 4));  // b loses its last element
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(),
              HasSubstr("t.safetensors: tensor b: data_offsets [24, 36] outside"));
}

TEST_F(SafetensorsFileTest, HugeHeaderLengthIsImplausible) {
  const std::string path = dir_.File("huge.safetensors");
  const uint64_t len = (uint64_t(100) << 20) + 1;
  WriteRaw(path, std::string(reinterpret_cast<const char*>(&len), 8));
  std::filesystem::resize_file(path, len + 64);  // sparse: costs no disk
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(), HasSubstr("huge.safetensors: header length 104857601 is implausible"));
}

TEST_F(SafetensorsFileTest, DirectoryIsNotASafetensorsFile) {
  auto file = SafetensorsFile::Open(dir_.path());
  EXPECT_EQ(file.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(file.status().message(), HasSubstr(dir_.path() + ": not a regular file"));
}

TEST_F(SafetensorsFileTest, HeaderThatIsNotJsonIsDataLoss) {
  const std::string path = dir_.File("bad.safetensors");
  WriteRaw(path, SafetensorsImage("{\"x\": [1, 2", ""));
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(), HasSubstr("bad.safetensors: header: invalid JSON at byte"));
}

TEST_F(SafetensorsFileTest, DeeplyNestedHeaderIsDataLossNotACrash) {
  const std::string path = dir_.File("deep.safetensors");
  WriteRaw(path, SafetensorsImage(std::string(200000, '[') + std::string(200000, ']'), ""));
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(),
              HasSubstr("deep.safetensors: header: invalid JSON at byte 128: nested deeper"));
}

TEST_F(SafetensorsFileTest, UnknownDtypeNamesTensorAndDtype) {
  const std::string path = dir_.File("d.safetensors");
  WriteRaw(path,
           SafetensorsImage(R"({"w":{"dtype":"F13","shape":[1],"data_offsets":[0,2]}})", "xx"));
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(), HasSubstr("d.safetensors: tensor w: unknown dtype F13"));
}

TEST_F(SafetensorsFileTest, OffsetsThatDisagreeWithTheShapeAreDataLoss) {
  const std::string path = dir_.File("s.safetensors");
  WriteRaw(path,
           SafetensorsImage(R"({"w":{"dtype":"BF16","shape":[3],"data_offsets":[0,4]}})", "xxxx"));
  auto file = SafetensorsFile::Open(path);
  EXPECT_EQ(file.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(file.status().message(),
              HasSubstr("tensor w: shape [3] of BF16 needs 6 bytes but data_offsets span 4"));
}

TEST_F(SafetensorsFileTest, MissingTensorNamesFileAndTensor) {
  auto file = SafetensorsFile::Open(WriteSmall(Dtype::kBF16));
  ASSERT_TRUE(file.ok());
  auto t = (*file)->ReadFloat("c.weight");
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("t.safetensors: no tensor c.weight"));
}

TEST_F(SafetensorsFileTest, ShapeMismatchNamesBothShapes) {
  auto file = SafetensorsFile::Open(WriteSmall(Dtype::kBF16));
  ASSERT_TRUE(file.ok());
  const std::vector<int64_t> want = {3, 2};
  auto t = (*file)->ReadFloat("a.weight", want);
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("tensor a.weight: shape [2, 3], expected [3, 2]"));
}

TEST_F(SafetensorsFileTest, IntegerTensorDoesNotConvertToFloat) {
  const std::string path = dir_.File("i.safetensors");
  WriteRaw(path, SafetensorsImage(R"({"ids":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})",
                                  std::string(8, '\0')));
  auto file = SafetensorsFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto t = (*file)->ReadFloat("ids");
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("tensor ids: dtype I64 does not convert"));
}

// Regression: a NaN weight named neither file nor tensor.
TEST_F(SafetensorsFileTest, NonFiniteWeightIsDataLossNamingFileTensorAndElement) {
  const std::string path = dir_.File("nan.safetensors");
  const std::vector<float> v = {1.0f, std::nanf(""), 2.0f};
  ASSERT_TRUE(WriteSafetensors(path, {{"w", Dtype::kF32, {3}, v}}).ok());
  auto file = SafetensorsFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto read = (*file)->ReadFloat("w", {});
  EXPECT_EQ(read.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(read.status().message(), path + ": tensor w: element 1 is NaN: weights must be finite");
}

TEST_F(SafetensorsFileTest, FifoIsRefusedWithoutBlocking) {
  const std::string path = dir_.File("model.safetensors");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto file = SafetensorsFile::Open(path);
  EXPECT_THAT(file.status().message(), HasSubstr(path + ": not a regular file"));
  auto text = ReadFileToString(path);
  EXPECT_THAT(text.status().message(), HasSubstr(path + ": not a regular file"));
}

class SafetensorsSetTest : public ::testing::Test {
 protected:
  void WriteShard(const std::string& name, const std::string& tensor, float value) {
    const std::vector<float> v = {value};
    ASSERT_TRUE(WriteSafetensors(dir_.File(name), {{tensor, Dtype::kF32, {1}, v}}).ok());
  }
  ScratchDir dir_;
};

TEST_F(SafetensorsSetTest, OpensAShardedIndex) {
  WriteShard("model-00001-of-00002.safetensors", "a", 1.0f);
  WriteShard("model-00002-of-00002.safetensors", "b", 2.0f);
  WriteRaw(dir_.File("model.safetensors.index.json"),
           R"({"metadata":{},"weight_map":{"a":"model-00001-of-00002.safetensors",
               "b":"model-00002-of-00002.safetensors"}})");
  auto set = SafetensorsSet::OpenDir(dir_.path());
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ((*set)->Names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*(*set)->ReadFloat("b"))[0], 2.0f);
  EXPECT_THAT((*set)->FileOf("b")->path(), HasSubstr("model-00002-of-00002"));
}

TEST_F(SafetensorsSetTest, PrefersTheSingleFile) {
  WriteShard("model.safetensors", "only", 3.0f);
  WriteRaw(dir_.File("model.safetensors.index.json"), "not read");
  auto set = SafetensorsSet::OpenDir(dir_.path());
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ((*set)->Names(), std::vector<std::string>{"only"});
}

TEST_F(SafetensorsSetTest, DirectoryWithoutWeightsNamesBothFiles) {
  auto set = SafetensorsSet::OpenDir(dir_.path());
  EXPECT_EQ(set.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(set.status().message(),
              HasSubstr(dir_.path() + ": no model.safetensors or model.safetensors.index.json"));
}

TEST_F(SafetensorsSetTest, MissingShardNamesIndexShardAndTensor) {
  WriteRaw(dir_.File("model.safetensors.index.json"),
           R"({"weight_map":{"a":"model-00001-of-00002.safetensors"}})");
  auto set = SafetensorsSet::OpenDir(dir_.path());
  EXPECT_EQ(set.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(set.status().message(), HasSubstr("model.safetensors.index.json: shard of a: "));
  EXPECT_THAT(set.status().message(), HasSubstr("model-00001-of-00002.safetensors: no such file"));
}

TEST_F(SafetensorsSetTest, TensorAbsentFromItsShardNamesBoth) {
  WriteShard("s1.safetensors", "a", 1.0f);
  WriteRaw(dir_.File("model.safetensors.index.json"), R"({"weight_map":{"z":"s1.safetensors"}})");
  auto set = SafetensorsSet::OpenDir(dir_.path());
  EXPECT_EQ(set.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(set.status().message(), HasSubstr("tensor z is not in its shard"));
  EXPECT_THAT(set.status().message(), HasSubstr("s1.safetensors"));
}

TEST_F(SafetensorsSetTest, IndexThatIsNotJsonNamesIt) {
  WriteRaw(dir_.File("model.safetensors.index.json"), "{weight_map");
  auto set = SafetensorsSet::OpenDir(dir_.path());
  EXPECT_EQ(set.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(set.status().message(), HasSubstr("model.safetensors.index.json: invalid JSON at byte"));
}

TEST_F(SafetensorsSetTest, MissingTensorNamesTheSource) {
  WriteShard("model.safetensors", "a", 1.0f);
  auto set = SafetensorsSet::OpenDir(dir_.path());
  ASSERT_TRUE(set.ok());
  auto t = (*set)->ReadFloat("nope");
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("model.safetensors: missing tensor nope"));
}

}  // namespace
}  // namespace otpu::models
