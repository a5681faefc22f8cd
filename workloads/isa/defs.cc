#include "workloads/isa/defs.h"

namespace otpu::isa {

#define OTPU_NAME_CASE(name, value) \
  case value:                       \
    return #name;

const char* OpcodeName(Opcode op) {
  switch (static_cast<int>(op)) { OTPU_OPCODES(OTPU_NAME_CASE) }
  return nullptr;
}
const char* UnitName(Unit unit) {
  switch (static_cast<int>(unit)) { OTPU_UNITS(OTPU_NAME_CASE) }
  return "?";
}
const char* VopFnName(VopFn fn) {
  switch (static_cast<int>(fn)) { OTPU_VOP_FNS(OTPU_NAME_CASE) }
  return nullptr;
}
const char* BModeName(BMode mode) {
  switch (static_cast<int>(mode)) { OTPU_VOP_BMODES(OTPU_NAME_CASE) }
  return "?";
}
const char* CounterName(Counter c) {
  switch (static_cast<int>(c)) { OTPU_COUNTERS(OTPU_NAME_CASE) }
  return "?";
}
#undef OTPU_NAME_CASE

const char* WFormatName(WFormat wf) {
  switch (wf) {
    case WFormat::kINT8: return "int8";
    case WFormat::kINT4: return "int4";
    case WFormat::kFP4: return "fp4";
  }
  return "?";
}

bool IsOpcode(uint8_t value) { return OpcodeName(static_cast<Opcode>(value)) != nullptr; }
bool IsVopFn(uint8_t value) { return VopFnName(static_cast<VopFn>(value)) != nullptr; }

}  // namespace otpu::isa
