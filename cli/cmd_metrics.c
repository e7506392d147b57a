/* cmd_metrics.c — `gpulab metrics`: CUPTI's metric catalog for a chip (no GPU needed), searching it,
 * and the replay passes a metric list costs.  With a GPU the default chip is the device's own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/json.h"
#include "insights/gpu_models.h"
#include "profiler/profiler.h"

struct metrics_args {
	const char *chip, *search, *passes, *save_config;
};

static const struct gl_cmd *self(void);

static int parse(struct gl_ctx *ctx, int argc, char **argv, struct metrics_args *a)
{
	struct gl_args args;
	int rc = gl_cmd_parse(ctx, self(), argc, argv, &args);
	if (rc)
		return rc;
	a->chip = gl_args_get(&args, "chip");
	a->search = gl_args_get(&args, "search");
	a->passes = gl_args_get(&args, "passes");
	a->save_config = gl_args_get(&args, "save-config");
	if (a->save_config && !a->passes)
		return gl_usage_error(ctx, self(), "--save-config needs --passes LIST (the metrics to configure)");
	return GL_OK;
}

static int print_chips(struct gl_ctx *ctx, const struct gl_cupti_tools *t)
{
	const char *const *names = NULL;
	size_t n = 0;
	int rc = gl_cupti_tools_chips(t, &names, &n, &ctx->err);
	if (rc != GL_OK)
		return rc;
	if (ctx->format == GL_FMT_JSON) {
		struct gl_json j;
		gl_json_init(&j, stdout);
		gl_json_begin_object(&j, NULL);
		gl_json_begin_array(&j, "chips");
		for (size_t i = 0; i < n; i++)
			gl_json_string(&j, NULL, names[i]);
		gl_json_end_array(&j);
		gl_json_end_object(&j);
		putchar('\n');
		return GL_OK;
	}
	printf("CUPTI %s supports these chips (--chip NAME):\n", gl_cupti_tools_path(t));
	for (size_t i = 0; i < n; i++)
		printf("%s%s", names[i], i + 1 < n ? " " : "\n");
	return GL_OK;
}

/* No GPU to take the chip from: the chip of the GPU model the estimates and guidance default to, said on
 * stderr so the listing itself reads as any chip's. */
static void default_chip(struct gl_ctx *ctx, char *chip, size_t n)
{
	const struct gl_gpu_model *g = gl_gpu_model_default();
	snprintf(chip, n, "%s", gl_gpu_model_chip(g));
	gl_note(ctx, "no GPU here: chip %s of the %s, the GPU model gpulab's estimates default to (--chip NAME for "
		"another; --chip list names them)", chip, g->full_name);
}

static int write_config(struct gl_ctx *ctx, const char *path, const uint8_t *img, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(img, 1, size, f) != size || fclose(f) != 0)
		return gl_errf(&ctx->err, GL_EENV, "cannot write the config image to %s", path);
	return GL_OK;
}

/* Pass count of a metric list, and its config image written to `save` when given. */
static int config_passes(struct gl_ctx *ctx, struct gl_cupti_tools *t, const char *chip, struct gl_metric_list *list,
			 const char *save, size_t *passes, char *dropped, size_t n)
{
	uint8_t *img = NULL;
	size_t size = 0;
	int rc = gl_cupti_tools_passes(t, chip, list, passes, dropped, n, save ? &img : NULL, &size, &ctx->err);
	if (rc == GL_OK && save)
		rc = write_config(ctx, save, img, size);
	free(img);
	return rc;
}

static void passes_json(const char *chip, const struct gl_metric_list *list, size_t passes, const char *dropped)
{
	struct gl_json j;
	gl_json_init(&j, stdout);
	gl_json_begin_object(&j, NULL);
	gl_json_string(&j, "chip", chip);
	gl_json_begin_array(&j, "metrics");
	for (size_t i = 0; i < list->n; i++)
		gl_json_string(&j, NULL, list->names[i]);
	gl_json_end_array(&j);
	gl_json_int(&j, "passes", (long long)passes);
	gl_json_string(&j, "dropped", *dropped ? dropped : NULL);
	gl_json_end_object(&j);
	putchar('\n');
}

static int print_passes(struct gl_ctx *ctx, struct gl_cupti_tools *t, const char *chip, const struct metrics_args *a)
{
	struct gl_metric_list list;
	size_t passes = 0;
	char dropped[512] = "";
	int rc = gl_metric_list_parse(a->passes, &list, &ctx->err);
	if (rc != GL_OK)
		return rc;
	rc = config_passes(ctx, t, chip, &list, a->save_config, &passes, dropped, sizeof dropped);
	if (rc == GL_OK && ctx->format == GL_FMT_JSON) {
		passes_json(chip, &list, passes, dropped);
	} else if (rc == GL_OK) {
		for (size_t i = 0; i < list.n; i++)
			printf("  %s\n", list.names[i]);
		if (*dropped)
			printf("  (not on %s, dropped from the set: %s)\n", chip, dropped);
		printf("%zu metric%s on %s: %zu replay pass%s\n", list.n, list.n == 1 ? "" : "s", chip, passes,
		       passes == 1 ? "" : "es");
	}
	gl_metric_list_free(&list);
	return rc;
}

