// The matrix's random cells: `seeds` of the random workload are program seeds, named in the
// cell id, each cell with its own DRAM-stall seed.
#include <gtest/gtest.h>

#include "host/programs/regress/matrix.h"

namespace otpu::regress {
namespace {

TEST(MatrixRandom, SeedsBecomeProgramSeedsInTheId) {
  StatusOr<Matrix> m = ParseMatrix(R"({"name":"r","defaults":{"configs":["sim","board"]},
      "workloads":[{"name":"random","seeds":3}]})", "r.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->cells.size(), 6u);
  EXPECT_EQ(m->cells[0].id, "random+seed0/sim/axi/sim/s0");
  EXPECT_EQ(m->cells[1].id, "random+seed0/board/axi/sim/s0");
  EXPECT_EQ(m->cells[5].id, "random+seed2/board/axi/sim/s0");
  EXPECT_EQ(m->cells[5].program_seed, 2u);
  EXPECT_EQ(m->cells[5].seed_index, 0);
  EXPECT_NE(m->cells[0].seed, m->cells[2].seed);  // stalls differ per program too
}

TEST(MatrixRandom, FirstSeedShiftsTheRange) {
  StatusOr<Matrix> m = ParseMatrix(
      R"({"name":"r","workloads":[{"name":"random","seeds":2,"first_seed":100}]})", "r.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->cells.size(), 2u);
  EXPECT_EQ(m->cells[1].id, "random+seed101/sim/axi/sim/s0");
  EXPECT_EQ(m->cells[1].program_seed, 101u);
}

TEST(MatrixRandom, ErrorsNameTheField) {
  auto err = [](const std::string& json) {
    StatusOr<Matrix> m = ParseMatrix(json, "bad.json");
    return m.ok() ? std::string() : m.status().message();
  };
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"mlp","first_seed":3}]})"),
            "bad.json: workloads[0].first_seed: only the random workloads take program seeds");
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"random","wformat":"fp4"}]})"),
            "bad.json: workloads[0]: random takes no pos or wformat: its programs draw their own "
            "formats");
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"random-illegal","transports":["sim","card"]}]})"),
            "bad.json: workloads[0].transports: random-illegal runs on the sim transport only: a "
            "card's register map has no error pc or cause");
}

TEST(MatrixRandom, IllegalSeedsAreProgramsNamedInTheId) {
  StatusOr<Matrix> m = ParseMatrix(
      R"({"name":"x","workloads":[{"name":"random-illegal","seeds":2,"first_seed":5,)"
      R"("configs":["sim"],"memories":["axi"],"transports":["sim"]}]})",
      "m.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->cells.size(), 2u);
  EXPECT_EQ(m->cells[0].id, "random-illegal+seed5/sim/axi/sim/s0");
  EXPECT_EQ(m->cells[1].program_seed, 6u);
}

}  // namespace
}  // namespace otpu::regress
