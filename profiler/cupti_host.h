/* cupti_host.h — CUPTI's host half (cupti_profiler_host.h), which needs no GPU: the supported chips,
 * a host object per chip, metric properties, config images and their replay pass counts. */
#ifndef GL_CUPTI_HOST_H
#define GL_CUPTI_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"
#include "profiler/cupti_api.h"

struct gl_cupti_host {
	const struct gl_cupti_api *api;
	CUpti_Profiler_Host_Object *obj;
	char chip[32];
};

/* The chips this CUPTI knows (exact upper-case names, "GV100" ... "GB20B"); CUPTI owns the strings. */
int gl_cupti_chips(const struct gl_cupti_api *api, const char *const **names, size_t *n, struct gl_err *err);
/* "GV100 GV11B TU102 ..." appended to `out`. */
void gl_cupti_chips_text(const char *const *names, size_t n, struct gl_str *out);
/* GL_OK when `chip` is one of them, else GL_EUSAGE naming the nearest and listing all. */
int gl_cupti_chip_check(const struct gl_cupti_api *api, const char *chip, struct gl_err *err);

/* A host object for `chip`; `avail` is the device's counter-availability image, or NULL offline. */
int gl_cupti_host_open(struct gl_cupti_host *h, const struct gl_cupti_api *api, const char *chip,
		       const uint8_t *avail, struct gl_err *err);
void gl_cupti_host_close(struct gl_cupti_host *h);

/* Description, units and type of a full metric name (with its rollup). */
int gl_cupti_host_props(struct gl_cupti_host *h, const char *name, CUpti_Profiler_Host_GetMetricProperties_Params *out,
			struct gl_err *err);

/* Add the metrics and build the config image (caller frees *image).  A host object takes one list. */
int gl_cupti_host_config(struct gl_cupti_host *h, const char *const *names, size_t n, uint8_t **image,
			 size_t *size, struct gl_err *err);
/* Replay passes a config image needs. */
int gl_cupti_image_passes(const struct gl_cupti_api *api, uint8_t *image, size_t size, size_t *passes,
			  struct gl_err *err);
/* Whole sequence offline: chip check, host object, validated names, config image, passes. */
int gl_cupti_passes(const struct gl_cupti_api *api, const char *chip, const char *const *names, size_t n,
		    size_t *passes, struct gl_err *err);

/* Evaluate a decoded counter-data image (no GPU needed): values[i] for names[i] in range `range`. */
int gl_cupti_host_evaluate(struct gl_cupti_host *h, const uint8_t *image, size_t size, size_t range,
			   const char *const *names, size_t n, double *values, struct gl_err *err);

#endif
