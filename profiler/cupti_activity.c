/* cupti_activity.c — Activity API buffers and kernel records. */
#include "profiler/cupti_activity.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/cupti_errors.h"

#define BUF_SIZE (1u << 20)
#define BUF_ALIGN 8

/* CUPTI's callbacks carry no user pointer: the collector receiving records. */
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gl_cupti_activity *current;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(BUF_ALIGN, BUF_SIZE);
	*size = *buffer ? BUF_SIZE : 0;
	*max_records = 0;
}

static void add_kernel(struct gl_cupti_activity *a, const CUpti_ActivityKernel10 *k)
{
	if (a->n >= GL_ACTIVITY_MAX) {
		a->dropped++;
		return;
	}
	struct gl_kernel_record *r = &a->records[a->n++];
	snprintf(r->name, sizeof r->name, "%s", k->name ? k->name : "");
	r->start = k->start;
	r->end = k->end;
	r->regs = k->registersPerThread;
	r->static_smem = k->staticSharedMemory;
	r->dyn_smem = k->dynamicSharedMemory;
	r->correlation = k->correlationId;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
	(void)ctx;
	(void)stream;
	(void)size;
	pthread_mutex_lock(&current_lock);
	struct gl_cupti_activity *a = current;
	if (a) {
		pthread_mutex_lock(&a->lock);
		CUpti_Activity *rec = NULL;
		while (a->api->cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
			if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL)
				add_kernel(a, (const CUpti_ActivityKernel10 *)rec);
		}
		pthread_mutex_unlock(&a->lock);
	}
	pthread_mutex_unlock(&current_lock);
	free(buffer);
}

int gl_cupti_activity_start(struct gl_cupti_activity *a, const struct gl_cupti_api *api, struct gl_err *err)
{
	memset(a, 0, sizeof *a);
	a->api = api;
	pthread_mutex_init(&a->lock, NULL);
	a->records = gl_xcalloc(GL_ACTIVITY_MAX, sizeof *a->records);
	pthread_mutex_lock(&current_lock);
	current = a;
	pthread_mutex_unlock(&current_lock);
	int rc = gl_cupti_fail(api, api->cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
			       "cuptiActivityRegisterCallbacks", err);
	if (rc == GL_OK)
		rc = gl_cupti_fail(api, api->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
				   "cuptiActivityEnable(CONCURRENT_KERNEL)", err);
	a->enabled = rc == GL_OK;
	if (rc != GL_OK) /* the caller drops this collector: nothing may point at it afterwards */
		gl_cupti_activity_stop(a);
	return rc;
}

int gl_cupti_activity_flush(struct gl_cupti_activity *a, struct gl_err *err)
{
	if (!a->enabled)
		return GL_OK;
	return gl_cupti_fail(a->api, a->api->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
			     "cuptiActivityFlushAll", err);
}

void gl_cupti_activity_clear(struct gl_cupti_activity *a)
{
	pthread_mutex_lock(&a->lock);
	a->n = 0;
	a->dropped = 0;
	pthread_mutex_unlock(&a->lock);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median duration of the records `keep` accepts (by name or by correlation id). */
static double median_of(struct gl_cupti_activity *a, bool (*keep)(const struct gl_kernel_record *, const void *),
			const void *key, size_t *count)
{
	double *d = gl_xcalloc(GL_ACTIVITY_MAX, sizeof *d);
	size_t n = 0;
	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; i < a->n; i++)
		/* a record whose timestamps were not filled (0, or end not after start) is no measurement */
		if (keep(&a->records[i], key) && a->records[i].start > 0 && a->records[i].end > a->records[i].start)
			d[n++] = (double)(a->records[i].end - a->records[i].start);
	pthread_mutex_unlock(&a->lock);
	qsort(d, n, sizeof *d, cmp_double);
	double median = n == 0 ? NAN : n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	free(d);
	if (count)
		*count = n;
	return median;
}

static bool same_name(const struct gl_kernel_record *r, const void *entry) { return strcmp(r->name, entry) == 0; }

static bool same_launch(const struct gl_kernel_record *r, const void *correlation)
{
	return r->correlation == *(const uint32_t *)correlation;
}

double gl_cupti_activity_median_ns(struct gl_cupti_activity *a, const char *entry, size_t *count)
{
	return median_of(a, same_name, entry, count);
}

double gl_cupti_activity_launch_ns(struct gl_cupti_activity *a, uint32_t correlation, size_t *count)
{
	return median_of(a, same_launch, &correlation, count);
}

void gl_cupti_activity_stop(struct gl_cupti_activity *a)
{
	if (a->enabled) {
		a->api->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
		a->api->cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	}
	pthread_mutex_lock(&current_lock);
	if (current == a)
		current = NULL;
	pthread_mutex_unlock(&current_lock);
	free(a->records);
	a->records = NULL;
	pthread_mutex_destroy(&a->lock);
	a->enabled = 0;
}
