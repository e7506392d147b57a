# python/: what Python GPU code (Numba, CuPy) needs besides gpulab's driver library.  The nvJitLink stub
# (python/nvjitlink_stub.c) goes to its own folder, never the driver's: only Python programs get it,
# through LD_PRELOAD, so a C program linking the real libnvJitLink keeps it.
add_library(gl_nvjitlink_stub SHARED ${CMAKE_SOURCE_DIR}/python/nvjitlink_stub.c)
set_target_properties(gl_nvjitlink_stub PROPERTIES OUTPUT_NAME nvJitLink SOVERSION 13 VERSION 13
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/python C_VISIBILITY_PRESET hidden)
add_dependencies(gpulab gl_nvjitlink_stub)
install(TARGETS gl_nvjitlink_stub LIBRARY DESTINATION lib/gpulab/python NAMELINK_SKIP)
