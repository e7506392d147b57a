/* test_profiler_inject.c — the injection library's host-side rules: its options from the environment,
 * the version check, a launch read from each of the six launch callbacks, the record built from a canned
 * CUPTI result, and a program's launches driven through the callback handler with a range profiler of
 * fakes: only the selected launches are profiled, each in kernel replay. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_driver_cbid.h>

#include "check.h"
#include "common/spool.h"
#include "profiler/inject.h"

static void options_from_env(void)
{
	struct gl_inject_opts o;
	struct gl_err err = {0};
	unsetenv(GL_INJECT_ENV_KERNEL);
	unsetenv(GL_INJECT_ENV_SKIP);
	unsetenv(GL_INJECT_ENV_COUNT);
	unsetenv(GL_INJECT_ENV_METRICS);
	unsetenv(GL_INJECT_ENV_LOG);
	CHECK_EQ(gl_inject_opts_read(&o, &err), GL_OK);
	CHECK(o.kernel_name == NULL && o.metrics == NULL && !o.log);
	CHECK_EQ(o.skip, 0);
	CHECK_EQ(o.count, -1);
	setenv(GL_INJECT_ENV_KERNEL, "regex:^add", 1);
	setenv(GL_INJECT_ENV_SKIP, "2", 1);
	setenv(GL_INJECT_ENV_COUNT, "5", 1);
	setenv(GL_INJECT_ENV_METRICS, "memory", 1);
	setenv(GL_INJECT_ENV_LOG, "1", 1);
	CHECK_EQ(gl_inject_opts_read(&o, &err), GL_OK);
	CHECK_STR(o.kernel_name, "regex:^add");
	CHECK_STR(o.metrics, "memory");
	CHECK(o.log);
	CHECK_EQ(o.skip, 2);
	CHECK_EQ(o.count, 5);
	setenv(GL_INJECT_ENV_COUNT, "0", 1);
	CHECK_EQ(gl_inject_opts_read(&o, &err), GL_OK);
	CHECK_EQ(o.count, -1);
	setenv(GL_INJECT_ENV_COUNT, "five", 1);
	CHECK_EQ(gl_inject_opts_read(&o, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, GL_INJECT_ENV_COUNT) && strstr(err.msg, "five"));
	gl_err_clear(&err);
	setenv(GL_INJECT_ENV_COUNT, "-1", 1);
	CHECK_EQ(gl_inject_opts_read(&o, &err), GL_EUSAGE);
	unsetenv(GL_INJECT_ENV_COUNT);
	unsetenv(GL_INJECT_ENV_SKIP);
	unsetenv(GL_INJECT_ENV_KERNEL);
	unsetenv(GL_INJECT_ENV_METRICS);
	unsetenv(GL_INJECT_ENV_LOG);
}

static void versions(void)
{
	struct gl_err err = {0};
	CHECK_EQ(gl_inject_check_versions(13000, 130001, &err), GL_OK);
	CHECK_EQ(gl_inject_check_versions(13020, 130001, &err), GL_OK); /* a newer driver is fine */
	CHECK_EQ(gl_inject_check_versions(13000, 130200, &err), GL_EENV);
	CHECK(strstr(err.msg, "CUDA 13.0") && strstr(err.msg, "CUPTI 13.2") && strstr(err.msg, "update the driver"));
	gl_err_clear(&err);
	CHECK_EQ(gl_inject_check_versions(12080, 130001, &err), GL_EENV); /* CUDA 13's CUPTI on a 12.8 driver */
	CHECK(strstr(err.msg, "CUDA 12.8") && strstr(err.msg, "CUDA 13.0"));
}

struct classic { /* cuLaunchKernel's arguments, as CUPTI hands them */
	CUfunction f;
	unsigned g[3], b[3], smem;
	CUstream s;
	void **params, **extra;
};

