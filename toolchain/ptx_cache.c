/* ptx_cache.c — nvcc once: the PTX nvcc makes of a .cu file is kept under $XDG_CACHE_HOME/gpulab/ptx
 * (~/.cache/gpulab/ptx), so that running the same file again does not pay nvcc's second or two.
 *
 * An entry is found by KEY = SHA-256 of the nvcc used (its path and `nvcc --version`), every flag it is
 * given, the working directory (relative -I paths and the .file names depend on it), the source's path
 * and its bytes.  KEY.ptx holds the PTX; KEY.deps lists every file nvcc read (its -MD output: the
 * includes) with their SHA-256, size and modification time.  An entry is used only when each listed
 * file still has that content (a changed size or time re-hashes the file, so a touched but unchanged
 * header still hits); otherwise nvcc runs again and the entry is replaced.  Both files are written to a
 * temporary name and renamed, so a reader never sees half an entry, and everything goes through
 * common/safe_dir.h: a cache directory that is a link, another user's or writable by others is not used,
 * nor is an entry that is not a regular file of this user's.  No usable cache directory only means nvcc
 * runs every time (--verbose says why). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/safe_dir.h"
#include "common/sha256.h"
#include "common/util.h"
#include "toolchain/toolchain.h"

#define MAX_ARGS (16 + 2 * GL_NVCC_MAX_FLAGS)

/* The whole file, NUL-terminated; -1 when it cannot be read or holds NUL bytes. */
static int slurp(const char *path, char **text, size_t *len)
{
	size_t n;
	if (gl_read_file(path, text, &n))
		return -1;
	if (strlen(*text) != n) {
		free(*text);
		*text = NULL;
		return -1;
	}
	if (len)
		*len = n;
	return 0;
}

