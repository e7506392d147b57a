/* sim_source.c — `gpulab sim`'s input: a .ptx file as is or a .cu compiled by nvcc to PTX, and the
 * kernel named on the command line (exact, or the base name of a mangled C++ name). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "sim_cmd.h"

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

static bool executable(const char *path)
{
	return path && *path && access(path, X_OK) == 0;
}

/* $GPULAB_NVCC, else the nvcc found at build time, else `nvcc` on PATH (execvp searches it). */
static const char *nvcc_path(void)
{
	const char *env = getenv("GPULAB_NVCC");
	if (env && *env)
		return env;
#ifdef GPULAB_NVCC
	if (executable(GPULAB_NVCC))
		return GPULAB_NVCC;
#endif
	return "nvcc";
}

static int run_nvcc(const char *nvcc, const char *src, const char *out, struct gl_err *err)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		return gl_errf(err, GL_EENV, "cannot start nvcc: %s", strerror(errno));
	if (pid == 0) {
		/* nvcc's diagnostics belong on stderr, whatever gpulab's stdout is (JSON, a pipe) */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp(nvcc, nvcc, "-ptx", "-arch=sm_80", "-O3", "-lineinfo", src, "-o", out, (char *)NULL);
		fprintf(stderr, "gpulab: cannot run '%s': %s\n", nvcc, strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return gl_errf(err, GL_EENV, "waiting for nvcc: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return gl_errf(err, GL_EENV, "nvcc not found (tried '%s'): install the CUDA toolkit, put nvcc on "
			       "PATH or set GPULAB_NVCC, or pass a .ptx file", nvcc);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return gl_errf(err, GL_EUSAGE, "nvcc could not compile '%s' (its messages are above)", src);
	return GL_OK;
}

static int compile_cu(const char *path, char **text, struct gl_err *err)
{
	char *source = NULL;
	int checked = read_file(path, &source, err); /* readable, and no NUL byte nvcc might skip over */
	free(source);
	if (checked != GL_OK)
		return checked;
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/gpulab-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return gl_errf(err, GL_EENV, "cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			       strerror(errno));
	char out[4200];
	snprintf(out, sizeof out, "%s/kernel.ptx", dir);
	int rc = run_nvcc(nvcc_path(), path, out, err);
	if (rc == GL_OK)
		rc = read_file(out, text, err);
	unlink(out);
	rmdir(dir);
	return rc;
}

int gl_simsrc_load(const char *path, char **text, struct gl_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is a directory; give a .cu or .ptx file", path);
	if (!S_ISREG(st.st_mode))
		return gl_errf(err, GL_EUSAGE, "'%s' is not a regular file (a device, pipe or socket); give a .cu or "
			       ".ptx file", path);
	if (ends_with(path, ".cu"))
		return compile_cu(path, text, err);
	if (ends_with(path, ".ptx"))
		return read_file(path, text, err);
	return gl_errf(err, GL_EUSAGE, "'%s': SOURCE must be a .cu file (compiled with nvcc) or a .ptx file", path);
}

/* One <source-name> (<length><identifier>) at *p; returns false when there is none. */
static bool source_name(const char **p, const char **name, size_t *len)
{
	char *end;
	if (**p < '1' || **p > '9')
		return false;
	unsigned long n = strtoul(*p, &end, 10);
	if (n == 0 || strlen(end) < n)
		return false;
	*name = end;
	*len = n;
	*p = end + n;
	return true;
}

/* Walk the name part of an Itanium mangling: optional N...E nesting of source names.  `qual` gets
 * the components joined with "::", `base` the last one. */
static void demangle_name(const char *mangled, char *base, size_t nb, char *qual, size_t nq)
{
	snprintf(base, nb, "%s", mangled);
	snprintf(qual, nq, "%s", mangled);
	if (strncmp(mangled, "_Z", 2) != 0)
		return;
	const char *p = mangled + 2;
	if (*p == 'L')
		p++;
	bool nested = *p == 'N';
	if (nested)
		for (p++; *p == 'r' || *p == 'V' || *p == 'K'; p++)
			;
	struct gl_str q = {0};
	const char *name;
	size_t len;
	bool any = false;
	while (source_name(&p, &name, &len)) {
		gl_str_addf(&q, "%s%.*s", any ? "::" : "", (int)len, name);
		snprintf(base, nb, "%.*s", (int)len, name);
		any = true;
		if (!nested)
			break;
	}
	if (any)
		snprintf(qual, nq, "%s", q.buf);
	gl_str_free(&q);
}

void gl_simsrc_base_name(const char *mangled, char *out, size_t n)
{
	char qual[256];
	demangle_name(mangled, out, n, qual, sizeof qual);
}

static void list_entries(const struct ptx_module *m, struct gl_str *s)
{
	int k = 0;
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (!f->is_entry || !f->code)
			continue;
		char base[256], qual[256];
		demangle_name(f->name, base, sizeof base, qual, sizeof qual);
		if (strcmp(qual, f->name) != 0)
			gl_str_addf(s, "%s%s (%s)", k++ ? ", " : "", f->name, qual);
		else
			gl_str_addf(s, "%s%s", k++ ? ", " : "", f->name);
	}
	if (!k)
		gl_str_add(s, "none");
}

static int unknown_kernel(const struct ptx_module *m, const char *name, struct gl_err *err)
{
	enum { MAXC = 128 };
	const char *cands[2 * MAXC];
	char bases[MAXC][256];
	size_t n = 0, nb = 0;
	for (int i = 0; i < m->nfuncs && nb < MAXC; i++) {
		const struct ptx_function *f = &m->funcs[i];
		if (!f->is_entry || !f->code)
			continue;
		gl_simsrc_base_name(f->name, bases[nb], sizeof bases[nb]);
		cands[n++] = f->name;
		cands[n++] = bases[nb++];
	}
	const char *near = gl_suggest(name, cands, n);
	struct gl_str list = {0};
	list_entries(m, &list);
	int rc;
	if (near)
		rc = gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s (did you mean '%s'?); kernels: %s", name, m->name,
			     near, list.buf);
	else
		rc = gl_errf(err, GL_EUSAGE, "no kernel named '%s' in %s; kernels: %s", name, m->name, list.buf);
	gl_str_free(&list);
	return rc;
}

