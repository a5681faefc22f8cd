# The source list of the core (docs/rtl-core.md), shared by rtl/CMakeLists.txt (lint) and
# sim/rtl/CMakeLists.txt (the Verilated model), which the top CMakeLists.txt reaches first.
#   OTPU_RTL_CORE_SOURCES  packages first, then the fp units and every module of rtl/core
#   OTPU_RTL_CORE_MODULES  the modules of rtl/core, one lint test each
#   OTPU_RTL_CONFIGS       the RTL configurations (SPEC 3.1) every build verilates, each
#                          into its own models (PREFIX Votpu_core_<name>, Votpu_board_<name>)
#   OTPU_RTL_PARAMS_<name> otpu_core / otpu_board parameters of configuration <name> (-G...)
#   OTPU_RTL_CONFIG        the default configuration (a cache option): what tests and programs
#                          use when they name none (rtl::BuiltConfig())
#   OTPU_RTL_CORE_PARAMS   the default configuration's parameters
# This is the one place that lists the configurations; isa::Config::Sim()/Board() are their
# C++ side (the models' VERSION is checked against them when a model is made).
set(OTPU_RTL_CONFIGS sim board)
set(OTPU_RTL_PARAMS_sim)
set(OTPU_RTL_PARAMS_board -GD=128 -GMCOLS=2 -GFIFO_DEPTH=1024 "-GDRAM_BYTES=64'h100000000")
set(OTPU_RTL_CONFIG sim CACHE STRING "Default RTL configuration (sim or board; both are built)")
set_property(CACHE OTPU_RTL_CONFIG PROPERTY STRINGS ${OTPU_RTL_CONFIGS})

get_filename_component(_otpu_rtl ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
file(GLOB OTPU_RTL_CORE_MODULES CONFIGURE_DEPENDS RELATIVE ${_otpu_rtl}/core
     ${_otpu_rtl}/core/otpu_*.sv)
list(REMOVE_ITEM OTPU_RTL_CORE_MODULES otpu_core_pkg.sv)
list(TRANSFORM OTPU_RTL_CORE_MODULES REPLACE "\\.sv$" "")
file(GLOB _otpu_fp CONFIGURE_DEPENDS ${_otpu_rtl}/fp/otpu_fp_*.sv)
list(FILTER _otpu_fp EXCLUDE REGEX "otpu_fp_(pkg|testtop)\\.sv$")

set(OTPU_RTL_CORE_SOURCES
  ${_otpu_rtl}/otpu_pkg.sv ${_otpu_rtl}/fp/otpu_fp_pkg.sv ${_otpu_rtl}/core/otpu_core_pkg.sv
  ${_otpu_fp})
foreach(module IN LISTS OTPU_RTL_CORE_MODULES)
  list(APPEND OTPU_RTL_CORE_SOURCES ${_otpu_rtl}/core/${module}.sv)
endforeach()

if(NOT OTPU_RTL_CONFIG IN_LIST OTPU_RTL_CONFIGS)
  message(FATAL_ERROR "OTPU_RTL_CONFIG=${OTPU_RTL_CONFIG}: expected one of ${OTPU_RTL_CONFIGS}")
endif()
set(OTPU_RTL_CORE_PARAMS ${OTPU_RTL_PARAMS_${OTPU_RTL_CONFIG}})
