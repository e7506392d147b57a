/* profiler_catalog.c — CUPTI's host side as `gpulab metrics` uses it, with no CUDA or CUPTI type in sight
 * of its callers: the chips CUPTI knows, a chip's metric catalog, and what a metric list costs in replay
 * passes (with its config image).  The GPU's own chip is read only when a driver and device work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/cupti_catalog.h"
#include "profiler/cupti_device.h"
#include "profiler/profiler.h"

struct gl_cupti_tools {
	struct gl_cupti_api api;
};

int gl_cupti_tools_open(struct gl_cupti_tools **out, struct gl_err *err)
{
	struct gl_cupti_tools *t = gl_xcalloc(1, sizeof *t);
	int rc = gl_cupti_api_load(&t->api, err);
	if (rc != GL_OK) {
		free(t);
		t = NULL;
	}
	*out = t;
	return rc;
}

void gl_cupti_tools_close(struct gl_cupti_tools *t)
{
	if (!t)
		return;
	gl_cupti_api_unload(&t->api);
	free(t);
}

const char *gl_cupti_tools_path(const struct gl_cupti_tools *t)
{
	return t->api.path;
}

void gl_cupti_tools_device_chip(struct gl_cupti_tools *t, char *chip, size_t n)
{
	struct gl_cuda_api cu;
	struct gl_err err = {0};
	char why[512];
	int count;
	chip[0] = '\0';
	if (gl_cuda_api_load(&cu, &err) != GL_OK)
		return;
	if (gl_cuda_usable(&cu, &count, why, sizeof why))
		gl_cupti_device_chip(&cu, &t->api, 0, chip, n, &err);
	gl_cuda_api_unload(&cu);
}

int gl_cupti_tools_chips(const struct gl_cupti_tools *t, const char *const **names, size_t *n, struct gl_err *err)
{
	return gl_cupti_chips(&t->api, names, n, err);
}

char *gl_cupti_tools_chips_text(const char *const *names, size_t n)
{
	struct gl_str list = {0};
	gl_cupti_chips_text(names, n, &list);
	return list.buf ? list.buf : gl_xstrdup("");
}

int gl_cupti_tools_catalog(struct gl_cupti_tools *t, const char *chip, struct gl_metric_catalog *c,
			   struct gl_err *err)
{
	struct gl_cupti_host h;
	struct gl_cupti_catalog *cat = gl_xcalloc(1, sizeof *cat);
	memset(c, 0, sizeof *c);
	int rc = gl_cupti_host_open(&h, &t->api, chip, NULL, err);
	if (rc == GL_OK) {
		rc = gl_cupti_catalog_load(&h, cat, err);
		gl_cupti_host_close(&h);
	}
	if (rc != GL_OK) {
		free(cat);
		return rc;
	}
	snprintf(c->chip, sizeof c->chip, "%s", cat->chip);
	c->items = gl_xcalloc(cat->n ? cat->n : 1, sizeof *c->items);
	c->n = cat->n;
	c->cupti = cat;
	for (size_t i = 0; i < cat->n; i++) {
		const struct gl_cupti_metric *m = &cat->items[i];
		c->items[i] = (struct gl_metric_info){.name = m->name, .type = gl_cupti_type_name(m->type), .unit = m->unit,
						      .hw_unit = m->hw_unit, .description = m->description};
	}
	return GL_OK;
}

void gl_metric_catalog_free(struct gl_metric_catalog *c)
{
	if (c->cupti)
		gl_cupti_catalog_free(c->cupti);
	free(c->cupti);
	free(c->items);
	memset(c, 0, sizeof *c);
}

bool gl_metric_info_matches(const struct gl_metric_info *m, const char *word)
{
	const struct gl_cupti_metric cm = {.name = (char *)m->name, .description = (char *)m->description};
	return gl_cupti_metric_matches(&cm, word);
}

int gl_cupti_tools_passes(struct gl_cupti_tools *t, const char *chip, struct gl_metric_list *list, size_t *passes,
			  char *dropped, size_t n, uint8_t **config, size_t *config_size, struct gl_err *err)
{
	struct gl_cupti_host h;
	uint8_t *img = NULL;
	size_t size = 0;
	int rc = gl_cupti_host_open(&h, &t->api, chip, NULL, err);
	if (rc != GL_OK)
		return rc;
	rc = gl_cupti_fit_metrics(&h, list, dropped, n, err);
	if (rc == GL_OK)
		rc = gl_cupti_host_config(&h, (const char *const *)list->names, list->n, &img, &size, err);
	if (rc == GL_OK)
		rc = gl_cupti_image_passes(&t->api, img, size, passes, err);
	gl_cupti_host_close(&h);
	if (rc == GL_OK && config) {
		*config = img;
		*config_size = size;
	} else {
		free(img);
	}
	return rc;
}
