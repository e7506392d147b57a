/* cuda_perm.h — may this user read the GPU's performance counters?  The NVIDIA kernel module says so
 * in /proc/driver/nvidia/params (RmProfilingAdminOnly: 1 means admin only, the default). */
#ifndef GL_CUDA_PERM_H
#define GL_CUDA_PERM_H

#include <stddef.h>

#include "profiler/profiler.h" /* enum gl_check */

#define GL_NVIDIA_PARAMS "/proc/driver/nvidia/params"

/* Read `params_path` (GL_NVIDIA_PARAMS outside tests) for user `uid`; `msg` says what was found and,
 * when it is not OK, the fix. */
enum gl_check gl_cuda_profiling_permission(const char *params_path, unsigned uid, char *msg, size_t n);

#endif
