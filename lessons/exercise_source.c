/* exercise_source.c — where exercises come from: the embedded exercises/NN-name.md (+ .cu solution), or
 * $GPULAB_EXERCISES/NN-name.md when set (for authoring without rebuilding). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/exercise.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct exercise *)a)->name, ((const struct exercise *)b)->name);
}

static int add(struct exercise **out, int *n, const char *name, const char *path, const char *text,
	       const char *solution, struct gl_err *err)
{
	*out = gl_xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
	int rc = exercise_parse(name, path, text, solution, &(*out)[*n], err);
	*n += rc == GL_OK;
	return rc;
}

static int from_dir(const char *dir, struct exercise **out, int *n, struct gl_err *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return gl_errf(err, GL_EUSAGE, "GPULAB_EXERCISES='%s' is not a readable directory", dir);
	int rc = GL_OK;
	for (struct dirent *de; rc == GL_OK && (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (len < 4 || len > 60 || strcmp(de->d_name + len - 3, ".md") != 0)
			continue;
		char name[64], path[1024], cu[1024];
		snprintf(name, sizeof name, "%.*s", (int)len - 3, de->d_name);
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		snprintf(cu, sizeof cu, "%s/%s.cu", dir, name);
		char *text = NULL, *solution = NULL;
		if (gl_read_file(path, &text, NULL))
			rc = gl_errf(err, GL_EUSAGE, "cannot read '%s'", path);
		else
			gl_read_file(cu, &solution, NULL); /* an exercise without a solution is allowed */
		if (rc == GL_OK)
			rc = add(out, n, name, path, text, solution, err);
		free(text);
		free(solution);
	}
	closedir(d);
	return rc;
}

int exercise_list(struct exercise **out, int *n, struct gl_err *err)
{
	*out = NULL;
	*n = 0;
	const char *dir = getenv("GPULAB_EXERCISES");
	int rc = GL_OK;
	if (dir && *dir)
		rc = from_dir(dir, out, n, err);
	else
		for (const struct exercise_embedded *e = exercise_embedded; rc == GL_OK && e->name; e++)
			rc = add(out, n, e->name, e->path, e->text, e->solution, err);
	if (rc != GL_OK) {
		exercise_list_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	qsort(*out, (size_t)*n, sizeof **out, by_name);
	return GL_OK;
}

void exercise_list_free(struct exercise *ex, int n)
{
	for (int i = 0; i < n; i++)
		exercise_free(&ex[i]);
	free(ex);
}

int exercise_find(const struct exercise *ex, int n, const char *name, int *index, struct gl_err *err)
{
	const char **names = gl_xmalloc(((size_t)n + 1) * sizeof *names);
	for (int i = 0; i < n; i++)
		names[i] = ex[i].name;
	int rc = lesson_name_find(names, n, name, "exercise", index, err);
	free(names);
	return rc;
}