static void launches_from_callbacks(void)
{
	struct classic c = {(CUfunction)0x10, {8, 4, 2}, {128, 2, 1}, 512, NULL, NULL, NULL};
	CUlaunchConfig cfg = {.gridDimX = 3, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 64, .blockDimY = 1,
			      .blockDimZ = 1, .sharedMemBytes = 1024};
	struct {
		const CUlaunchConfig *config;
		CUfunction f;
		void **params, **extra;
	} ex = {&cfg, (CUfunction)0x20, NULL, NULL};
	CUpti_CallbackData cb = {.symbolName = "_Z3addPfS_i", .correlationId = 42, .functionParams = &c};
	struct gl_inject_launch l;
	struct gl_err err = {0};
	const uint32_t classic_ids[] = {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
					CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
					CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(gl_inject_launch_from_cb(classic_ids[i], &cb, &l, &err), GL_OK);
		CHECK(l.grid[0] == 8 && l.grid[1] == 4 && l.grid[2] == 2 && l.block[0] == 128 && l.block[1] == 2);
		CHECK_EQ(l.dyn_smem, 512);
		CHECK_EQ(l.correlation, 42);
		CHECK(l.func == (CUfunction)0x10 && l.regs == -1 && l.static_smem == -1);
	}
	cb.functionParams = &ex;
	CHECK_EQ(gl_inject_launch_from_cb(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &cb, &l, &err), GL_OK);
	CHECK(l.grid[0] == 3 && l.block[0] == 64 && l.dyn_smem == 1024 && l.func == (CUfunction)0x20);
	CHECK_EQ(gl_inject_launch_from_cb(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, &cb, &l, &err), GL_OK);
	CHECK_EQ(l.grid[0], 3);
	CHECK_EQ(gl_inject_launch_from_cb(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &cb, &l, &err), GL_EUSAGE);
	ex.config = NULL;
	gl_err_clear(&err);
	CHECK_EQ(gl_inject_launch_from_cb(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &cb, &l, &err), GL_EUSAGE);
}

