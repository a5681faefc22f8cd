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
# Include it, then call otpu_verilate() where verilate() was called.
set(OTPU_VERILATOR_ARGS --threads 1 -O3 --x-assign fast --x-initial fast)
set(OTPU_VERILATOR_OPT_FAST -O2)
set(OTPU_VERILATOR_OPT_SLOW -O0)
set(OTPU_VERILATOR_OPT_GLOBAL -O2)

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
endfunction()
