/* test_profiler_fakes.c — the driver and CUPTI error paths, driven through function tables filled
 * with fakes: no-driver and no-device messages, the permission fix, the timings-only fallback
 * decision, and that the three CUPTI calls which crash without a driver are never reached. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profiler/cuda_perm.h"
#include "profiler/cupti_activity.h"
#include "profiler/cupti_catalog.h"
#include "sim/sim.h"
#include "profiler/cupti_device.h"
#include "profiler/cupti_errors.h"
#include "profiler/cupti_range.h"

/* ---- fake driver */
static CUresult init_result;
static int device_count;
static CUresult CUDAAPI fake_cuInit(unsigned flags) { (void)flags; return init_result; }
static CUresult CUDAAPI fake_count(int *n) { *n = device_count; return CUDA_SUCCESS; }
static CUresult CUDAAPI fake_version(int *v) { *v = 13000; return CUDA_SUCCESS; }
static CUresult CUDAAPI fake_error_name(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_OTHER";
	return CUDA_SUCCESS;
}

static CUresult CUDAAPI fake_export_table(const void **table, const CUuuid *id)
{
	(void)id;
	*table = NULL;
	return CUDA_ERROR_NOT_SUPPORTED;
}

static struct gl_cuda_api fake_cuda(CUresult init, int count)
{
	struct gl_cuda_api api;
	memset(&api, 0, sizeof api);
	init_result = init;
	device_count = count;
	api.cuInit = fake_cuInit;
	api.cuDeviceGetCount = fake_count;
	api.cuDriverGetVersion = fake_version;
	api.cuGetErrorName = fake_error_name;
	api.cuGetExportTable = fake_export_table; /* NVIDIA's driver has it; the stand-in does not */
	return api;
}

/* ---- fake CUPTI: counts the calls that must never happen without a driver */
static int crashy_calls, start_calls, stop_calls, passes_needed = 1, launches, prepares;
static CUptiResult availability_result, start_result;

