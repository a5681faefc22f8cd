# Verilator's and the C++ compiler's options for every Verilated model of the project (the core
# in sim/rtl, the board in sim/board, the unit, fp and trace checks under tests/rtl), in one
# place. Measured choices (docs/rtl.md "Simulation speed"):
#   --threads 1        the models are small and the machine has 2 cores shared with builds;
#                      a second thread only adds synchronisation
#   -O3                Verilator's optimisations (the default -O2-like set changes little)
#   --x-assign fast, --x-initial fast
#   OTPU_VERILATOR_OPT_FAST  g++ options of the per-cycle code (-O2; -O3 wins ~1 %)
#   OTPU_VERILATOR_OPT_SLOW  g++ options of the code run once (construction, initial settle):
#                      -O0: about half of the generated C++, it compiles ~10x faster than at
#                      -O2 (the core's largest such file: 2 s of CPU at -O0, 21 s at -O2, 36 s
#                      at -O1) and costs nothing per cycle
#   OTPU_VERILATOR_OPT_GLOBAL  g++ options of Verilator's runtime (verilated.cpp)
#   --assert           the SV assertions run in every model (docs/regress.md "Assertions": the
#                      measured cost); Verilator's runtime prints and stops through our hooks
#                      (sim/rtl/vl_hooks.h), so a failure can become a verdict instead of an
#                      abort (sim/rtl/assertions.h)
# Include it, then call otpu_verilate() where verilate() was called.
option(OTPU_RTL_ASSERT "Compile the SV assertions into every Verilated model (--assert)" ON)
set(OTPU_VERILATOR_ARGS --threads 1 -O3 --x-assign fast --x-initial fast)
if(OTPU_RTL_ASSERT)
  list(APPEND OTPU_VERILATOR_ARGS --assert)
endif()
set(OTPU_VERILATOR_OPT_FAST -O2)
set(OTPU_VERILATOR_OPT_SLOW -O0)
set(OTPU_VERILATOR_OPT_GLOBAL -O2 -DVL_PRINTF=otpu_vl_printf -DVL_USER_STOP_MAYBE
    -include ${CMAKE_CURRENT_LIST_DIR}/../sim/rtl/vl_hooks.h)

# The hooks and the capture (sim/rtl/vl_hooks.cc), linked by every model: one library, made by
# the first directory that includes this file.
if(NOT TARGET otpu_vl_hooks)
  add_library(otpu_vl_hooks ${CMAKE_CURRENT_LIST_DIR}/../sim/rtl/vl_hooks.cc)
  target_include_directories(otpu_vl_hooks PRIVATE ${VERILATOR_ROOT}/include
                             ${VERILATOR_ROOT}/include/vltstd)
  target_compile_definitions(otpu_vl_hooks PRIVATE OTPU_RTL_ASSERT=$<BOOL:${OTPU_RTL_ASSERT}>)
endif()

# otpu_verilate(TARGET SOURCES ... TOP_MODULE top PREFIX prefix [ARGS extra verilator args...]):
# verilate() with the options above.
function(otpu_verilate target)
  cmake_parse_arguments(PARSE_ARGV 1 OV "" "TOP_MODULE;PREFIX" "SOURCES;ARGS")
  verilate(${target}
    SOURCES ${OV_SOURCES}
    TOP_MODULE ${OV_TOP_MODULE}
    PREFIX ${OV_PREFIX}
    VERILATOR_ARGS ${OTPU_VERILATOR_ARGS} ${OV_ARGS}
    OPT_FAST ${OTPU_VERILATOR_OPT_FAST}
    OPT_SLOW ${OTPU_VERILATOR_OPT_SLOW}
    OPT_GLOBAL ${OTPU_VERILATOR_OPT_GLOBAL})
  target_link_libraries(${target} PUBLIC otpu_vl_hooks)
endfunction()
