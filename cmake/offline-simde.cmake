# WAMR (built by the quickjs backend's build script) would clone simde from the
# network with FetchContent; point it at the system headers (libsimde-dev) instead.
set(FETCHCONTENT_SOURCE_DIR_SIMDE "/usr/include" CACHE PATH "" FORCE)
set(FETCHCONTENT_FULLY_DISCONNECTED ON CACHE BOOL "" FORCE)
