/* driver_testhooks.c — the stand-in's test hooks, kept in the product library behind one environment
 * variable so `make test` drives the same library users run (not a second build of it):
 *   GPULAB_STANDIN_FAIL=NAME[@N][,...]  the Nth call (default: every call) of driver function NAME fails
 *                                       with that function's typical error, counting from the primary
 *                                       context's creation; the pseudo-names "ulp@N" and "nan@N" alter the
 *                                       first 4-byte word of the first pointer argument after the Nth launch
 *                                       (one unit in the last place, as float atomics adding in another
 *                                       order would, or a NaN: a wrong result)
 * (GPULAB_STANDIN_DRIVER, the version reported, and GPULAB_STANDIN_DEVICES, the device count, are read
 * in driver_init.c.)  Unset, every hook is one getenv and a branch. */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COUNTED 64

static struct {
	char name[48];
	long calls;
} counted[MAX_COUNTED];

/* Read at every call: a test sets it between launches of one process. */
static const char *fail_spec(void)
{
	const char *spec = getenv("GPULAB_STANDIN_FAIL");
	return spec && *spec ? spec : NULL;
}

/* The entry point's name without its version suffix: "cuMemcpyHtoD_v2" is "cuMemcpyHtoD" to the hooks. */
static size_t base_length(const char *name)
{
	size_t n = strlen(name), k = n;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	return k >= 2 && k < n && name[k - 1] == 'v' && name[k - 2] == '_' ? k - 2 : n;
}

static long count_call(const char *name, size_t len)
{
	for (int i = 0; i < MAX_COUNTED && len < sizeof counted[i].name; i++) {
		if (!counted[i].name[0])
			memcpy(counted[i].name, name, len);
		if (strlen(counted[i].name) == len && strncmp(counted[i].name, name, len) == 0)
			return ++counted[i].calls;
	}
	return 0;
}

/* Does the list name `name` (its first `len` bytes) for call number `nth`?  "NAME" matches every call,
 * "NAME@N" the Nth. */
static bool listed(const char *list, const char *name, size_t len, long nth)
{
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n >= len && strncmp(p, name, len) == 0) {
			if (n == len)
				return true;
			if (p[len] == '@' && strtol(p + len + 1, NULL, 10) == nth)
				return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

CUresult drv_fail(const char *name, CUresult typical)
{
	const char *list = fail_spec();
	size_t len = base_length(name);
	return list && listed(list, name, len, count_call(name, len)) ? typical : CUDA_SUCCESS;
}

bool drv_fault(const char *what, long launch)
{
	const char *list = fail_spec();
	return list && listed(list, what, strlen(what), launch);
}

void drv_fail_reset(void)
{
	memset(counted, 0, sizeof counted);
	drv.launches = 0;
}

void drv_alter_output(const struct drv_launch *l, long launch)
{
	bool ulp = drv_fault("ulp", launch), nan = drv_fault("nan", launch);
	const struct ptx_function *fn = l->f->fn;
	for (int i = 0; (ulp || nan) && i < fn->nparams; i++) {
		uint64_t p;
		if (fn->params[i].size != 8)
			continue;
		memcpy(&p, l->params + fn->params[i].offset, 8);
		uint8_t *word = drv_mem_bytes(p, 4, false);
		if (!word)
			continue;
		uint32_t w;
		memcpy(&w, word, 4);
		w = nan ? 0x7fc00000u : w + 1;
		memcpy(word, &w, 4);
		return;
	}
}
