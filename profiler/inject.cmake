# libgpulab_inject.so (profiler/inject.h): the CUPTI injection library `gpulab profile --backend cuda`
# loads into a program through CUDA_INJECTION64_PATH.  It compiles its own position-independent copy of
# the cuda backend's CUPTI code (the same files, no second implementation), the demangler and common/;
# only InitializeInjection is exported, and unused code is dropped at link time (--gc-sections), so the
# library needs nothing of the simulator or the kernels.  No sanitizers: it runs inside other programs.
set(GL_INJECT_SOURCES
  profiler/inject_main.c profiler/inject_session.c profiler/inject_record.c profiler/inject_opts.c
  profiler/inject_emit.c profiler/cuda_api.c profiler/cuda_describe.c profiler/cuda_device.c
  profiler/cuda_profiling.c profiler/cupti_activity.c profiler/cupti_api.c profiler/cupti_catalog.c
  profiler/cupti_check.c profiler/cupti_device.c profiler/cupti_errors.c profiler/cupti_host.c
  profiler/cupti_range.c profiler/metric_sets.c toolchain/demangle.c)
list(TRANSFORM GL_INJECT_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/)
add_library(gl_inject SHARED ${GL_INJECT_SOURCES} ${COMMON_SOURCES})
target_include_directories(gl_inject PRIVATE ${CMAKE_SOURCE_DIR} ${GEN_DIR})
target_include_directories(gl_inject SYSTEM PRIVATE ${CMAKE_SOURCE_DIR}/profiler/shim ${CUDA_HOME}/include)
target_compile_definitions(gl_inject PRIVATE $<TARGET_PROPERTY:gl_common,INTERFACE_COMPILE_DEFINITIONS>)
target_compile_options(gl_inject PRIVATE -fvisibility=hidden -ffunction-sections -fdata-sections)
target_link_libraries(gl_inject PRIVATE Threads::Threads m ${CMAKE_DL_LIBS})
set_target_properties(gl_inject PROPERTIES OUTPUT_NAME gpulab_inject
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/inject
  LINK_FLAGS "-Wl,--version-script=${CMAKE_SOURCE_DIR}/profiler/inject.map -Wl,--gc-sections -Wl,--no-undefined")
set_property(TARGET gl_inject APPEND PROPERTY LINK_DEPENDS ${CMAKE_SOURCE_DIR}/profiler/inject.map)
add_dependencies(gpulab gl_inject) # `make build` builds it, so the tests and `gpulab profile` find it
install(TARGETS gl_inject LIBRARY DESTINATION lib/gpulab)
# The library loaded as NVIDIA's driver loads it, under gpulab's own driver library (driver/).
add_dependencies(test_profiler_inject_load gl_inject gl_cuda_driver)
set_tests_properties(test_profiler_inject_load PROPERTIES
  ENVIRONMENT "LD_LIBRARY_PATH=${CMAKE_BINARY_DIR}/driver;GPULAB_INJECT_LIB=$<TARGET_FILE:gl_inject>")