static CUptiResult CUPTIAPI fake_result_string(CUptiResult r, const char **s)
{
	*s = r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" : "CUPTI_ERROR_X";
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_chip_name(CUpti_Device_GetChipName_Params *p)
{
	crashy_calls++;
	p->pChipName = "GH100";
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_enable(CUpti_RangeProfiler_Enable_Params *p)
{
	static int object;
	crashy_calls++;
	p->pRangeProfilerObject = (CUpti_RangeProfiler_Object *)&object;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_availability(CUpti_Profiler_GetCounterAvailability_Params *p)
{
	crashy_calls++;
	p->counterAvailabilityImageSize = 0;
	return availability_result;
}
static CUptiResult CUPTIAPI fake_init(CUpti_Profiler_Initialize_Params *p) { (void)p; return CUPTI_SUCCESS; }
/* ---- fake host API and range profiler, enough for one session */
static int host_object;
static const char *const chips[] = {"GA100", "GH100"};
static CUptiResult CUPTIAPI fake_chips(CUpti_Profiler_Host_GetSupportedChips_Params *p)
{
	p->ppChipNames = chips;
	p->numChips = 2;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_host_init(CUpti_Profiler_Host_Initialize_Params *p)
{
	p->pHostObject = (CUpti_Profiler_Host_Object *)&host_object;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_host_deinit(CUpti_Profiler_Host_Deinitialize_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI fake_props(CUpti_Profiler_Host_GetMetricProperties_Params *p)
{
	p->pDescription = "fake";
	p->pDimUnit = "byte";
	p->pHwUnit = "dram";
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_add(CUpti_Profiler_Host_ConfigAddMetrics_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI fake_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params *p)
{
	p->configImageSize = 16;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_image(CUpti_Profiler_Host_GetConfigImage_Params *p)
{
	memset(p->pConfigImage, 7, p->configImageSize);
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_passes(CUpti_Profiler_Host_GetNumOfPasses_Params *p)
{
	p->numOfPasses = (size_t)passes_needed;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params *p)
{
	for (size_t i = 0; i < p->numMetrics; i++)
		p->pMetricValues[i] = (double)(i + 1);
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_data_size(CUpti_RangeProfiler_GetCounterDataSize_Params *p)
{
	p->counterDataSize = 64;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_data_init(CUpti_RangeProfiler_CounterDataImage_Initialize_Params *p)
{
	(void)p;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_set_config(CUpti_RangeProfiler_SetConfig_Params *p)
{
	return p->range == CUPTI_AutoRange && p->replayMode == CUPTI_UserReplay ? CUPTI_SUCCESS
										 : CUPTI_ERROR_INVALID_OPERATION;
}
static CUptiResult CUPTIAPI fake_start(CUpti_RangeProfiler_Start_Params *p)
{
	(void)p;
	start_calls++;
	return start_result;
}
static CUptiResult CUPTIAPI fake_stop(CUpti_RangeProfiler_Stop_Params *p)
{
	p->isAllPassSubmitted = ++stop_calls >= passes_needed;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_decode(CUpti_RangeProfiler_DecodeData_Params *p) { (void)p; return 0; }
static CUptiResult CUPTIAPI fake_info(CUpti_RangeProfiler_GetCounterDataInfo_Params *p)
{
	p->numTotalRanges = 1;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_disable(CUpti_RangeProfiler_Disable_Params *p) { (void)p; return 0; }

static void fake_host(struct gl_cupti_api *api)
{
	api->cuptiProfilerHostGetSupportedChips = fake_chips;
	api->cuptiProfilerHostInitialize = fake_host_init;
	api->cuptiProfilerHostDeinitialize = fake_host_deinit;
	api->cuptiProfilerHostGetMetricProperties = fake_props;
	api->cuptiProfilerHostConfigAddMetrics = fake_add;
	api->cuptiProfilerHostGetConfigImageSize = fake_image_size;
	api->cuptiProfilerHostGetConfigImage = fake_image;
	api->cuptiProfilerHostGetNumOfPasses = fake_passes;
	api->cuptiProfilerHostEvaluateToGpuValues = fake_evaluate;
	api->cuptiRangeProfilerGetCounterDataSize = fake_data_size;
	api->cuptiRangeProfilerCounterDataImageInitialize = fake_data_init;
	api->cuptiRangeProfilerSetConfig = fake_set_config;
	api->cuptiRangeProfilerStart = fake_start;
	api->cuptiRangeProfilerStop = fake_stop;
	api->cuptiRangeProfilerDecodeData = fake_decode;
	api->cuptiRangeProfilerGetCounterDataInfo = fake_info;
	api->cuptiRangeProfilerDisable = fake_disable;
}

static struct gl_cupti_api fake_cupti(void)
{
	struct gl_cupti_api api;
	memset(&api, 0, sizeof api);
	api.cuptiGetResultString = fake_result_string;
	api.cuptiProfilerInitialize = fake_init;
	api.cuptiDeviceGetChipName = fake_chip_name;
	api.cuptiRangeProfilerEnable = fake_enable;
	api.cuptiProfilerGetCounterAvailability = fake_availability;
	fake_host(&api);
	return api;
}

static void test_driver_messages(void)
{
	char why[512];
	int n = -1;
	struct gl_cuda_api cu = fake_cuda(CUDA_ERROR_NO_DEVICE, 0);
	CHECK(!gl_cuda_usable(&cu, &n, why, sizeof why));
	CHECK(strstr(why, "CUDA_ERROR_NO_DEVICE") && strstr(why, "--backend sim"));
	cu = fake_cuda(CUDA_SUCCESS, 0);
	CHECK(!gl_cuda_usable(&cu, &n, why, sizeof why));
	CHECK(strstr(why, "no device") != NULL);
	cu = fake_cuda(CUDA_SUCCESS, 2);
	CHECK(gl_cuda_usable(&cu, &n, why, sizeof why));
	CHECK_EQ(n, 2);
	CHECK(strstr(why, "13.0") && strstr(why, "2 devices"));
}

static void test_no_driver_never_crashes(void)
{
	struct gl_cuda_api none;
	struct gl_cuda_api nodev = fake_cuda(CUDA_ERROR_NO_DEVICE, 0);
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_range r;
	struct gl_err err = {0};
	char chip[32];
	uint8_t *img;
	size_t size;
	CUptiResult res;
	memset(&none, 0, sizeof none);
	crashy_calls = 0;
	CHECK_EQ(gl_cupti_device_chip(&none, &cupti, 0, chip, sizeof chip, &err), GL_EENV);
	CHECK(strstr(err.msg, "libcuda.so.1") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_device_chip(&nodev, &cupti, 0, chip, sizeof chip, &err), GL_EENV);
	CHECK(strstr(err.msg, "needs a GPU") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_counter_availability(&nodev, &cupti, (CUcontext)&nodev, &img, &size, &res, &err), GL_EENV);
	CHECK(strstr(err.msg, "needs a GPU") != NULL);
	const char *names[] = {"dram__bytes_read.sum"};
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_range_open(&r, &nodev, &cupti, (CUcontext)&nodev, "GH100", names, 1, &err), GL_EENV);
	CHECK(strstr(err.msg, "needs a GPU") != NULL);
	CHECK_EQ(crashy_calls, 0);
}

static int fake_launch(void *arg, struct gl_err *err)
{
	(void)arg;
	(void)err;
	launches++;
	return GL_OK;
}

static int fake_prepare(void *arg, struct gl_err *err)
{
	(void)arg;
	(void)err;
	prepares++;
	return GL_OK;
}

/* A libcuda.so.1 that runs kernels but is not NVIDIA's (the stand-in): no CUPTI target call. */
static void test_standin_driver_not_profiled(void)
{
	struct gl_cuda_api cu = fake_cuda(CUDA_SUCCESS, 1);
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_range r;
	struct gl_err err = {0};
	char chip[32], why[512];
	const char *names[] = {"dram__bytes_read.sum"};
	cu.cuGetExportTable = NULL;
	crashy_calls = 0;
	CHECK(!gl_cuda_profilable(&cu, why, sizeof why));
	CHECK(strstr(why, "cuGetExportTable") != NULL);
	CHECK_EQ(gl_cupti_device_chip(&cu, &cupti, 0, chip, sizeof chip, &err), GL_EENV);
	CHECK(strstr(err.msg, "not NVIDIA's driver") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(gl_cupti_range_open(&r, &cu, &cupti, (CUcontext)&cu, "GH100", names, 1, &err), GL_EENV);
	CHECK_EQ(crashy_calls, 0);
	CHECK(!cupti.profiler_initialized);
}

/* User replay: one prepare (inputs restored, L2 flushed) and one launch per pass CUPTI asks for. */
static void test_user_replay_prepares_every_pass(void)
{
	struct gl_cuda_api cu = fake_cuda(CUDA_SUCCESS, 1);
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_range r;
	struct gl_err err = {0};
	const char *names[] = {"dram__bytes_read.sum"};
	double value;
	passes_needed = 3;
	CHECK_EQ(gl_cupti_range_open(&r, &cu, &cupti, (CUcontext)&cu, "GH100", names, 1, &err), GL_OK);
	CHECK_EQ(r.passes, 3);
	prepares = launches = start_calls = stop_calls = 0;
	CHECK_EQ(gl_cupti_range_collect(&r, fake_prepare, fake_launch, NULL, &value, &err), GL_OK);
	CHECK_EQ(prepares, 3);
	CHECK_EQ(launches, 3);
	CHECK_EQ(start_calls, 3);
	gl_cupti_range_close(&r);
	passes_needed = 1;
	stop_calls = 0;
}

static void test_permission_at_availability(void)
{
	struct gl_cuda_api cu = fake_cuda(CUDA_SUCCESS, 1);
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_range r;
	struct gl_err err = {0};
	const char *names[] = {"dram__bytes_read.sum"};
	availability_result = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
	CHECK_EQ(gl_cupti_range_open(&r, &cu, &cupti, (CUcontext)&cu, "GH100", names, 1, &err), GL_EENV);
	CHECK_EQ(r.result, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
	CHECK(gl_cupti_is_permission(r.result) && gl_cupti_is_fallback(r.result));
	CHECK(strstr(err.msg, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES") != NULL);
	CHECK(strstr(err.msg, "NVreg_RestrictProfilingToAdminUsers=0") && strstr(err.msg, "root"));
	availability_result = CUPTI_SUCCESS;
}

static void test_permission_at_start(void)
{
	struct gl_cuda_api cu = fake_cuda(CUDA_SUCCESS, 1);
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_range r;
	struct gl_err err = {0};
	const char *names[] = {"dram__bytes_read.sum", "gpu__time_duration.sum"};
	double values[2];
	CHECK_EQ(gl_cupti_range_open(&r, &cu, &cupti, (CUcontext)&cu, "GH100", names, 2, &err), GL_OK);
	CHECK_EQ(r.passes, 1);
	start_result = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
	launches = start_calls = 0;
	CHECK_EQ(gl_cupti_range_collect(&r, fake_prepare, fake_launch, NULL, values, &err), GL_EENV);
	CHECK_EQ(start_calls, 1);
	CHECK_EQ(launches, 0);
	CHECK_EQ(r.result, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); /* not overwritten by a later call */
	CHECK(strstr(err.msg, "cuptiRangeProfilerStart") && strstr(err.msg, "NVreg_RestrictProfilingToAdminUsers"));
	start_result = CUPTI_SUCCESS;
	gl_err_clear(&err);
	stop_calls = 0;
	CHECK_EQ(gl_cupti_range_collect(&r, fake_prepare, fake_launch, NULL, values, &err), GL_OK);
	CHECK_EQ(launches, 1);
	CHECK_NEAR(values[0], 1.0, 0);
	CHECK_NEAR(values[1], 2.0, 0);
	gl_cupti_range_close(&r);
}

/* ---- fake Activity API: the buffer callbacks are captured and driven by the test */
static CUpti_BuffersCallbackRequestFunc requested_cb;
static CUpti_BuffersCallbackCompleteFunc completed_cb;
static CUptiResult enable_result;
static int next_record_calls;
static CUptiResult CUPTIAPI fake_register(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done)
{
	requested_cb = req;
	completed_cb = done;
	return CUPTI_SUCCESS;
}
static CUptiResult CUPTIAPI fake_activity_enable(CUpti_ActivityKind kind) { (void)kind; return enable_result; }
static CUptiResult CUPTIAPI fake_activity_disable(CUpti_ActivityKind kind) { (void)kind; return 0; }
static CUptiResult CUPTIAPI fake_flush_all(uint32_t flag) { (void)flag; return CUPTI_SUCCESS; }
/* The buffer holds CUpti_ActivityKernel10 records back to back. */
static CUptiResult CUPTIAPI fake_next_record(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
	next_record_calls++;
	uint8_t *next = *record ? (uint8_t *)*record + sizeof(CUpti_ActivityKernel10) : buffer;
	if (next + sizeof(CUpti_ActivityKernel10) > buffer + valid)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	*record = (CUpti_Activity *)next;
	return CUPTI_SUCCESS;
}

static void deliver(const CUpti_ActivityKernel10 *recs, size_t n)
{
	uint8_t *buf;
	size_t size, max;
	requested_cb(&buf, &size, &max);
	memcpy(buf, recs, n * sizeof *recs);
	completed_cb(NULL, 0, buf, size, n * sizeof *recs);
}

static void test_activity_records(void)
{
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_cupti_activity a;
	struct gl_err err = {0};
	size_t count = 0;
	cupti.cuptiActivityRegisterCallbacks = fake_register;
	cupti.cuptiActivityEnable = fake_activity_enable;
	cupti.cuptiActivityDisable = fake_activity_disable;
	cupti.cuptiActivityFlushAll = fake_flush_all;
	cupti.cuptiActivityGetNextRecord = fake_next_record;
	CHECK_EQ(gl_cupti_activity_start(&a, &cupti, &err), GL_OK);
	CUpti_ActivityKernel10 recs[4];
	memset(recs, 0, sizeof recs);
	for (int i = 0; i < 4; i++) {
		recs[i].kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
		recs[i].name = "k";
	}
	recs[0].start = 1000, recs[0].end = 1300; /* 300 ns */
	recs[1].start = 0, recs[1].end = 0;       /* timestamps never filled */
	recs[2].start = 2000, recs[2].end = 1900; /* end before start */
	recs[3].start = 3000, recs[3].end = 3100; /* 100 ns */
	deliver(recs, 4);
	CHECK_NEAR(gl_cupti_activity_median_ns(&a, "k", &count), 200.0, 0);
	CHECK_EQ(count, 2);
	gl_cupti_activity_stop(&a);

	/* a collector whose start failed is never reached by CUPTI's later callbacks */
	enable_result = CUPTI_ERROR_NOT_SUPPORTED;
	CHECK_EQ(gl_cupti_activity_start(&a, &cupti, &err), GL_EENV);
	enable_result = CUPTI_SUCCESS;
	memset(&a, 0xab, sizeof a); /* the caller reuses or drops the struct */
	next_record_calls = 0;
	deliver(recs, 4);
	CHECK_EQ(next_record_calls, 0);
}

/* One spelling per metric: the simulator's unit equals the CUPTI unit (GH100's dimension units, as
 * `gpulab metrics --chip GH100` lists them) in the form both backends store. */
static void test_units_agree(void)
{
	static const struct {
		const char *metric, *cupti_unit;
	} gh100[] = {
		{GL_M_GLD_REQ, "l1tex_request"},   {GL_M_GLD_SECT, "l2_sector"},
		{GL_M_GST_REQ, "l1tex_request"},   {GL_M_GST_SECT, "l2_sector"},
		{GL_M_SLD_INST, "instruction"},    {GL_M_SST_INST, "instruction"},
		{GL_M_SLD_WF, "l1tex_wavefront"},  {GL_M_SST_WF, "l1tex_wavefront"},
		{GL_M_SLD_CONF, "l1data_bank_conflict"}, {GL_M_SST_CONF, "l1data_bank_conflict"},
		{GL_M_INST, "instruction"},        {GL_M_THREAD_INST, "instruction"},
	};
	struct gl_sim_result res;
	struct gl_metrics m = {0};
	memset(&res, 0, sizeof res);
	res.scale = 1;
	gl_sim_metrics(&res, &m);
	for (size_t i = 0; i < sizeof gh100 / sizeof gh100[0]; i++) {
		char shown[16];
		gl_cupti_short_unit(gh100[i].cupti_unit, shown, sizeof shown);
		const char *sim_unit = "";
		for (size_t k = 0; k < m.n; k++)
			if (strcmp(m.items[k].name, gh100[i].metric) == 0)
				sim_unit = m.items[k].unit;
		if (strcmp(shown, sim_unit) != 0)
			fprintf(stderr, "%s: cupti '%s' -> '%s', sim '%s'\n", gh100[i].metric, gh100[i].cupti_unit, shown,
				sim_unit);
		CHECK(strcmp(shown, sim_unit) == 0);
	}
	char u[16];
	gl_cupti_short_unit("nanosecond", u, sizeof u);
	CHECK(strcmp(u, "nsecond") == 0);
	gl_cupti_short_unit("percent", u, sizeof u);
	CHECK(strcmp(u, "%") == 0);
	gl_cupti_short_unit("byte", u, sizeof u);
	CHECK(strcmp(u, "byte") == 0);
	gl_metrics_free(&m);
}

static void test_error_table(void)
{
	struct gl_cupti_api cupti = fake_cupti();
	struct gl_err err = {0};
	CHECK_EQ(gl_cupti_fail(&cupti, CUPTI_SUCCESS, "x", &err), GL_OK);
	CHECK_EQ(gl_cupti_fail(&cupti, CUPTI_ERROR_INVALID_CHIP_NAME, "x", &err), GL_EUSAGE);
	CHECK(!gl_cupti_is_fallback(CUPTI_ERROR_INVALID_METRIC_NAME));
	CHECK(gl_cupti_is_fallback(CUPTI_ERROR_NOT_SUPPORTED) && !gl_cupti_is_permission(CUPTI_ERROR_NOT_SUPPORTED));
	CHECK_EQ(gl_cupti_status(CUPTI_ERROR_UNKNOWN), GL_EENV);
}

static void test_permission_file(void)
{
	char msg[1024];
	CHECK_EQ(gl_cuda_profiling_permission("tests/fixtures/cupti/params_admin_only.txt", 1000, msg, sizeof msg),
		 GL_CHECK_FAIL);
	CHECK(strstr(msg, "NVreg_RestrictProfilingToAdminUsers=0") && strstr(msg, "root"));
	CHECK_EQ(gl_cuda_profiling_permission("tests/fixtures/cupti/params_admin_only.txt", 0, msg, sizeof msg),
		 GL_CHECK_OK);
	CHECK_EQ(gl_cuda_profiling_permission("tests/fixtures/cupti/params_open.txt", 1000, msg, sizeof msg),
		 GL_CHECK_OK);
	CHECK_EQ(gl_cuda_profiling_permission("tests/fixtures/cupti/params_no_line.txt", 1000, msg, sizeof msg),
		 GL_CHECK_WARN);
	CHECK_EQ(gl_cuda_profiling_permission("tests/fixtures/cupti/absent", 1000, msg, sizeof msg), GL_CHECK_WARN);
	CHECK(strstr(msg, "no NVIDIA kernel driver") != NULL);
}

int main(void)
{
	test_driver_messages();
	test_no_driver_never_crashes();
	test_standin_driver_not_profiled();
	test_user_replay_prepares_every_pass();
	test_activity_records();
	test_units_agree();
	test_permission_at_availability();
	test_permission_at_start();
	test_error_table();
	test_permission_file();
	CHECK_DONE();
}
