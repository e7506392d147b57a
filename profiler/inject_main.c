/* inject_main.c — the injection library's entry point: NVIDIA's driver calls InitializeInjection inside
 * cuInit when CUDA_INJECTION64_PATH names this library.  It checks what `gpulab doctor` checks (CUPTI,
 * the driver's version, that the driver is NVIDIA's), subscribes to the six launch entry points and
 * leaves everything else to inject_session.c.  Whatever goes wrong, the program runs on, unprofiled,
 * and a line on stderr says why. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cupti_driver_cbid.h>

#include "common/util.h"
#include "profiler/cupti_errors.h"
#include "profiler/inject.h"

/* The one injection of this process: atexit and pthread_atfork handlers carry no pointer. */
static struct gl_inject *injection;

static const CUpti_CallbackId launch_cbids[] = {
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,         CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
	CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
	if (domain == CUPTI_CB_DOMAIN_DRIVER_API && data)
		gl_inject_on_launch(userdata, cbid, data);
}

static void after_fork_in_child(void)
{
	if (injection)
		injection->forked = true;
}

static void at_exit(void)
{
	if (!injection)
		return;
	if (injection->sub)
		injection->cb_api.cuptiUnsubscribe(injection->sub);
	gl_inject_close(injection);
}

/* Only the process gpulab started is profiled; programs it starts inherit the injection and run free. */
static bool first_process(void)
{
	char pid[32];
	const char *root = getenv(GL_INJECT_ENV_ROOT);
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (root && *root && strcmp(root, pid) != 0) {
		gl_inject_say("process %s, started by the profiled program (process %s), runs unprofiled: gpulab "
			      "profiles the process it started", pid, root);
		return false;
	}
	setenv(GL_INJECT_ENV_ROOT, pid, 1);
	return true;
}

/* CUPTI loads, is new enough for the driver, and the driver is NVIDIA's (CUPTI reaches the GPU through
 * it): the checks `gpulab doctor` makes. */
static int check_versions(struct gl_inject *s, struct gl_err *err)
{
	struct gl_cuda_api cu;
	char why[512];
	int rc = gl_cupti_api_load(&s->cb_api, err);
	if (rc != GL_OK)
		return rc;
	if (!gl_cuda_api_open(&cu, why, sizeof why))
		return gl_errf(err, GL_EENV, "%s", why);
	int driver = 0;
	uint32_t cupti = 0;
	cu.cuDriverGetVersion(&driver);
	s->cb_api.cuptiGetVersion(&cupti);
	rc = gl_inject_check_versions(driver, cupti, err);
	if (rc == GL_OK && !gl_cuda_profilable(&cu, why, sizeof why))
		rc = gl_errf(err, GL_EENV, "%s", why);
	gl_cuda_api_unload(&cu);
	return rc;
}

static int subscribe(struct gl_inject *s, struct gl_err *err)
{
	int rc = gl_cupti_fail(&s->cb_api, s->cb_api.cuptiSubscribe(&s->sub, on_callback, s), "cuptiSubscribe", err);
	for (size_t i = 0; rc == GL_OK && i < GL_ARRAY_LEN(launch_cbids); i++)
		rc = gl_cupti_fail(&s->cb_api, s->cb_api.cuptiEnableCallback(1, s->sub, CUPTI_CB_DOMAIN_DRIVER_API,
									     launch_cbids[i]),
				   "cuptiEnableCallback", err);
	return rc;
}

static int start(struct gl_inject *s, struct gl_err *err)
{
	int rc = gl_inject_opts_read(&s->opts, err);
	if (rc == GL_OK)
		rc = gl_launch_filter_init(&s->filter, s->opts.kernel_name, s->opts.skip, s->opts.count, err);
	if (rc == GL_OK)
		rc = check_versions(s, err);
	if (rc == GL_OK)
		rc = subscribe(s, err);
	return rc;
}

__attribute__((visibility("default"))) int InitializeInjection(void)
{
	if (injection || !first_process())
		return 1;
	struct gl_inject *s = gl_xcalloc(1, sizeof *s);
	struct gl_err err = {0};
	pthread_mutex_init(&s->lock, NULL);
	if (start(s, &err) != GL_OK) {
		gl_inject_say("%s; the program runs unprofiled", err.msg);
		if (s->sub)
			s->cb_api.cuptiUnsubscribe(s->sub);
		gl_launch_filter_free(&s->filter);
		if (s->cb_api.lib)
			gl_cupti_api_unload(&s->cb_api);
		pthread_mutex_destroy(&s->lock);
		free(s);
		return 1; /* the program itself is fine */
	}
	injection = s;
	pthread_atfork(NULL, NULL, after_fork_in_child);
	atexit(at_exit);
	return 1;
}
