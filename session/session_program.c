/* session_program.c — the kernel launches of a program run under `gpulab profile`, loaded from the spool
 * the program's side wrote (common/spool.h, already checked there), stored as one run of topic "program":
 * one launch row per recorded launch with the demangled kernel name, the program's path and the hash of
 * its binary in params_json, the command line in the run row, and how the program ended in its note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "session/session.h"

struct launch_params {
	const struct gl_program_info *prog;
	const struct gl_spool_launch *l;
};

static void write_params(struct gl_json *j, const void *arg)
{
	const struct launch_params *p = arg;
	gl_json_begin_object(j, NULL);
	gl_json_string(j, "kernel", p->l->kernel);
	gl_json_int(j, "launch", p->l->seq);
	gl_json_int(j, "stream", (long long)p->l->stream);
	gl_json_string(j, "program", p->prog->path);
	gl_json_string(j, "sha256", p->prog->sha256);
	if (p->l->error)
		gl_json_int(j, "cuda_error", p->l->error);
	gl_json_end_object(j);
}

/* The device the launches ran on: the GPU model the driver library simulated. */
static void program_device(const struct gl_gpu_model *g, struct gl_device_info *dev)
{
	memset(dev, 0, sizeof *dev);
	snprintf(dev->name, sizeof dev->name, "NVIDIA %s (gpulab simulator)", g->full_name);
	dev->sm_count = g->sm_count;
	dev->cc_major = g->cc_major;
	dev->cc_minor = g->cc_minor;
	snprintf(dev->driver, sizeof dev->driver, "gpulab driver %s", GPULAB_VERSION);
	snprintf(dev->arch, sizeof dev->arch, "%s", g->arch);
}

int gl_session_store_program(const struct gl_session_env *env, const struct gl_program_info *prog,
			     struct gl_spool_set *set, long *run_id)
{
	struct gl_device_info dev;
	if (prog->device)
		dev = *prog->device;
	else
		program_device(prog->gpu, &dev);
	struct gl_session *s = gl_session_new(env, prog->device ? "cuda" : "sim", &dev);
	gl_session_set_backend_note(s, prog->outcome);
	for (size_t i = 0; i < set->n; i++) {
		struct gl_spool_launch *l = &set->launches[i];
		struct launch_params p = {prog, l};
		free(l->rec.params_json);
		l->rec.params_json = gl_json_to_string(write_params, &p);
		l->rec.verified = -1; /* the program checks its own results */
		gl_session_add(s, &l->rec);
	}
	int rc = gl_session_store(s, NULL, run_id, NULL);
	gl_session_free(s);
	return rc;
}
