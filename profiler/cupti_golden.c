/* cupti_golden.c — saving and loading counter-data images with their metadata. */
#include "profiler/cupti_golden.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int write_file(const char *path, const void *data, size_t size, struct gl_err *err)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size) {
		if (f)
			fclose(f);
		return gl_errf(err, GL_EENV, "cannot write %s: %s", path, strerror(errno));
	}
	return fclose(f) == 0 ? GL_OK : gl_errf(err, GL_EENV, "cannot write %s: %s", path, strerror(errno));
}

int gl_cupti_golden_save(const char *dir, const char *label, const struct gl_cupti_golden *g, struct gl_err *err)
{
	char path[1024];
	struct gl_str meta = {0};
	snprintf(path, sizeof path, "%s/%s.counterdata", dir, label);
	int rc = write_file(path, g->image, g->size, err);
	if (rc != GL_OK)
		return rc;
	gl_str_addf(&meta, "chip %s\nkernel %s\nranges %zu\n", g->chip, g->kernel, g->ranges);
	for (size_t i = 0; i < g->n; i++)
		gl_str_addf(&meta, "metric %s %.17g\n", g->names[i], g->values[i]);
	snprintf(path, sizeof path, "%s/%s.txt", dir, label);
	rc = write_file(path, meta.buf, meta.len, err);
	gl_str_free(&meta);
	return rc;
}

static int read_image(const char *path, struct gl_cupti_golden *g, struct gl_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EENV, "cannot read %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	g->image = gl_xmalloc(size > 0 ? (size_t)size : 1);
	g->size = size > 0 && fread(g->image, 1, (size_t)size, f) == (size_t)size ? (size_t)size : 0;
	fclose(f);
	return g->size ? GL_OK : gl_errf(err, GL_EENV, "%s is empty or unreadable", path);
}

static void parse_line(char *line, struct gl_cupti_golden *g)
{
	char name[96];
	double v;
	if (sscanf(line, "chip %31s", g->chip) == 1 || sscanf(line, "kernel %63s", g->kernel) == 1 ||
	    sscanf(line, "ranges %zu", &g->ranges) == 1)
		return;
	if (sscanf(line, "metric %95s %lf", name, &v) == 2 && g->n < GL_GOLDEN_MAX_METRICS) {
		snprintf(g->names[g->n], sizeof g->names[0], "%s", name);
		g->values[g->n++] = v;
	}
}

int gl_cupti_golden_load(const char *path, struct gl_cupti_golden *g, struct gl_err *err)
{
	char file[1024], line[512];
	memset(g, 0, sizeof *g);
	snprintf(file, sizeof file, "%s.txt", path);
	FILE *f = fopen(file, "r");
	if (!f)
		return gl_errf(err, GL_EENV, "cannot read %s: %s", file, strerror(errno));
	while (fgets(line, sizeof line, f))
		parse_line(line, g);
	fclose(f);
	if (!g->chip[0] || g->n == 0)
		return gl_errf(err, GL_EUSAGE, "%s names no chip or no metric", file);
	snprintf(file, sizeof file, "%s.counterdata", path);
	return read_image(file, g, err);
}

void gl_cupti_golden_free(struct gl_cupti_golden *g)
{
	free(g->image);
	g->image = NULL;
	g->size = 0;
}
