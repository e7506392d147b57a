/* source.c — `gpulab sim`'s input: a .ptx file as is or a .cu compiled by nvcc to PTX (the kernel
 * named on the command line is found in sim_names.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "toolchain/toolchain.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The whole file as a NUL-terminated string.  Source text never contains a NUL byte, and one would end
 * the text early for everything after it (the parser, the line table), so it is refused where found. */
static int read_file(const char *path, char **text, struct gl_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	size_t len = 0, cap = 65536, got;
	char *buf = gl_xmalloc(cap + 1);
	int rc = GL_OK;
	while (rc == GL_OK && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		const char *nul = memchr(buf + len, '\0', got);
		if (nul)
			rc = gl_errf(err, GL_EUSAGE,
				     "'%s' contains a NUL byte at offset %zu: it is not %s text; fix or regenerate the file",
				     path, (size_t)(nul - buf), ends_with(path, ".cu") ? "CUDA" : "PTX");
		len += got;
		if (len == cap)
			buf = gl_xrealloc(buf, (cap *= 2) + 1);
	}
	if (rc == GL_OK && ferror(f))
		rc = gl_errf(err, GL_EUSAGE, "error reading '%s': %s", path, strerror(errno));
	fclose(f);
	if (rc != GL_OK) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*text = buf;
	return GL_OK;
}

int gl_simsrc_load(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is a directory; give a .cu or .ptx file", path);
	if (!S_ISREG(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is not a regular file (a device, pipe or socket); give a .cu or "
			       ".ptx file", path);
	if (ends_with(path, ".cu")) {
		char *source = NULL;
		int checked = read_file(path, &source, err); /* readable, and no NUL byte nvcc might skip over */
		free(source);
		return checked != GL_OK ? checked : gl_simcache_compile(path, nv, text, err);
	}
	if (ends_with(path, ".ptx"))
		return read_file(path, text, err);
	return gl_errf(err, GL_EUSAGE, "'%s': SOURCE must be a .cu file (compiled with nvcc) or a .ptx file", path);
}
