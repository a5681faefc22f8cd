// Checks the Verilated fp32 units of rtl/fp against sim/isa/fp32 (the numerics contract of
// docs/isa.md), every output bit, on 1,000,000 seeded random vectors per unit (kFpDefaultVectors)
// and on every pair of special values. OTPU_FP_SEED and OTPU_FP_VECTORS override the seed and
// the count.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>

#include "sim/isa/fp32.h"
#include "tests/rtl/fp/fp_testtop.h"
#include "tests/rtl/fp/fp_vectors.h"

namespace otpu::rtl {
namespace {

namespace fp32 = otpu::sim::fp32;

constexpr int kReported = 8;

float F(uint32_t bits) { return fp32::FromBits(bits); }
uint32_t B(float f) { return fp32::Bits(f); }

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  return text != nullptr ? std::strtoull(text, nullptr, 0) : fallback;
}

// One output of otpu_fp_testtop and the C++ function it must equal.
struct UnitCheck {
  const char* name;
  FpOp op;  // the vectors the random test aims at this unit
  uint32_t (*golden)(const FpVector& v);
  uint32_t (*rtl)(const FpOutputs& out);
};

const UnitCheck kUnits[] = {
    {"add", FpOp::kAdd,
     [](const FpVector& v) {
       return B(v.sub ? fp32::Sub(F(v.a), F(v.b)) : fp32::Add(F(v.a), F(v.b)));
     },
     [](const FpOutputs& o) { return o.add; }},
    {"mul", FpOp::kMul, [](const FpVector& v) { return B(fp32::Mul(F(v.a), F(v.b))); },
     [](const FpOutputs& o) { return o.mul; }},
    {"max", FpOp::kMinMax, [](const FpVector& v) { return B(fp32::Max(F(v.a), F(v.b))); },
     [](const FpOutputs& o) { return o.max; }},
    {"min", FpOp::kMinMax, [](const FpVector& v) { return B(fp32::Min(F(v.a), F(v.b))); },
     [](const FpOutputs& o) { return o.min; }},
    {"exp2", FpOp::kExp2, [](const FpVector& v) { return B(fp32::Exp2(F(v.a))); },
     [](const FpOutputs& o) { return o.exp2; }},
    {"recip", FpOp::kRecip, [](const FpVector& v) { return B(fp32::Recip(F(v.a))); },
     [](const FpOutputs& o) { return o.recip; }},
    {"rsqrt", FpOp::kRsqrt, [](const FpVector& v) { return B(fp32::Rsqrt(F(v.a))); },
     [](const FpOutputs& o) { return o.rsqrt; }},
    // One element of QuantizeBlock: int8(RneClamp(Mul(x, inv), 127)).
    {"quant", FpOp::kQuant,
     [](const FpVector& v) {
       return uint32_t{static_cast<uint8_t>(fp32::RneClamp(fp32::Mul(F(v.a), F(v.b)), 127))};
     },
     [](const FpOutputs& o) { return uint32_t{static_cast<uint8_t>(o.quant)}; }},
    // The MXU's float(isum) (sim/isa/mxu.cc): a C++ int32 -> float conversion.
    {"from_int", FpOp::kFromInt,
     [](const FpVector& v) { return B(static_cast<float>(static_cast<int32_t>(v.a))); },
     [](const FpOutputs& o) { return o.from_int; }},
};

// Names the unit in test names and failure messages (gtest prints params as raw bytes otherwise).
void PrintTo(const UnitCheck& unit, std::ostream* os) { *os << unit.name; }

// Counts mismatches and keeps the first few for the failure message.
class Mismatches {
 public:
  explicit Mismatches(const char* unit) : unit_(unit) {}

  void Check(const FpVector& v, uint32_t want, uint32_t got) {
    if (want == got) return;
    if (count_++ < kReported) {
      char line[160];
      std::snprintf(line, sizeof line, "\n  %s a=0x%08X b=0x%08X sub=%d: want 0x%08X, rtl 0x%08X",
                    unit_, v.a, v.b, v.sub ? 1 : 0, want, got);
      report_ += line;
    }
  }
  long count() const { return count_; }
  const std::string& report() const { return report_; }

 private:
  const char* unit_;
  long count_ = 0;
  std::string report_;
};

class FpRtlTest : public ::testing::TestWithParam<UnitCheck> {};

TEST_P(FpRtlTest, RandomVectorsMatchGolden) {
  const UnitCheck& unit = GetParam();
  const uint64_t seed = EnvOr("OTPU_FP_SEED", kFpDefaultSeed) + static_cast<uint64_t>(unit.op);
  const long vectors = static_cast<long>(EnvOr("OTPU_FP_VECTORS", kFpDefaultVectors));
  FpTestTop top;
  FpVectorGen gen(seed);
  Mismatches bad(unit.name);
  for (long i = 0; i < vectors; ++i) {
    FpVector v = gen.Next(unit.op);
    bad.Check(v, unit.golden(v), unit.rtl(top.Eval(v.a, v.b, v.sub)));
  }
  EXPECT_EQ(bad.count(), 0) << vectors << " vectors, seed " << seed << bad.report();
}

TEST_P(FpRtlTest, SpecialValuePairsMatchGolden) {
  const UnitCheck& unit = GetParam();
  FpTestTop top;
  Mismatches bad(unit.name);
  for (uint32_t a : SpecialValues()) {
    for (uint32_t b : SpecialValues()) {
      for (bool sub : {false, true}) {
        FpVector v{a, b, sub};
        bad.Check(v, unit.golden(v), unit.rtl(top.Eval(a, b, sub)));
      }
    }
  }
  EXPECT_EQ(bad.count(), 0) << bad.report();
}

INSTANTIATE_TEST_SUITE_P(Units, FpRtlTest, ::testing::ValuesIn(kUnits),
                         [](const ::testing::TestParamInfo<UnitCheck>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace otpu::rtl
