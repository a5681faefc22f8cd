# The source list of otpu_isa, shared by workloads/CMakeLists.txt and the fuzz build
# (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_ISA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/defs.cc
  ${CMAKE_CURRENT_LIST_DIR}/instr.cc
  ${CMAKE_CURRENT_LIST_DIR}/cost.cc
  ${CMAKE_CURRENT_LIST_DIR}/disasm.cc
  ${CMAKE_CURRENT_LIST_DIR}/program.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_records.cc
  ${CMAKE_CURRENT_LIST_DIR}/footprint.cc
)
# Only the source-line mapper needs the checkout's path; on every file it would make each
# compile command differ between checkouts and keep ccache from sharing objects.
get_filename_component(_otpu_root ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/program.cc PROPERTIES
  COMPILE_DEFINITIONS OTPU_SOURCE_DIR="${_otpu_root}")
