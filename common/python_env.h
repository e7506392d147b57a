/* python_env.h — what a Python program (Numba, CuPy) needs in its environment to run its kernels on
 * gpulab's driver library (docs/profile.md, "Three kinds of program"): the nvJitLink stub preloaded so
 * that numba-cuda and cuda.core link PTX through the driver, CuPy compiling to PTX without its CUB
 * kernels or its disk cache, and the one warning the stub causes silenced.  `gpulab profile` applies it
 * to its own environment before starting the program, for the simulator only. */
#ifndef GL_PYTHON_ENV_H
#define GL_PYTHON_ENV_H

#include <stdbool.h>

#include "common/err.h"

/* Is `app` (as given on the command line) a Python interpreter: its file name starts with "python"? */
bool gl_python_program(const char *app);

/* Set the variables (those the user set already are left as they are; LD_PRELOAD and PYTHONWARNINGS
 * are added to).  `stub_dir` holds libnvJitLink.so.13 (python/nvjitlink_stub.c); GL_EENV naming it
 * when the stub is not there. */
int gl_python_env_apply(const char *stub_dir, struct gl_err *err);

#endif
