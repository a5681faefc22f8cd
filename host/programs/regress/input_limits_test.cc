// otpu-regress's readers on hostile input: every file it judges a run by (matrix, baseline,
// cell result, index) goes through the one strict JSON reader, and --only is bounded in size
// and in the work of a match. Each case failed (crash, hang, or a file accepted) before.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/testing/temp_dir.h"
#include "host/programs/regress/baseline.h"
#include "host/programs/regress/cell_filter.h"
#include "host/programs/regress/cell_result.h"
#include "host/programs/regress/local_runner.h"
#include "host/programs/regress/matrix.h"
#include "host/programs/regress/report.h"

namespace otpu::regress {
namespace {

constexpr const char* kMatrix =
    R"({"name": "t", "workloads": [{"name": "mlp-small", "memories": ["ideal", "axi"]}]})";

std::string Nested(int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); }

TEST(RegressInput, DeeplyNestedJsonIsAnErrorInEveryReader) {
  const std::string deep = "{\"name\": " + Nested(100000) + "}";
  EXPECT_NE(ParseMatrix(deep, "m.json").status().message().find("nested deeper than"), std::string::npos);
  EXPECT_NE(ParseBaseline(deep, "b.json").status().message().find("nested deeper than"), std::string::npos);
  EXPECT_NE(ParseCellResult(deep, "c.json").status().message().find("nested deeper than"), std::string::npos);
  EXPECT_NE(ParseIndex(deep, "i.json").status().message().find("nested deeper than"), std::string::npos);
}

TEST(RegressInput, DuplicateKeysAreRefused) {
  StatusOr<Matrix> m = ParseMatrix(R"({"name": "t", "name": "u", "workloads": [{"name": "mlp-small"}]})", "m.json");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("m.json"), std::string::npos);
  EXPECT_NE(m.status().message().find("duplicate key \"name\""), std::string::npos);
  StatusOr<lens::Profile> b = ParseBaseline(R"({"cycles": 5222, "cycles": 1})", "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("duplicate key \"cycles\""), std::string::npos);
}

TEST(RegressInput, TrailingGarbageInvalidUtf8AndNulAreRefused) {
  ASSERT_TRUE(ParseMatrix(kMatrix, "m.json").ok());
  EXPECT_FALSE(ParseMatrix(std::string(kMatrix) + " {}", "m.json").ok());
  EXPECT_FALSE(ParseMatrix(R"({"name": "t)" "\xff\xfe" R"(", "workloads": [{"name": "mlp-small"}]})", "m.json").ok());
  StatusOr<Matrix> nul = ParseMatrix(R"({"name": "t\u0000x", "workloads": [{"name": "mlp-small"}]})", "m.json");
  ASSERT_FALSE(nul.ok());
  EXPECT_NE(nul.status().message().find("NUL"), std::string::npos);
}

TEST(RegressInput, OnlyPatternNestedDeeplyIsAUsageError) {
  const std::string nested = std::string(30000, '(') + "a" + std::string(30000, ')');
  StatusOr<CellFilter> f = CellFilter::Create(nested);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(f.status().message().find("--only"), std::string::npos);
  const std::string deep = std::string(200, '(') + "a" + std::string(200, ')');
  StatusOr<CellFilter> g = CellFilter::Create(deep);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("--only"), std::string::npos);
}

TEST(RegressInput, OnlyPatternThatBacktracksWithoutEndStopsWithAUsageError) {
  StatusOr<Matrix> m = ParseMatrix(kMatrix, "m.json");
  ASSERT_TRUE(m.ok());
  const auto t0 = std::chrono::steady_clock::now();
  StatusOr<std::vector<Cell>> cells =
      SelectCells(*m, "(.*)*(.*)*(.*)*(.*)*(.*)*(.*)*x$", 1, 1);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(cells.ok());
  EXPECT_EQ(cells.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(cells.status().message().find("steps"), std::string::npos);
  EXPECT_LT(s, 5.0);  // bounded by the match limit, not by luck
}

TEST(RegressInput, OnlyPatternSelectsAsASearch) {
  StatusOr<Matrix> m = ParseMatrix(kMatrix, "m.json");
  ASSERT_TRUE(m.ok());
  StatusOr<std::vector<Cell>> all = SelectCells(*m, "", 1, 1);
  StatusOr<std::vector<Cell>> some = SelectCells(*m, "ideal/sim", 1, 1);
  StatusOr<std::vector<Cell>> none = SelectCells(*m, "^nomatch$", 1, 1);
  ASSERT_TRUE(all.ok() && some.ok() && none.ok());
  EXPECT_GT(all->size(), some->size());
  EXPECT_GT(some->size(), 0u);
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(CellFilter::Create(std::string(kMaxOnlyChars + 1, 'a')).ok());
  EXPECT_FALSE(CellFilter::Create("(").ok());
}

TEST(RegressInput, AMatrixThatIsAFifoIsRefusedWithoutBlocking) {
  testutil::TempDir dir;
  const std::string fifo = dir.path() + "/matrix.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  StatusOr<Matrix> m = ReadMatrix(fifo);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("not a regular file"), std::string::npos);
  EXPECT_NE(m.status().message().find(fifo), std::string::npos);
}

// The reuse key hashes the cell's baseline: a FIFO or a link to /dev/zero there must neither
// block nor run forever, and must not hash like a missing or a real baseline.
TEST(RegressInput, TheKeyOfABaselineThatIsNotAFileIsComputedWithoutReadingIt) {
  StatusOr<Matrix> m = ParseMatrix(kMatrix, "m.json");
  ASSERT_TRUE(m.ok());
  const Cell& cell = m->cells[0];
  testutil::TempDir dir;
  const KeyInputs in;
  const std::string missing = CellKey(*m, cell, in, dir.path());
  const std::string path = dir.path() + "/" + cell.FileName() + ".json";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const std::string fifo = CellKey(*m, cell, in, dir.path());
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::symlink("/dev/zero", path.c_str()), 0);
  const std::string zero = CellKey(*m, cell, in, dir.path());
  EXPECT_NE(fifo, missing);
  EXPECT_EQ(zero, fifo);
}

