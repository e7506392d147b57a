/* lesson_source.c — where lessons come from: the directory $GPULAB_LESSONS when it is set (for authors:
 * edit a file, run it, no rebuild), else the copies of lessons/NN-name.md compiled into the binary. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "lessons/lesson.h"

static char *read_file(const char *path, struct gl_err *err)
{
	char *text;
	if (gl_read_file(path, &text, NULL)) {
		gl_errf(err, GL_EENV, "cannot read lesson %s: %s", path, strerror(errno));
		return NULL;
	}
	return text;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct lesson_file *)a)->name, ((const struct lesson_file *)b)->name);
}

static void add(struct lesson_file **out, int *n, const char *name, size_t name_len, const char *path, char *text)
{
	*out = gl_xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
	struct lesson_file *f = &(*out)[(*n)++];
	snprintf(f->name, sizeof f->name, "%.*s", (int)name_len, name);
	snprintf(f->path, sizeof f->path, "%s", path);
	f->text = text;
}

static int list_dir(const char *dir, struct lesson_file **out, int *n, struct gl_err *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return gl_errf(err, GL_EUSAGE, "GPULAB_LESSONS=%s: cannot open the directory: %s", dir, strerror(errno));
	struct dirent *e;
	int rc = GL_OK;
	while (rc == GL_OK && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= 3 || e->d_name[0] == '.' || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		char *text = read_file(path, err);
		if (!text)
			rc = err->status;
		else
			add(out, n, e->d_name, len - 3, path, text);
	}
	closedir(d);
	return rc;
}

int lesson_files_list(struct lesson_file **out, int *n, char *origin, size_t origin_n, struct gl_err *err)
{
	*out = NULL;
	*n = 0;
	const char *dir = getenv("GPULAB_LESSONS");
	int rc = GL_OK;
	if (dir && *dir) {
		snprintf(origin, origin_n, "%s (GPULAB_LESSONS)", dir);
		rc = list_dir(dir, out, n, err);
	} else {
		snprintf(origin, origin_n, "built into gpulab");
		for (const struct lesson_embedded *e = lesson_embedded; e->name; e++)
			add(out, n, e->name, strlen(e->name), e->path, gl_xstrdup(e->text));
	}
	if (rc) {
		lesson_files_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc;
	}
	if (*n)
		qsort(*out, (size_t)*n, sizeof **out, by_name);
	return GL_OK;
}

void lesson_files_free(struct lesson_file *files, int n)
{
	for (int i = 0; i < n; i++)
		free(files[i].text);
	free(files);
}

/* "01-coalescing" matches "01-coalescing", "1", "01" and "coalescing". */
static bool matches(const char *name, const char *want)
{
	if (strcmp(name, want) == 0)
		return true;
	char *end;
	long num = strtol(name, &end, 10);
	if (end == name || *end != '-')
		return false;
	if (strcmp(end + 1, want) == 0)
		return true;
	char *wend;
	long w = strtol(want, &wend, 10);
	return wend != want && *wend == '\0' && w == num;
}

int lesson_name_find(const char *const *list, int n, const char *name, const char *kind, int *index,
		     struct gl_err *err)
{
	for (int i = 0; i < n; i++)
		if (matches(list[i], name)) {
			*index = i;
			return GL_OK;
		}
	/* suggest from the full names and the names without their number ("coalesing" -> 01-coalescing) */
	const char *names[256] = {0};
	int owner[256];
	size_t k = 0;
	struct gl_str all = {0};
	for (int i = 0; i < n && k + 2 <= GL_ARRAY_LEN(names); i++) {
		owner[k] = i;
		names[k++] = list[i];
		const char *dash = strchr(list[i], '-');
		if (dash && dash[1]) {
			owner[k] = i;
			names[k++] = dash + 1;
		}
		gl_str_addf(&all, "%s%s", i ? ", " : "", list[i]);
	}
	const char *near = gl_suggest(name, names, k);
	for (size_t j = 0; near && j < k; j++)
		if (names[j] == near) {
			near = list[owner[j]];
			break;
		}
	if (near)
		gl_errf(err, GL_EUSAGE, "unknown %s '%s' (did you mean '%s'?)", kind, name, near);
	else
		gl_errf(err, GL_EUSAGE, "unknown %s '%s' (%ss: %s; see 'gpulab %s list')", kind, name, kind,
			all.buf ? all.buf : "none", kind);
	gl_str_free(&all);
	return GL_EUSAGE;
}

int lesson_file_find(const struct lesson_file *files, int n, const char *name, int *index, struct gl_err *err)
{
	const char **names = gl_xmalloc(((size_t)n + 1) * sizeof *names);
	for (int i = 0; i < n; i++)
		names[i] = files[i].name;
	int rc = lesson_name_find(names, n, name, "lesson", index, err);
	free(names);
	return rc;
}

int lesson_load(const char *name, struct lesson *out, struct gl_err *err)
{
	struct lesson_file *files;
	int n, i = 0;
	char origin[600];
	int rc = lesson_files_list(&files, &n, origin, sizeof origin, err);
	if (rc)
		return rc;
	rc = lesson_file_find(files, n, name, &i, err);
	if (rc == GL_OK)
		rc = lesson_parse(files[i].name, files[i].path, files[i].text, out, err);
	lesson_files_free(files, n);
	return rc;
}