int gl_simsrc_kernel(const struct ptx_module *m, const char *name, const struct ptx_function **fn,
		     struct gl_err *err)
{
	*fn = NULL;
	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].code && strcmp(m->funcs[i].name, name) == 0) {
			if (!m->funcs[i].is_entry)
				return gl_errf(err, GL_EUSAGE, "'%s' is a device function (.func), not a kernel (.entry)",
					       name);
			*fn = &m->funcs[i];
			return GL_OK;
		}
	int hits = 0;
	struct gl_str list = {0};
	for (int i = 0; i < m->nfuncs; i++) {
		const struct ptx_function *f = &m->funcs[i];
		char base[256], qual[256];
		demangle_name(f->name, base, sizeof base, qual, sizeof qual);
		if (!f->is_entry || !f->code || (strcmp(base, name) != 0 && strcmp(qual, name) != 0))
			continue;
		gl_str_addf(&list, "%s%s", hits++ ? ", " : "", f->name);
		*fn = f;
	}
	if (hits > 1) {
		*fn = NULL;
		int rc = gl_errf(err, GL_EUSAGE, "kernel name '%s' is ambiguous in %s: it matches %s; pass the full "
			     "mangled name to --kernel", name, m->name, list.buf);
		gl_str_free(&list);
		return rc;
	}
	gl_str_free(&list);
	if (hits)
		return GL_OK;
	for (int i = 0; i < m->nfuncs; i++) {
		char base[256];
		gl_simsrc_base_name(m->funcs[i].name, base, sizeof base);
		if (!m->funcs[i].is_entry && strcmp(base, name) == 0)
			return gl_errf(err, GL_EUSAGE, "'%s' (%s) is a device function (.func), not a kernel (.entry)", name,
				       m->funcs[i].name);
	}
	return unknown_kernel(m, name, err);
}
