# Fails when rtl/core/otpu_core_pkg.sv does not hold the events_t typedef gen_sv_events prints
# from sim/rtl/event_fields.h.
execute_process(COMMAND ${GEN} OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_sv_events failed (${rc})")
endif()
file(READ ${PKG} committed)
string(FIND "${committed}" "${generated}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PKG}: its events_t is out of date with sim/rtl/event_fields.h: "
                      "put the output of build/sim/rtl/gen_sv_events in its place")
endif()