static void record_from_canned_result(void)
{
	struct gl_inject_launch l = {.seq = 3, .symbol = "_Z6reducePKfPfi", .name = "reduce", .grid = {256, 1, 1},
				     .block = {256, 1, 1}, .dyn_smem = 0, .regs = 18, .static_smem = 1024};
	const char *names[] = {"dram__bytes_read.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
			       "sm__throughput.avg.pct_of_peak_sustained_elapsed"};
	const double values[] = {262144, 8192, NAN};
	const char units[][16] = {"byte", "sector", "%"};
	struct gl_inject_result res = {names, values, units, 3, 4, 5230.0, ""};
	struct gl_launch_record rec;
	gl_inject_record(&l, &res, &rec);
	CHECK_STR(rec.topic, "program");
	CHECK_STR(rec.variant, "reduce");
	CHECK_STR(rec.entry, "_Z6reducePKfPfi");
	CHECK_STR(rec.metric_source, "cupti");
	CHECK(rec.grid[0] == 256 && rec.block[0] == 256 && rec.regs == 18 && rec.static_smem == 1024);
	CHECK_EQ(rec.verified, -1);
	CHECK_NEAR(rec.duration_ns, 5230.0, 0);
	CHECK_EQ(rec.metrics.n, 2); /* a value CUPTI could not evaluate is left out */
	CHECK_NEAR(*gl_metrics_get(&rec.metrics, "dram__bytes_read.sum"), 262144, 0);
	CHECK_NEAR(*gl_metrics_get(&rec.metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8192, 0);
	CHECK(strstr(rec.note, "4 replay passes") && strstr(rec.note, "kernel replay") &&
	      strstr(rec.note, "activity record"));
	gl_launch_record_free(&rec);
	res.passes = 0; /* not profiled: no metrics, the reason in the note */
	res.duration_ns = NAN;
	res.note = "timings only, no CUPTI metrics: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (ERR_NVGPUCTRPERM)";
	gl_inject_record(&l, &res, &rec);
	CHECK_EQ(rec.metrics.n, 0);
	CHECK(isnan(rec.duration_ns));
	CHECK(strstr(rec.note, "ERR_NVGPUCTRPERM") != NULL);
	gl_launch_record_free(&rec);
}

/* ---- a range profiler of fakes, enough for begin/end */
static int begins, set_configs_kernel_replay, evaluations;
static int range_object, host_object;
static CUptiResult CUPTIAPI f_enable(CUpti_RangeProfiler_Enable_Params *p)
{
	p->pRangeProfilerObject = (CUpti_RangeProfiler_Object *)&range_object;
	begins++;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_size(CUpti_RangeProfiler_GetCounterDataSize_Params *p)
{
	p->counterDataSize = 32;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_init(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI f_config(CUpti_RangeProfiler_SetConfig_Params *p)
{
	set_configs_kernel_replay += p->replayMode == CUPTI_KernelReplay && p->range == CUPTI_AutoRange;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_start(CUpti_RangeProfiler_Start_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI f_stop(CUpti_RangeProfiler_Stop_Params *p)
{
	p->isAllPassSubmitted = 1;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_decode(CUpti_RangeProfiler_DecodeData_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI f_info(CUpti_RangeProfiler_GetCounterDataInfo_Params *p)
{
	p->numTotalRanges = 1;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p)
{
	evaluations++;
	for (size_t i = 0; i < p->numMetrics; i++)
		p->pMetricValues[i] = 100.0 * (double)(i + 1);
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI f_disable(CUpti_RangeProfiler_Disable_Params *p) { (void)p; return 0; }
static int host_closed;
static CUptiResult CUPTIAPI f_host_deinit(CUpti_Profiler_Host_Deinitialize_Params *p)
{
	(void)p;
	host_closed++;
	return CUPTI_SUCCESS;
}
static CUresult CUDAAPI f_func_attr(int *v, CUfunction_attribute a, CUfunction f)
{
	(void)f;
	*v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 32 : 0;
	return CUDA_SUCCESS;
}

static void fake_session(struct gl_inject *s, struct gl_cupti_api *api, const char *filter, long skip, long count)
{
	struct gl_err err = {0};
	memset(s, 0, sizeof *s);
	memset(api, 0, sizeof *api);
	api->cuptiRangeProfilerEnable = f_enable;
	api->cuptiRangeProfilerGetCounterDataSize = f_size;
	api->cuptiRangeProfilerCounterDataImageInitialize = f_init;
	api->cuptiRangeProfilerSetConfig = f_config;
	api->cuptiRangeProfilerStart = f_start;
	api->cuptiRangeProfilerStop = f_stop;
	api->cuptiRangeProfilerDecodeData = f_decode;
	api->cuptiRangeProfilerGetCounterDataInfo = f_info;
	api->cuptiProfilerHostEvaluateToGpuValues = f_evaluate;
	api->cuptiRangeProfilerDisable = f_disable;
	api->cuptiProfilerHostDeinitialize = f_host_deinit;
	pthread_mutex_init(&s->lock, NULL);
	CHECK_EQ(gl_launch_filter_init(&s->filter, filter, skip, count, &err), GL_OK);
	CHECK_EQ(gl_metric_list_parse("dram__bytes_read.sum,gpu__time_duration.sum", &s->c.metrics, &err), GL_OK);
	s->c.units = gl_xcalloc(s->c.metrics.n, sizeof *s->c.units);
	s->c.dev.api.cuFuncGetAttribute = f_func_attr;
	s->c.dev.ctx = (CUcontext)&host_object;
	s->c.range.api = api;
	s->c.range.host.api = api;
	s->c.range.host.obj = (CUpti_Profiler_Host_Object *)&host_object;
	s->c.range.names = (const char *const *)s->c.metrics.names;
	s->c.range.n = s->c.metrics.n;
	s->c.range.passes = 3;
	s->c.range.replay = CUPTI_KernelReplay;
	s->c.profiling = true;
	s->opened = true;
}

static void launch(struct gl_inject *s, const char *symbol, uint32_t correlation)
{
	struct classic c = {(CUfunction)0x10, {4, 1, 1}, {32, 1, 1}, 0, NULL, NULL, NULL};
	CUpti_CallbackData cb = {.symbolName = symbol, .correlationId = correlation, .functionParams = &c,
				 .context = s->c.dev.ctx, .callbackSite = CUPTI_API_ENTER};
	gl_inject_on_launch(s, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
	cb.callbackSite = CUPTI_API_EXIT;
	gl_inject_on_launch(s, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
}

/* Five launches of a program; regex:^add, skip 1, count 2: the first matching launch is passed over, the
 * next two (add_one, then add: launches 3 and 4) are profiled, the last runs free. */
static void selected_launches_profiled(void)
{
	struct gl_inject s;
	struct gl_cupti_api api;
	char spool[4096];
	struct gl_err serr = {0};
	CHECK_EQ(gl_spool_create(spool, sizeof spool, &serr), GL_OK);
	setenv(GL_SPOOL_ENV, spool, 1); /* as gpulab profile --backend cuda sets it */
	fake_session(&s, &api, "regex:^add", 1, 2);
	begins = set_configs_kernel_replay = evaluations = 0;
	launch(&s, "_Z3addPfS_i", 1);
	launch(&s, "_Z5scalePfi", 2);
	launch(&s, "_Z7add_onePfi", 3);
	launch(&s, "_Z3addPfS_i", 4);
	launch(&s, "_Z3addPfS_i", 5);
	CHECK_EQ(s.seq, 5);
	CHECK_STR(s.pending.name, "add"); /* the last selected launch, by its function name */
	CHECK_EQ(s.emitted, 2);
	CHECK_EQ(begins, 2);
	CHECK_EQ(set_configs_kernel_replay, 2);
	CHECK_EQ(evaluations, 2);
	CHECK(!s.have_pending && s.c.range.obj == NULL); /* every session ended */
	CHECK(gl_launch_filter_done(&s.filter));
	/* what the parent loads from the spool: the two launches' records with CUPTI's values */
	struct gl_spool_set set = {0};
	CHECK_EQ(gl_spool_load(spool, &set, &serr), GL_OK);
	CHECK_EQ(set.n, 2);
	CHECK_EQ(set.rejected, 0);
	if (set.n == 2) {
		CHECK_EQ(set.launches[0].seq, 3);
		CHECK_STR(set.launches[0].kernel, "add_one(float*, int)");
		CHECK_STR(set.launches[0].rec.variant, "add_one");
		CHECK_STR(set.launches[1].rec.variant, "add");
		CHECK_STR(set.launches[1].rec.metric_source, "cupti");
		CHECK_EQ(set.launches[1].rec.regs, 32);
		CHECK_NEAR(*gl_metrics_get(&set.launches[1].rec.metrics, "dram__bytes_read.sum"), 100, 0);
		CHECK_NEAR(*gl_metrics_get(&set.launches[1].rec.metrics, "gpu__time_duration.sum"), 200, 0);
		CHECK(strstr(set.launches[1].rec.note, "3 replay passes") != NULL);
	}
	gl_spool_set_free(&set);
	gl_spool_remove(spool);
	unsetenv(GL_SPOOL_ENV);
	/* the count reached, CUPTI lets go: the rest of the program runs at full speed */
	CHECK(s.off && !s.c.profiling);
	CHECK_EQ(host_closed, 1);
	launch(&s, "_Z3addPfS_i", 6);
	CHECK_EQ(s.emitted, 2);
	/* a Numba kernel is matched by its Python name (timed, not profiled, here) */
	gl_launch_filter_free(&s.filter);
	struct gl_err err = {0};
	CHECK_EQ(gl_launch_filter_init(&s.filter, "vector_add", 0, -1, &err), GL_OK);
	s.off = false;
	launch(&s, "_Z3addPfS_i", 7);
	launch(&s, "_ZN8__main__10vector_addB2v1B3abcE5ArrayIfLi1E1C7mutable7alignedE", 8);
	CHECK_EQ(s.emitted, 3);
	CHECK_STR(s.pending.name, "vector_add");
	/* a C++ kernel by its qualified name, or by its mangled name, as the driver library matches */
	gl_launch_filter_free(&s.filter);
	CHECK_EQ(gl_launch_filter_init(&s.filter, "lab::scale", 0, -1, &err), GL_OK);
	launch(&s, "_ZN3lab5scaleIfEEvPT_i", 9);
	launch(&s, "_Z5scalePfi", 10);
	CHECK_EQ(s.emitted, 4);
	CHECK_STR(s.pending.name, "lab::scale");
	gl_launch_filter_free(&s.filter);
	CHECK_EQ(gl_launch_filter_init(&s.filter, "_Z5scalePfi", 0, -1, &err), GL_OK);
	launch(&s, "_Z5scalePfi", 11);
	CHECK_EQ(s.emitted, 5);
	CHECK_EQ(begins, 2); /* no range profiler any more */
	/* a forked child's launches are never profiled */
	s.forked = true;
	launch(&s, "_Z3addPfS_i", 12);
	CHECK_EQ(s.emitted, 5);
	CHECK(s.said_fork);
	free(s.c.range.data);
	free(s.c.units);
	gl_metric_list_free(&s.c.metrics);
	gl_launch_filter_free(&s.filter);
}

int main(void)
{
	options_from_env();
	versions();
	launches_from_callbacks();
	record_from_canned_result();
	selected_launches_profiled();
	CHECK_DONE();
}
