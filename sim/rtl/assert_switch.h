// Whether the models' compiled-in SV assertions (and Verilator's unique-case checks) are
// evaluated: on unless a bench turns them off to measure what they cost
// (scripts/bench_assert_cost.sh, docs/regress.md "Assertion cost"). Defined in vl_hooks.cc.
#ifndef OTPU_SIM_RTL_ASSERT_SWITCH_H_
#define OTPU_SIM_RTL_ASSERT_SWITCH_H_

namespace otpu::rtl {

// Applies to the default Verilator context at once and to every core or board model made
// afterwards (each has its own context).
void SetAssertionsEvaluated(bool on);
bool AssertionsEvaluated();

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_ASSERT_SWITCH_H_