TEST(RegressInput, AResultWithoutEveryVerdictIsNotAResult) {
  CellResult r = ErrorResult("a/b/c/d/s0", 0, "x");
  for (Verdict& v : r.verdicts) v.outcome = Outcome::kPass;
  ASSERT_TRUE(ParseCellResult(CellResultJson(r), "c.json").ok());
  CellResult renamed = r;
  renamed.verdicts[1].name = "parrot";
  StatusOr<CellResult> bad = ParseCellResult(CellResultJson(renamed), "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("c.json: verdicts: expected exactly correctness, parity, "
                                        "dependency, assertions, performance"), std::string::npos) << bad.status().message();
  CellResult two = r;
  two.verdicts.pop_back();
  EXPECT_FALSE(ParseCellResult(CellResultJson(two), "c.json").ok());
}

// A result written before the dependency verdict existed (correctness, parity, performance,
// all passed) is not a result of this build: never reused as a pass, so the cell runs again.
TEST(RegressInput, AnOldResultOfThreeVerdictsIsNotAResult) {
  CellResult old = ErrorResult("a/b/c/d/s0", 0, "x");
  old.verdicts = {{"correctness", Outcome::kPass, "ok", ""},
                  {"parity", Outcome::kPass, "ok", ""},
                  {"performance", Outcome::kPass, "ok", ""}};
  StatusOr<CellResult> bad = ParseCellResult(CellResultJson(old), "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("c.json: verdicts: expected exactly"), std::string::npos)
      << bad.status().message();
}

// `merge` (and the end of `run`) reads every result: a damaged one is that cell's error, and
// the index is still written.
TEST(RegressInput, ADamagedCellResultIsThatCellsErrorInTheIndex) {
  testutil::TempDir dir;
  std::filesystem::create_directories(dir.path() + "/cells");
  std::ofstream(dir.path() + "/selection.json")
      << R"({"matrix": "m.json", "name": "t", "cells": ["a/b/c/d/s0"]})";
  std::ofstream(dir.path() + "/cells/a.b.c.d.s0.json") << "{\"id\": " + Nested(100000) + "}";
  StatusOr<Index> index = ReadIndexDir(dir.path());
  ASSERT_TRUE(index.ok()) << index.status().message();
  ASSERT_EQ(index->cells.size(), 1u);
  EXPECT_EQ(index->cells[0].outcome(), Outcome::kError);
  EXPECT_NE(index->cells[0].verdicts[0].message.find("nested deeper"), std::string::npos);
  EXPECT_FALSE(index->passed());
}

// The name is the default out dir's last component: "../x" wrote reports outside out/regress,
// "/x" landed in out/regress//x.
TEST(RegressInput, AMatrixNameThatIsNotOnePlainPathComponentIsRefused) {
  for (const char* name : {"../escape", "/abs", "a/b", ".hidden", "sp ace", "nul\\u0001"}) {
    const std::string json = std::string(R"({"name": ")") + name +
                             R"(", "workloads": [{"name": "mlp-small"}]})";
    StatusOr<Matrix> m = ParseMatrix(json, "m.json");
    ASSERT_FALSE(m.ok()) << name;
    EXPECT_NE(m.status().message().find("m.json: name: expected at most 64 letters"),
              std::string::npos) << m.status().message();
  }
  EXPECT_TRUE(ParseMatrix(R"({"name": "smoke-2.x_y", "workloads": [{"name": "mlp-small"}]})",
                          "m.json").ok());
}

}  // namespace
}  // namespace otpu::regress