static void print_json(const struct gl_metric_catalog *c, const char *search)
{
	struct gl_json j;
	size_t shown = 0;
	for (size_t i = 0; i < c->n; i++)
		shown += gl_metric_info_matches(&c->items[i], search);
	gl_json_init(&j, stdout);
	gl_json_begin_object(&j, NULL);
	gl_json_string(&j, "chip", c->chip);
	gl_json_string(&j, "search", search);
	gl_json_int(&j, "count", (long long)shown);
	gl_json_begin_array(&j, "metrics");
	for (size_t i = 0; i < c->n; i++) {
		const struct gl_metric_info *m = &c->items[i];
		if (!gl_metric_info_matches(m, search))
			continue;
		gl_json_begin_object(&j, NULL);
		gl_json_string(&j, "name", m->name);
		gl_json_string(&j, "type", m->type);
		gl_json_string(&j, "unit", m->unit);
		gl_json_string(&j, "hw_unit", m->hw_unit);
		gl_json_string(&j, "description", m->description);
		gl_json_end_object(&j);
	}
	gl_json_end_array(&j);
	gl_json_end_object(&j);
	putchar('\n');
}

static void print_table(const struct gl_metric_catalog *c, const char *search)
{
	int w = 4;
	size_t shown = 0;
	for (size_t i = 0; i < c->n; i++)
		if (gl_metric_info_matches(&c->items[i], search) && (int)strlen(c->items[i].name) > w)
			w = (int)strlen(c->items[i].name);
	printf("%-*s  %-10s  %-20s  %s\n", w, "NAME", "TYPE", "UNIT", "DESCRIPTION");
	for (size_t i = 0; i < c->n; i++) {
		const struct gl_metric_info *m = &c->items[i];
		if (!gl_metric_info_matches(m, search))
			continue;
		shown++;
		printf("%-*s  %-10s  %-20s  %s\n", w, m->name, m->type, *m->unit ? m->unit : "-",
		       m->description);
	}
	printf("%zu of %zu metrics on %s%s%s%s (collect one with a rollup, e.g. NAME.sum; see 'gpulab metrics "
	       "--passes')\n",
	       shown, c->n, c->chip, search ? " matching '" : "", search ? search : "", search ? "'" : "");
}

static int print_catalog(struct gl_ctx *ctx, struct gl_cupti_tools *t, const char *chip, const char *search)
{
	struct gl_metric_catalog c;
	int rc = gl_cupti_tools_catalog(t, chip, &c, &ctx->err);
	if (rc != GL_OK)
		return rc;
	if (ctx->format == GL_FMT_JSON)
		print_json(&c, search);
	else
		print_table(&c, search);
	gl_metric_catalog_free(&c);
	return GL_OK;
}

static int metrics_exec(struct gl_ctx *ctx, int argc, char **argv)
{
	struct metrics_args a = {0};
	struct gl_cupti_tools *t;
	char chip[32] = "";
	int rc = parse(ctx, argc, argv, &a);
	if (rc != GL_OK)
		return rc;
	rc = gl_cupti_tools_open(&t, &ctx->err);
	if (rc != GL_OK)
		return rc;
	if (a.chip)
		snprintf(chip, sizeof chip, "%s", a.chip);
	else
		gl_cupti_tools_device_chip(t, chip, sizeof chip);
	if (!*chip)
		default_chip(ctx, chip, sizeof chip);
	if (strcmp(chip, "list") == 0)
		rc = print_chips(ctx, t);
	else if (a.passes)
		rc = print_passes(ctx, t, chip, &a);
	else
		rc = print_catalog(ctx, t, chip, a.search);
	gl_cupti_tools_close(t);
	return rc;
}

static const struct gl_opt metrics_opts[] = {
	GL_STR("chip", "NAME", 0, "chip to describe, exact upper case (GH100, AD102, GA100, ...); 'list': the chips"),
	GL_STR("search", "WORD", 0, "only metrics whose name or description contains WORD (any case)"),
	GL_STR("passes", "LIST", 0, "replay passes needed to collect LIST"),
	GL_STR("save-config", "F", 0, "with --passes: also write CUPTI's config image for LIST to file F"),
	{0},
};

const struct gl_cmd gl_cmd_metrics_entry = {
	.no_formats = GL_NO_CSV,
	.name = "metrics",
	.usage = "[--chip NAME] [--search WORD] [--passes SET|NAMES [--save-config FILE]] [--json]",
	.summary = "list CUPTI metrics for a chip, search them, count replay passes (no GPU needed)",
	.help = "--chip defaults to the GPU's own chip; without a GPU, to GH100, the chip of the H100 that gpulab's\n"
		"estimates and guidance default to (a note on stderr says so).\n"
		"--passes takes a set (memory, compute, all, sim) or comma-separated metric names with rollups\n"
		"(dram__bytes_read.sum).\n",
	.opts = metrics_opts,
	.max_args = 0,
	.exec = metrics_exec,
};

static const struct gl_cmd *self(void) { return &gl_cmd_metrics_entry; }
