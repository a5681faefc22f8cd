# The source lists of otpu_lens and otpu_hw_profile, shared by lens/CMakeLists.txt and the fuzz
# build (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_LENS_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/profile.cc
  ${CMAKE_CURRENT_LIST_DIR}/gzip.cc
  ${CMAKE_CURRENT_LIST_DIR}/profile_json_write.cc
  ${CMAKE_CURRENT_LIST_DIR}/profile_json_read.cc
  ${CMAKE_CURRENT_LIST_DIR}/profile_sax.cc
  ${CMAKE_CURRENT_LIST_DIR}/profile_text_stream.cc
  ${CMAKE_CURRENT_LIST_DIR}/otpuprof.cc
  ${CMAKE_CURRENT_LIST_DIR}/file_io.cc
  ${CMAKE_CURRENT_LIST_DIR}/synthetic.cc
  ${CMAKE_CURRENT_LIST_DIR}/roofline.cc
  ${CMAKE_CURRENT_LIST_DIR}/build_profile.cc
  ${CMAKE_CURRENT_LIST_DIR}/notes.cc
  ${CMAKE_CURRENT_LIST_DIR}/attribution.cc
  ${CMAKE_CURRENT_LIST_DIR}/findings.cc
  ${CMAKE_CURRENT_LIST_DIR}/recorder.cc
  ${CMAKE_CURRENT_LIST_DIR}/info.cc
  ${CMAKE_CURRENT_LIST_DIR}/profile_compare.cc
  ${CMAKE_CURRENT_LIST_DIR}/diff.cc
  ${CMAKE_CURRENT_LIST_DIR}/summary.cc
  ${CMAKE_CURRENT_LIST_DIR}/chrome_trace.cc
)
set(OTPU_HW_PROFILE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/build_hw_profile.cc)
