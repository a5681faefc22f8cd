# The source list of the core (docs/rtl-core.md), shared by rtl/CMakeLists.txt (lint) and
# sim/rtl/CMakeLists.txt (the Verilated model), which the top CMakeLists.txt reaches first.
#   OTPU_RTL_CORE_SOURCES  packages first, then the fp units and every module of rtl/core
#   OTPU_RTL_CORE_MODULES  the modules of rtl/core, one lint test each
#   OTPU_RTL_CORE_PARAMS   otpu_core parameters of the configuration (-G...)
#   OTPU_RTL_CONFIG        sim (default) or board (SPEC 3.1), a cache option
set(OTPU_RTL_CONFIG sim CACHE STRING "RTL configuration of the Verilated core: sim or board")
set_property(CACHE OTPU_RTL_CONFIG PROPERTY STRINGS sim board)

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

if(OTPU_RTL_CONFIG STREQUAL "board")
  set(OTPU_RTL_CORE_PARAMS -GD=128 -GMCOLS=2 -GFIFO_DEPTH=1024 "-GDRAM_BYTES=64'h100000000")
elseif(OTPU_RTL_CONFIG STREQUAL "sim")
  set(OTPU_RTL_CORE_PARAMS)
else()
  message(FATAL_ERROR "OTPU_RTL_CONFIG=${OTPU_RTL_CONFIG}: expected sim or board")
endif()
