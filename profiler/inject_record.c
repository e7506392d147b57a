/* inject_record.c — a program's launch as the callback API shows it, and the launch record made of it
 * and of what CUPTI measured. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cupti_driver_cbid.h>

#include "profiler/inject.h"

/* CUPTI hands a driver call's arguments as a struct of them in order (generated_cuda_meta.h, which
 * needs cuda.h's internal declarations and so cannot be included here): cuLaunchKernel,
 * cuLaunchCooperativeKernel and their _ptsz forms begin alike, cuLaunchKernelEx takes a configuration. */
struct classic_launch_params {
	CUfunction f;
	unsigned int gridDimX, gridDimY, gridDimZ;
	unsigned int blockDimX, blockDimY, blockDimZ;
	unsigned int sharedMemBytes;
	CUstream hStream;
	void **kernelParams;
};
struct ex_launch_params {
	const CUlaunchConfig *config;
	CUfunction f;
	void **kernelParams;
	void **extra;
};

static void set_geometry(struct gl_inject_launch *l, CUfunction f, const unsigned grid[3], const unsigned block[3],
			 unsigned smem)
{
	l->func = f;
	memcpy(l->grid, grid, sizeof l->grid);
	memcpy(l->block, block, sizeof l->block);
	l->dyn_smem = smem;
}

static void from_classic(const struct classic_launch_params *p, struct gl_inject_launch *l)
{
	unsigned g[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
	unsigned b[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
	set_geometry(l, p->f, g, b, p->sharedMemBytes);
}

static int from_ex(const CUlaunchConfig *cfg, CUfunction f, struct gl_inject_launch *l, struct gl_err *err)
{
	if (!cfg)
		return gl_errf(err, GL_EUSAGE, "cuLaunchKernelEx without a launch configuration");
	unsigned g[3] = {cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ};
	unsigned b[3] = {cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ};
	set_geometry(l, f, g, b, cfg->sharedMemBytes);
	return GL_OK;
}

int gl_inject_launch_from_cb(uint32_t cbid, const CUpti_CallbackData *cb, struct gl_inject_launch *l,
			     struct gl_err *err)
{
	memset(l, 0, sizeof *l);
	l->regs = l->static_smem = -1;
	l->symbol = cb->symbolName ? cb->symbolName : "";
	l->correlation = cb->correlationId;
	l->ctx = cb->context;
	const void *p = cb->functionParams;
	if (!p)
		return gl_errf(err, GL_EUSAGE, "launch callback without parameters");
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
		from_classic(p, l);
		return GL_OK;
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
	case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
		const struct ex_launch_params *x = p;
		return from_ex(x->config, x->f, l, err);
	}
	default:
		return gl_errf(err, GL_EUSAGE, "callback id %u is not a kernel launch", cbid);
	}
}

static void write_note(const struct gl_inject_result *res, struct gl_launch_record *rec)
{
	if (res->passes > 0)
		snprintf(rec->note, sizeof rec->note, "CUPTI: %d replay pass%s (kernel replay: device memory restored "
			 "between passes), time: %s%s%.100s", res->passes, res->passes == 1 ? "" : "es",
			 isnan(res->duration_ns) ? "no activity record" : "activity record",
			 res->note && *res->note ? "; " : "", res->note ? res->note : "");
	else
		snprintf(rec->note, sizeof rec->note, "%.255s", res->note && *res->note ? res->note : "not profiled");
}

void gl_inject_record(const struct gl_inject_launch *l, const struct gl_inject_result *res,
		      struct gl_launch_record *rec)
{
	gl_launch_record_init(rec);
	snprintf(rec->topic, sizeof rec->topic, "program");
	snprintf(rec->variant, sizeof rec->variant, "%.31s", l->name); /* as the driver library names it */
	snprintf(rec->entry, sizeof rec->entry, "%.63s", l->symbol ? l->symbol : "");
	memcpy(rec->grid, l->grid, sizeof rec->grid);
	memcpy(rec->block, l->block, sizeof rec->block);
	rec->dyn_smem = l->dyn_smem;
	rec->regs = l->regs;
	rec->static_smem = l->static_smem;
	rec->verified = -1; /* a program checks its own results */
	rec->duration_ns = res->duration_ns;
	snprintf(rec->metric_source, sizeof rec->metric_source, "cupti");
	for (size_t i = 0; res->passes > 0 && i < res->n; i++)
		if (!isnan(res->values[i]))
			gl_metrics_set(&rec->metrics, res->names[i], res->values[i], res->units ? res->units[i] : "");
	write_note(res, rec);
}
