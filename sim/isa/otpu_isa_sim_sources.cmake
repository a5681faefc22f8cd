# The source list of otpu_isa_sim, shared by sim/isa/CMakeLists.txt and the fuzz build
# (tests/fuzz/CMakeLists.txt), which compile the same files with different compilers.
set(OTPU_ISA_SIM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/fp32.cc
  ${CMAKE_CURRENT_LIST_DIR}/checks.cc
  ${CMAKE_CURRENT_LIST_DIR}/mxu.cc
  ${CMAKE_CURRENT_LIST_DIR}/dma_quant.cc
  ${CMAKE_CURRENT_LIST_DIR}/vpu.cc
  ${CMAKE_CURRENT_LIST_DIR}/isa_sim.cc
)