static long long mtime_ns(const struct stat *st)
{
	return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

/* $XDG_CACHE_HOME/gpulab/ptx or $HOME/.cache/gpulab/ptx, created if missing and checked through
 * common/safe_dir.h (this user's, not writable by others); false, with the reason in `why`, when there is
 * none or it is refused: then nvcc simply runs. */
static bool cache_dir(struct gl_safe_dir *d, char *why, size_t n)
{
	char dir[4096];
	struct gl_err err = {0};
	d->fd = -1;
	if (gl_cache_dir("ptx", dir, sizeof dir) != 0)
		return snprintf(why, n, "no cache directory ($XDG_CACHE_HOME and $HOME are not set)"), false;
	if (gl_safe_dir_open(d, dir, GL_SAFE_DIR_CREATE, "the nvcc cache", &err) == GL_OK)
		return true;
	snprintf(why, n, "%.400s", err.msg);
	return false;
}

/* The command line, built once: argv[] for nvcc, and the same words (without the temporary output
 * paths) for the key. */
struct nvcc_cmd {
	char *argv[MAX_ARGS + 1];
	int argc;
	char arch[64], out[4200], dep[4200];
};

static void build_cmd(struct nvcc_cmd *c, const char *nvcc, const char *src, const struct gl_nvcc_opts *nv,
		      const char *tmpdir)
{
	snprintf(c->arch, sizeof c->arch, "-arch=%s", nv && nv->arch ? nv->arch : "sm_80");
	snprintf(c->out, sizeof c->out, "%s/kernel.ptx", tmpdir);
	snprintf(c->dep, sizeof c->dep, "%s/kernel.d", tmpdir);
	int n = 0;
	c->argv[n++] = (char *)nvcc;
	c->argv[n++] = "-ptx";
	c->argv[n++] = c->arch;
	c->argv[n++] = "-O3";
	c->argv[n++] = "-lineinfo";
	for (int i = 0; nv && i < nv->nflags && n < MAX_ARGS - 8; i++)
		c->argv[n++] = (char *)nv->flags[i];
	c->argv[n++] = (char *)src;
	c->argc = n; /* the key covers argv[0..argc) */
	c->argv[n++] = "-o";
	c->argv[n++] = c->out;
	c->argv[n++] = "-MD";
	c->argv[n++] = "-MF";
	c->argv[n++] = c->dep;
	c->argv[n] = NULL;
}

static void key_of(const struct nvcc_cmd *c, const char *version, const char *source, size_t len, char key[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	gl_sha256_add(&h, "gpulab nvcc cache 1", 20);
	gl_sha256_add(&h, version, strlen(version) + 1);
	for (int i = 0; i < c->argc; i++)
		gl_sha256_add(&h, c->argv[i], strlen(c->argv[i]) + 1);
	char cwd[4096];
	if (getcwd(cwd, sizeof cwd))
		gl_sha256_add(&h, cwd, strlen(cwd) + 1);
	gl_sha256_add(&h, source, len);
	gl_sha256_hex(&h, key);
}

/* KEY.deps lines: "SHA256 SIZE MTIME_NS PATH".  True when every file listed still has its content. */
static bool deps_current(const struct gl_safe_dir *d, const char *name)
{
	char *text = NULL;
	struct gl_err ignored = {0};
	if (gl_safe_dir_read(d, name, 1 << 20, &text, NULL, &ignored) != GL_OK)
		return false;
	FILE *f = fmemopen(text, strlen(text), "r");
	if (!f) {
		free(text);
		return false;
	}
	char line[4500];
	bool ok = true;
	int n = 0;
	while (ok && fgets(line, sizeof line, f)) {
		char hex[65], path[4200], now[65];
		long long size, mt;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%64s %lld %lld %4199[^\n]", hex, &size, &mt, path) != 4) {
			ok = false;
			break;
		}
		n++;
		struct stat st;
		if (stat(path, &st) != 0)
			ok = false;
		else if ((long long)st.st_size != size || mtime_ns(&st) != mt)
			ok = gl_sha256_file(path, now) == 0 && strcmp(now, hex) == 0;
	}
	fclose(f);
	free(text);
	return ok && n > 0;
}

/* The files of a make-style dependency list ("target: a.cu \<newline> b.h"; "\ " is a space). */
static int parse_deps(const char *text, char ***files, int *n)
{
	int cap = 0;
	*files = NULL;
	*n = 0;
	const char *p = strchr(text, ':');
	if (!p)
		return -1;
	for (p++; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
			p += *p == '\\' ? 2 : 1;
		if (!*p)
			break;
		struct gl_str w = {0};
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\\' && p[1] == ' ')
				p++;
			gl_str_addf(&w, "%c", *p++);
		}
		if (w.len && w.buf[w.len - 1] == ':') { /* a phony target of -MP: not a dependency */
			gl_str_free(&w);
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*files = gl_xrealloc(*files, (size_t)cap * sizeof **files);
		}
		(*files)[(*n)++] = w.buf;
	}
	return 0;
}

/* Write `text` as file `name` of d: a temporary file (O_EXCL|O_NOFOLLOW) renamed in (safe_dir.h). */
static int write_atomic(const struct gl_safe_dir *d, const char *name, const char *text)
{
	struct gl_err ignored = {0};
	return gl_safe_dir_write(d, name, text, strlen(text), &ignored) == GL_OK ? 0 : -1;
}

static void store(const struct gl_safe_dir *d, const char *key, const char *ptx, const char *depfile, bool verbose)
{
	char *deps = NULL, **files = NULL;
	int n = 0;
	if (slurp(depfile, &deps, NULL) || parse_deps(deps, &files, &n) || n == 0) {
		if (verbose)
			fprintf(stderr, "gpulab: nvcc gave no dependency list; the PTX is not cached\n");
		free(deps);
		return;
	}
	struct gl_str list = {0};
	bool ok = true;
	for (int i = 0; i < n; i++) {
		char hex[65];
		struct stat st;
		if (ok && (stat(files[i], &st) != 0 || gl_sha256_file(files[i], hex) != 0))
			ok = false;
		if (ok)
			gl_str_addf(&list, "%s %lld %lld %s\n", hex, (long long)st.st_size, mtime_ns(&st), files[i]);
		free(files[i]);
	}
	free(files);
	free(deps);
	char ptx_name[80], deps_name[80];
	snprintf(ptx_name, sizeof ptx_name, "%s.ptx", key);
	snprintf(deps_name, sizeof deps_name, "%s.deps", key);
	/* the PTX first: a .deps file always has its PTX */
	if (ok && write_atomic(d, ptx_name, ptx) == 0 && write_atomic(d, deps_name, list.buf) == 0) {
		if (verbose)
			fprintf(stderr, "gpulab: nvcc cache: stored %s/%s (%d files checked on reuse)\n", d->path, ptx_name, n);
	} else if (verbose) {
		fprintf(stderr, "gpulab: nvcc cache: could not store the PTX in %s\n", d->path);
	}
	gl_str_free(&list);
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* nvcc --version, under the same time limit. */
static int nvcc_version(const char *nvcc, const char *tmpdir, char **version, struct gl_err *err)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/version.txt", tmpdir);
	char *argv[] = {(char *)nvcc, "--version", NULL};
	int rc = gl_nvcc_run(argv, path, "--version", err);
	if (rc == GL_OK && slurp(path, version, NULL))
		rc = gl_errf(err, GL_EENV, "cannot read the output of '%s --version'", nvcc);
	unlink(path);
	return rc;
}

