# The source list of otpu_base, shared by base/CMakeLists.txt and the fuzz build
# (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_BASE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/exit_codes.cc
  ${CMAKE_CURRENT_LIST_DIR}/install_paths.cc
  ${CMAKE_CURRENT_LIST_DIR}/json.cc
  ${CMAKE_CURRENT_LIST_DIR}/mountinfo.cc
  ${CMAKE_CURRENT_LIST_DIR}/proc_stat.cc
  ${CMAKE_CURRENT_LIST_DIR}/progress.cc
  ${CMAKE_CURRENT_LIST_DIR}/sparse_memory.cc
  ${CMAKE_CURRENT_LIST_DIR}/strings.cc
  ${CMAKE_CURRENT_LIST_DIR}/subprocess.cc
)
# Only the installed-paths lookup needs the checkout's path; on every file it would make each
# compile command differ between checkouts and keep ccache from sharing objects.
get_filename_component(_otpu_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/install_paths.cc PROPERTIES
  COMPILE_DEFINITIONS OTPU_SOURCE_DIR="${_otpu_root}")
