// The index reader counts only results of the selection's own run: a passing result that an
// earlier run or submission left in DIR/cells/ is stale and never stands for this run's cell.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/testing/temp_dir.h"
#include "host/programs/regress/cell_result.h"
#include "host/programs/regress/local_runner.h"
#include "host/programs/regress/report.h"
#include "host/programs/regress/run_id.h"

namespace otpu::regress {
namespace {

// A passing result of cell `id` stamped with run `run`.
CellResult Passed(const std::string& id, const std::string& run) {
  CellResult r;
  r.id = id;
  r.memory = "axi";
  r.run = run;
  r.cycles = 100;
  for (const char* name : kVerdictNames) r.verdicts.push_back({name, Outcome::kPass, "ok", ""});
  return r;
}

// DIR with a selection of one cell made by run `run` and that cell's result `result`.
void WriteDir(const std::string& dir, const std::string& run, const CellResult& result) {
  std::filesystem::create_directories(dir + "/cells");
  std::ofstream(dir + "/selection.json") << R"({"matrix": "m.json", "name": "t", "run": ")" + run +
                                                R"(", "cells": ["a/b/c/d/s0"]})";
  std::ofstream(dir + "/cells/a.b.c.d.s0.json") << CellResultJson(result);
}

TEST(StaleResult, AResultOfAnotherRunIsThatCellsErrorNamingBothRuns) {
  testutil::TempDir dir;
  WriteDir(dir.path(), "new0", Passed("a/b/c/d/s0", "old1"));
  StatusOr<Index> index = ReadIndexDir(dir.path());
  ASSERT_TRUE(index.ok()) << index.status().message();
  ASSERT_EQ(index->cells.size(), 1u);
  EXPECT_EQ(index->cells[0].outcome(), Outcome::kError);
  const std::string& why = index->cells[0].verdicts[0].message;
  EXPECT_NE(why.find("stale result from run old1"), std::string::npos) << why;
  EXPECT_NE(why.find("this run (new0) wrote none"), std::string::npos) << why;
  EXPECT_FALSE(index->passed());
  EXPECT_EQ(ExitCodeOf(*index), kExitInfra);
}

TEST(StaleResult, AResultWithoutARunIdIsStaleForARunWithOne) {
  testutil::TempDir dir;
  WriteDir(dir.path(), "new0", Passed("a/b/c/d/s0", ""));
  StatusOr<Index> index = ReadIndexDir(dir.path());
  ASSERT_TRUE(index.ok());
  EXPECT_NE(index->cells[0].verdicts[0].message.find("stale result from run (none)"),
            std::string::npos);
  EXPECT_FALSE(index->passed());
}

TEST(StaleResult, AResultOfTheSelectionsRunCounts) {
  testutil::TempDir dir;
  WriteDir(dir.path(), "new0", Passed("a/b/c/d/s0", "new0"));
  StatusOr<Index> index = ReadIndexDir(dir.path());
  ASSERT_TRUE(index.ok());
  EXPECT_TRUE(index->passed());
  EXPECT_EQ(index->cells[0].run, "new0");
}

TEST(StaleResult, RunIdsAre128RandomBitsInHex) {
  const std::string a = NewRunId(), b = NewRunId();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace otpu::regress
