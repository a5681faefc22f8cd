# The source list of otpu_models_io, shared by workloads/models/CMakeLists.txt and the fuzz
# build (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_MODELS_IO_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/safetensors.cc
  ${CMAKE_CURRENT_LIST_DIR}/safetensors_set.cc
  ${CMAKE_CURRENT_LIST_DIR}/qwen3_config.cc
  ${CMAKE_CURRENT_LIST_DIR}/qwen3_weights.cc
  ${CMAKE_CURRENT_LIST_DIR}/byte_level.cc
  ${CMAKE_CURRENT_LIST_DIR}/pre_tokenizer.cc
  ${CMAKE_CURRENT_LIST_DIR}/tokenizer.cc
  ${CMAKE_CURRENT_LIST_DIR}/tiny_tokenizer.cc
  ${CMAKE_CURRENT_LIST_DIR}/tiny_checkpoint.cc
)
