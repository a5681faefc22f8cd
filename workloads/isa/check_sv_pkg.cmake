# Fails when rtl/otpu_pkg.sv is not what gen_sv_pkg prints from workloads/isa/defs.h.
execute_process(COMMAND ${GEN} OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_sv_pkg failed (${rc})")
endif()
file(READ ${PKG} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${PKG} is out of date with workloads/isa/defs.h: "
                      "run build/workloads/gen_sv_pkg > rtl/otpu_pkg.sv")
endif()
