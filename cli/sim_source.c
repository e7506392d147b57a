/* sim_source.c — `gpulab sim`'s input: a .ptx file as is or a .cu compiled by nvcc to PTX (the kernel
 * named on the command line is found in sim_names.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "sim_cmd.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int read_file(const char *path, char **text, struct gl_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	struct gl_str s = {0};
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		gl_str_addf(&s, "%.*s", (int)got, buf);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		gl_str_free(&s);
		return gl_errf(err, GL_EUSAGE, "error reading '%s'", path);
	}
	if (s.buf && strlen(s.buf) != s.len) {
		gl_str_free(&s);
		return gl_errf(err, GL_EUSAGE, "'%s' contains NUL bytes: it is not PTX text", path);
	}
	*text = s.buf ? s.buf : gl_xstrdup("");
	return GL_OK;
}

int gl_simsrc_load(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is a directory; give a .cu or .ptx file", path);
	if (ends_with(path, ".cu"))
		return gl_simcache_compile(path, nv, text, err);
	if (ends_with(path, ".ptx"))
		return read_file(path, text, err);
	return gl_errf(err, GL_EUSAGE, "'%s': SOURCE must be a .cu file (compiled with nvcc) or a .ptx file", path);
}
