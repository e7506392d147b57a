/* cmd_profile.h — what `gpulab profile`'s files share: the options as parsed (cmd_profile.c) and the
 * program run under gpulab's driver library (cmd_profile_child.c). */
#ifndef GL_CMD_PROFILE_H
#define GL_CMD_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "profiler/profiler.h"

/* gpulab's own exit statuses once the program may have started (before that: 2 usage, 3 environment). */
#define GL_PROFILE_EXIT_FAILED 125   /* the program ran, but its launches could not be stored */
#define GL_PROFILE_EXIT_NOEXEC 126   /* the program cannot be executed (as a shell says it) */
#define GL_PROFILE_EXIT_NOTFOUND 127 /* no such program */

struct profile_opts {
	char **app;                  /* APP ARGS..., NULL-ended */
	const char *kernel;          /* --kernel-name */
	long skip, count, sample_ctas;
	int tools;                   /* GL_TOOL_* mask; 0: all */
	bool memcheck_faults;        /* --tool memcheck alone: faults as under compute-sanitizer */
	int print_limit;
	long printf_buffer, max_instructions;
	bool trace;
	int error_exitcode;          /* -1: none */
	const char *log;             /* --log FILE */
	const char *gpu;             /* --gpu MODEL */
	const char *spool;           /* --spool DIR: store what the library recorded alone; run nothing */
	const char *backend;         /* --backend auto|cuda|sim (cmd_profile_backend.c) */
	const char *metrics;         /* --metrics (cuda) */
	bool cuda;                   /* the program runs on the GPU with the injection library */
	char inject[4096];           /* with cuda: libgpulab_inject.so for CUDA_INJECTION64_PATH */
	struct gl_device_info device; /* with cuda: GPU 0, as the run stores it */
};

/* Where the program's name is in a profile command line (argv[0] "profile"): the word after gpulab's own
 * options and a "--"; argc when there is none.  Lessons bind their checks to it. */
int gl_cli_profile_app(int argc, char **argv);

/* How the program ended. */
struct profile_child {
	int status;                  /* its exit status as a shell reports it (128 + signal when killed) */
	int signal;                  /* the signal that killed it, 0 when it exited */
	int spawn_errno;             /* the program could not be started (ENOENT, EACCES, ...), else 0 */
};

/* The directory holding gpulab's driver library (libcuda.so.1): $GPULAB_DRIVER_DIR, beside the gpulab
 * binary in a build tree (driver/), or the installation's lib/gpulab.  GL_EENV when none has it. */
int gl_profile_driver_dir(char *out, size_t n, struct gl_err *err);
/* --backend: with a usable GPU (cuda, or auto when one is) the program runs on NVIDIA's driver with
 * gpulab's CUPTI injection library (o->inject, o->device); else `driver_dir` gets gpulab's driver library
 * and a Python program's environment is prepared (common/python_env.h).  GL_EUSAGE for an option the
 * backend does not take, GL_EENV naming what is missing (cmd_profile_backend.c). */
int gl_profile_prepare(struct gl_ctx *ctx, struct profile_opts *o, char *driver_dir, size_t n);
/* Run the program with the driver library first on its loader path and the spool and selection named in
 * its environment; wait for it (gpulab ignores SIGINT and SIGQUIT meanwhile, as system() does, so that
 * what completed is still stored). */
void gl_profile_run_child(const struct profile_opts *o, const char *driver_dir, const char *spool,
			  struct profile_child *out);

#endif