static int compile(const char *path, const struct gl_nvcc_opts *nv, const char *tmpdir, char **text,
		   struct gl_err *err)
{
	const char *nvcc = gl_nvcc_path();
	bool verbose = nv && nv->verbose, use_cache = !(nv && nv->no_cache);
	char *version = NULL, *source = NULL, key[65] = "", why[512] = "";
	struct gl_safe_dir d = {.fd = -1};
	size_t len = 0;
	int rc = nvcc_version(nvcc, tmpdir, &version, err);
	if (rc)
		return rc;
	struct nvcc_cmd c;
	build_cmd(&c, nvcc, path, nv, tmpdir);
	if (slurp(path, &source, &len)) {
		free(version);
		return gl_errf(err, GL_EUSAGE, "cannot read '%s' (or it holds NUL bytes: it is not CUDA source)", path);
	}
	key_of(&c, version, source, len, key);
	free(version);
	free(source);
	if (use_cache && cache_dir(&d, why, sizeof why)) {
		char ptx_name[80], deps_name[80];
		struct gl_err miss = {0};
		snprintf(ptx_name, sizeof ptx_name, "%s.ptx", key);
		snprintf(deps_name, sizeof deps_name, "%s.deps", key);
		if (deps_current(&d, deps_name) &&
		    gl_safe_dir_read(&d, ptx_name, GL_MAX_INPUT_BYTES, text, NULL, &miss) == GL_OK) {
			if (verbose)
				fprintf(stderr, "gpulab: nvcc cache: hit %s/%s (nvcc not run)\n", d.path, ptx_name);
			gl_safe_dir_close(&d);
			return GL_OK;
		}
	} else if (verbose) {
		fprintf(stderr, "gpulab: nvcc cache: %s\n", use_cache ? why : "off (--no-cache)");
	}
	double t0 = seconds();
	rc = gl_nvcc_run(c.argv, NULL, path, err);
	if (rc == GL_OK && slurp(c.out, text, NULL))
		rc = gl_errf(err, GL_EENV, "nvcc wrote no readable PTX for '%s'", path);
	if (rc == GL_OK && verbose)
		fprintf(stderr, "gpulab: nvcc cache: miss; nvcc took %.2f s\n", seconds() - t0);
	if (rc == GL_OK && d.fd >= 0)
		store(&d, key, *text, c.dep, verbose);
	gl_safe_dir_close(&d);
	unlink(c.out);
	unlink(c.dep);
	return rc;
}

int gl_simcache_compile(const char *path, const struct gl_nvcc_opts *nv, char **text, struct gl_err *err)
{
	if (access(path, R_OK) != 0)
		return gl_errf(err, GL_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
	struct gl_safe_dir tmp; /* nvcc's outputs: a private directory (safe_dir.h), removed with what is in it */
	int rc = gl_safe_dir_temp(&tmp, "gpulab-sim", err);
	if (rc)
		return rc;
	rc = compile(path, nv, tmp.path, text, err);
	gl_safe_dir_remove_temp(&tmp);
	return rc;
}
