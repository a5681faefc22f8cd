# The source lists of rtl/board, shared by rtl/CMakeLists.txt (lint) and the Verilated models
# that use them. Each list holds only rtl/board files: put otpu_pkg.sv and otpu_core_pkg.sv
# (OTPU_RTL_CORE_SOURCES starts with them) in front.
#   OTPU_RTL_TRACE_SOURCES   the trace unit (otpu_trace, docs/trace.md), parts first
#   OTPU_RTL_TRACE_MODULES   its modules, one lint test each
get_filename_component(_otpu_board ${CMAKE_CURRENT_LIST_DIR} ABSOLUTE)
# OTPU_RTL_CORE_SOURCES and _PARAMS in this scope too (sim/board is not below sim/rtl).
include(${_otpu_board}/../core/otpu_core_sources.cmake)
set(OTPU_RTL_TRACE_MODULES otpu_trace_bundle otpu_trace_bank otpu_trace)
set(OTPU_RTL_TRACE_SOURCES)
foreach(module IN LISTS OTPU_RTL_TRACE_MODULES)
  list(APPEND OTPU_RTL_TRACE_SOURCES ${_otpu_board}/${module}.sv)
endforeach()

# The board (otpu_board, docs/registers.md): the register block, the loader, the counters, the
# core and the trace unit.
#   OTPU_RTL_BOARD_MODULES   the board's own modules, one lint test each
#   OTPU_RTL_BOARD_SOURCES   everything otpu_board needs, packages first (needs
#                            OTPU_RTL_CORE_SOURCES: include rtl/core/otpu_core_sources.cmake first)
set(OTPU_RTL_BOARD_MODULES otpu_regs otpu_loader otpu_counters otpu_board)
set(OTPU_RTL_BOARD_SOURCES ${OTPU_RTL_CORE_SOURCES} ${OTPU_RTL_TRACE_SOURCES})
foreach(module IN LISTS OTPU_RTL_BOARD_MODULES)
  list(APPEND OTPU_RTL_BOARD_SOURCES ${_otpu_board}/${module}.sv)
endforeach()
