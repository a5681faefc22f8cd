// Code coverage: .dat points parsed and merged across instances, cells' files merged by the
// real verilator_coverage (counts summed), the per-module summary and its uncovered lines.
#include "host/programs/regress/code_coverage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/testing/temp_dir.h"
#include "lens/file_io.h"

namespace otpu::regress {
namespace {

// A .dat point as Verilator writes it: "\001key\002value" fields.
std::string Point(const std::string& page, const std::string& file, int line, const std::string& o,
                  const std::string& hier, uint64_t count) {
  return "C '\001t\002" + page.substr(2, page.find('/') - 2) + "\001page\002" + page +
         "\001f\002" + file + "\001l\002" + std::to_string(line) + "\001n\0025\001o\002" + o +
         "\001h\002" + hier + "' " + std::to_string(count) + "\n";
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(CodeCoverage, InstancesOfAPointCountAsOne) {
  const std::string dat = "# SystemC::Coverage-3\n" +
                          Point("v_line/m", "/x/rtl/core/m.sv", 3, "if", "TOP.a", 0) +
                          Point("v_line/m__pi3", "/x/rtl/core/m.sv", 3, "if", "TOP.b", 2) +
                          Point("v_line/m", "/x/rtl/core/m.sv", 4, "else", "TOP.a", 0) +
                          Point("v_toggle/m", "/x/rtl/core/m.sv", 1, "a", "TOP.a", 1) +
                          Point("v_line/t", "/x/rtl/board/t.sv", 9, "block", "TOP.t", 0);
  StatusOr<std::vector<CoveragePoint>> points = ParseCoverageDat(dat, "x.dat");
  ASSERT_TRUE(points.ok()) << points.status().message();
  EXPECT_EQ(points->size(), 4u);
  const CodeCoverage c = SummarizeCodeCoverage(*points, 1);
  ASSERT_EQ(c.modules.size(), 2u);
  const ModuleCoverage& m = c.modules[0];
  EXPECT_EQ(m.module, "m");
  EXPECT_EQ(m.line_points, 2);
  EXPECT_EQ(m.line_hit, 1);
  EXPECT_EQ(m.toggle_hit, 1);
  EXPECT_EQ(m.uncovered_lines, std::vector<int>{4});
  // Only rtl/core counts for the target: t (rtl/board) is left out.
  EXPECT_EQ(c.core_line_points, 2);
  EXPECT_DOUBLE_EQ(c.core_line_percent(), 50.0);
  const std::string md = CodeCoverageMarkdown(c);
  EXPECT_NE(md.find("| `m` | `rtl/core/m.sv` | 50.0 % | 100.0 % | 4 |"), std::string::npos) << md;
}

TEST(CodeCoverage, ABadLineNamesTheFileAndLine) {
  StatusOr<std::vector<CoveragePoint>> points =
      ParseCoverageDat("# SystemC::Coverage-3\nnot a point\n", "cells/x.dat");
  ASSERT_FALSE(points.ok());
  EXPECT_EQ(points.status().message(), "cells/x.dat:2: not a coverage point");
}

TEST(CodeCoverage, CellsMergeWithVerilatorCoverage) {
  testutil::TempDir dir;
  const std::string src = dir.path() + "/rtl/core/m.sv";
  std::filesystem::create_directories(dir.path() + "/rtl/core");
  std::filesystem::create_directories(dir.path() + "/code-coverage");
  Write(src, "module m;\n  always_comb begin\n    if (a) b = 1;\n    else b = 0;\n  end\nendmodule\n");
  // Cell a ran the if, cell b the else twice: merged, both run; line 5 by neither.
  Write(dir.path() + "/code-coverage/a.dat",
        "# SystemC::Coverage-3\n" + Point("v_line/m", src, 3, "if", "TOP.m", 1) +
            Point("v_line/m", src, 4, "else", "TOP.m", 0) + Point("v_line/m", src, 5, "b", "TOP.m", 0));
  Write(dir.path() + "/code-coverage/b.dat",
        "# SystemC::Coverage-3\n" + Point("v_line/m", src, 3, "if", "TOP.m", 0) +
            Point("v_line/m", src, 4, "else", "TOP.m", 2) + Point("v_line/m", src, 5, "b", "TOP.m", 0));
  StatusOr<CodeCoverage> c = MergeCodeCoverage(dir.path());
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->cells, 2);
  EXPECT_EQ(c->core_line_points, 3);
  EXPECT_EQ(c->core_line_hit, 2);
  ASSERT_EQ(c->modules.size(), 1u);
  EXPECT_EQ(c->modules[0].uncovered_lines, std::vector<int>{5});
  StatusOr<std::string> merged = lens::ReadWholeFile(dir.path() + "/code_coverage.dat");
  ASSERT_TRUE(merged.ok());
  EXPECT_NE(merged->find("else\001h\002TOP.m' 2"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/code-coverage-annotated/m.sv"));
}

TEST(CodeCoverage, NoCellFilesIsNotFound) {
  testutil::TempDir dir;
  StatusOr<CodeCoverage> c = MergeCodeCoverage(dir.path());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace otpu::regress
