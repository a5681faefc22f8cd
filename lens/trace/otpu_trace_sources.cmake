# The source list of otpu_trace, shared by lens/trace/CMakeLists.txt and the fuzz build
# (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_TRACE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/tokenizer.cc ${CMAKE_CURRENT_LIST_DIR}/decoder.cc)
