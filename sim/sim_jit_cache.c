/* sim_jit_cache.c — compile once: the generated C of a kernel (sim_jit_gen.c) is compiled with the
 * system C compiler into $XDG_CACHE_HOME/gpulab/jit/KEY.so and loaded with dlopen.  KEY is the SHA-256
 * of the generated source (which holds the decoded PTX: every opcode, operand, constant and SASS weight),
 * the compiler's path and `--version` text, the flags, and gpulab's version, so a new PTX, compiler or
 * gpulab never loads a stale object.
 *
 * What is in the cache is input, like any file another process could have written (docs/sim.md, "The
 * cache"):
 *  - the directory is opened through common/safe_dir.h: it must be this user's and not writable by
 *    group or others, else the compiled engine refuses it (the sentence says how to fix it) and the
 *    interpreter runs the kernel;
 *  - a compile happens in a private temporary directory inside it; the object is renamed in only after
 *    the compiler exited 0, and KEY.sum beside it records its size and SHA-256 (written first, so an
 *    object is never found without its record);
 *  - before dlopen, the object must be a regular file of this user's with the recorded size and
 *    checksum, and after dlopen (before any call) its gl_jit_key symbol, which the generated C defines,
 *    must be KEY.  An entry that fails these checks is deleted and compiled again; one that belongs to
 *    somebody else, or that others may write, is refused and left alone;
 *  - the compiler runs at most GPULAB_JIT_CC_TIMEOUT seconds (its whole process group is killed past
 *    that) within an address-space limit, and kernels of more than SIM_JIT_MAX_INSNS instructions are
 *    never compiled; temporary directories an interrupted compile left behind are removed later. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/safe_dir.h"
#include "common/sha256.h"
#include "common/util.h"
#include "ptx.h"
#include "sim_jit.h"

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "unknown"
#endif

#define CC_TIMEOUT_S 120                 /* default wall-clock limit of one compile */
#define CC_ADDRESS_SPACE (4ull << 30)    /* the compiler's address-space limit */
#define CC_OUTPUT_LIMIT (256ull << 20)   /* largest file the compiler may write */
#define RECORD_MAX 512                   /* bytes of a KEY.sum */
static const char what_dir[] = "the compiled engine's cache";

int sim_jit_cache_dir(char *out, size_t n)
{
	return gl_cache_dir("jit", out, n);
}

/* The compiler's time limit: $GPULAB_JIT_CC_TIMEOUT seconds (1 to 86400), else CC_TIMEOUT_S. */
static int cc_timeout(void)
{
	const char *env = getenv("GPULAB_JIT_CC_TIMEOUT");
	long s;
	struct gl_err ignore = {0};
	if (env && *env && gl_parse_long(env, 1, 86400, "GPULAB_JIT_CC_TIMEOUT", &s, &ignore) == GL_OK)
		return (int)s;
	return CC_TIMEOUT_S;
}

/* In the child: its own process group (so a timeout kills cc1 and as too), bounded memory and output. */
static void child_limits(void)
{
	setpgid(0, 0);
	struct rlimit as = {CC_ADDRESS_SPACE, CC_ADDRESS_SPACE}, fsize = {CC_OUTPUT_LIMIT, CC_OUTPUT_LIMIT};
	setrlimit(RLIMIT_AS, &as);
	setrlimit(RLIMIT_FSIZE, &fsize);
}

/* Read the child's output into out[0..n-1] until it closes the pipe or `deadline` (gl_now) passes;
 * true when it closed in time. */
static bool drain(int fd, char *out, size_t n, double deadline)
{
	size_t len = 0;
	char sink[4096];
	for (;;) {
		double left = deadline - gl_now();
		if (left <= 0)
			return false;
		struct pollfd p = {fd, POLLIN, 0};
		int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return false;
		if (r < 0)
			break;
		ssize_t k = read(fd, len + 1 < n ? out + len : sink, len + 1 < n ? n - 1 - len : sizeof sink);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (len + 1 < n)
			len += (size_t)k;
	}
	if (n)
		out[len] = 0;
	return true;
}

/* Run argv with stdout+stderr into `out` (NUL-terminated, cut to n-1 bytes) for at most `seconds`; the
 * exit status, -1 when it could not start or died of a signal, -2 when it ran out of time (then its
 * process group is killed). */
static int run_capture(char *const argv[], char *out, size_t n, int seconds)
{
	int fd[2];
	if (n)
		out[0] = 0;
	if (pipe2(fd, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		child_limits();
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	close(fd[1]);
	bool done = drain(fd[0], out, n, gl_now() + seconds);
	close(fd[0]);
	if (!done)
		kill(-pid, SIGKILL);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!done)
		return -2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A message into a reason buffer, cut to fit. */
static void say(char *why, size_t whyn, const char *msg)
{
	if (whyn)
		snprintf(why, whyn, "%.*s", (int)(whyn - 1), msg);
}

/* The compiler: $GPULAB_CC, else cc. */
static const char *compiler(void)
{
	const char *cc = getenv("GPULAB_CC");
	return cc && *cc ? cc : "cc";
}

/* Flags: the optimisation level ($GPULAB_JIT_CFLAGS, default -O1: -O2 takes several times longer on a
 * kernel of a thousand instructions for little gain) and vector extensions when this CPU has them.  They
 * are part of the key. */
static const char *arch_flags(void)
{
	static char flags[256];
	const char *opt = getenv("GPULAB_JIT_CFLAGS");
	const char *isa = "";
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		isa = " -mavx2 -mfma";
#endif
	snprintf(flags, sizeof flags, "%s%s", opt && *opt ? opt : "-O1", isa);
	return flags;
}

/* Compile `src` into `so` (both paths in a private directory); on failure the reason goes into why. */
static int compile(const char *src, const char *so, int ncode, char *why, size_t whyn)
{
	char flags[256];
	snprintf(flags, sizeof flags, "%s", arch_flags());
	char *argv[24];
	int argc = 0;
	argv[argc++] = (char *)compiler();
	argv[argc++] = "-std=c11";
	argv[argc++] = "-ffp-contract=off"; /* a*b+c stays two roundings, as the interpreter computes it */
	argv[argc++] = "-fPIC";
	argv[argc++] = "-shared";
	char *save = NULL;
	for (char *t = strtok_r(flags, " ", &save); t && argc < 20; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc++] = "-o";
	argv[argc++] = (char *)so;
	argv[argc++] = (char *)src;
	argv[argc] = NULL;
	char out[2048];
	int limit = cc_timeout();
	int rc = run_capture(argv, out, sizeof out, limit);
	if (rc == 0)
		return 0;
	if (rc == -2)
		snprintf(why, whyn, "'%s' ran past its time limit of %d s on a kernel of %d PTX instructions and was "
			 "stopped (GPULAB_JIT_CC_TIMEOUT sets the limit)", compiler(), limit, ncode);
	else if (rc == 127 || rc < 0)
		snprintf(why, whyn, "no C compiler '%s' (set GPULAB_CC or install gcc), or it was killed", compiler());
	else
		snprintf(why, whyn, "'%s' could not compile the generated C (exit %d): %.300s", compiler(), rc, out);
	return -1;
}

/* KEY from the source, the compiler and the flags; fails when the compiler does not run. */
static int cache_key(const char *source, char key[65], char *why, size_t whyn)
{
	char *argv[] = {(char *)compiler(), "--version", NULL};
	char ver[1024];
	if (run_capture(argv, ver, sizeof ver, 30) != 0) {
		snprintf(why, whyn, "no C compiler '%s' (set GPULAB_CC or install gcc)", compiler());
		return -1;
	}
	struct gl_sha256 s;
	gl_sha256_init(&s);
	const char *parts[] = {"gpulab-jit-1", GPULAB_VERSION, compiler(), ver, arch_flags(), source};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		gl_sha256_add(&s, parts[i], strlen(parts[i]) + 1);
	gl_sha256_hex(&s, key);
	return 0;
}

/* SHA-256 of what is left to read of fd; -1 when it cannot be read. */
/* The record beside KEY.so: "gpulab-jit-entry 1 KEY SIZE SHA256\n"; `hex` NULL gives the part before the
 * checksum. */
static void record_text(const char *key, long long size, const char *hex, char *out, size_t n)
{
	snprintf(out, n, "gpulab-jit-entry 1 %s %lld %s%s", key, size, hex ? hex : "", hex ? "\n" : "");
}

/* What a cache lookup found. */
enum entry { ENTRY_MISS, ENTRY_LOADED, ENTRY_BAD, ENTRY_REFUSED };

/* Whether the object open in fd (of stat st) is the one KEY.sum records: its size, and with `hash` its
 * SHA-256 too. */
static bool matches_record(const char *rec, const char *key, int fd, const struct stat *st, bool hash)
{
	char want[RECORD_MAX], hex[65];
	if (!hash) {
		record_text(key, (long long)st->st_size, NULL, want, sizeof want);
		return strncmp(rec, want, strlen(want)) == 0;
	}
	if (gl_sha256_fd(fd, hex) != 0)
		return false;
	record_text(key, (long long)st->st_size, hex, want, sizeof want);
	return strcmp(rec, want) == 0;
}

/* KEY.so opened and checked against KEY.sum before anything of it is loaded: *fd and its stat. */
static enum entry check_object(const struct gl_safe_dir *d, const char *key, bool hash, int *fd, struct stat *st,
			       char *why, size_t whyn)
{
	char name[80], recname[80], *rec = NULL;
	struct gl_err e = {0};
	snprintf(name, sizeof name, "%s.so", key);
	snprintf(recname, sizeof recname, "%s.sum", key);
	*fd = -1;
	if (gl_safe_dir_open_file(d, name, fd, st, &e) != GL_OK) {
		if (e.status == GL_EUSAGE)
			return ENTRY_MISS;
		say(why, whyn, e.msg); /* a link, a FIFO, somebody else's file: never loaded */
		return ENTRY_REFUSED;
	}
	enum entry verdict = ENTRY_BAD;
	if (gl_safe_dir_read(d, recname, RECORD_MAX, &rec, NULL, &e) != GL_OK)
		snprintf(why, whyn, "it has no readable record %s", recname);
	else if (!matches_record(rec, key, *fd, st, hash))
		snprintf(why, whyn, "its size or checksum (%lld bytes) is not the one recorded in %s (truncated, or "
			 "replaced)", (long long)st->st_size, recname);
	else
		verdict = ENTRY_LOADED;
	free(rec);
	if (verdict != ENTRY_LOADED) {
		close(*fd);
		*fd = -1;
	}
	return verdict;
}

/* dlopen exactly the file checked (open in fd), under a name of its own: a hard link made through
 * /proc/self/fd to a fresh temporary name, removed once it is loaded.  (dlopen finds an object loaded
 * earlier by its path, so loading KEY.so again after it was rebuilt would give the old object back.) */
static void *open_checked(const struct gl_safe_dir *d, int fd, char *why, size_t whyn)
{
	char name[64], self[64], path[PATH_MAX + 80];
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	for (int tries = 0; tries < 10; tries++) {
		int tfd;
		struct gl_err e = {0};
		if (gl_safe_dir_create_temp(d, name, sizeof name, &tfd, &e) != GL_OK) {
			say(why, whyn, e.msg);
			return NULL;
		}
		close(tfd);
		gl_safe_dir_discard(d, name); /* the fresh name, free again: the link takes it */
		if (linkat(AT_FDCWD, self, d->fd, name, AT_SYMLINK_FOLLOW) == 0)
			break;
		if (errno != EEXIST || tries == 9) {
			snprintf(why, whyn, "it cannot be linked for loading: %s", strerror(errno));
			return NULL;
		}
	}
	snprintf(path, sizeof path, "%s/%s", d->path, name);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		snprintf(why, whyn, "it cannot be loaded: %s", dlerror());
	gl_safe_dir_discard(d, name); /* loaded objects stay mapped */
	return h;
}

/* dlopen the checked object and check the key it carries before any of its functions is called. */
static enum entry load_object(const struct gl_safe_dir *d, const char *key, struct sim_jit *j, char *why,
			      size_t whyn)
{
	int fd;
	struct stat st;
	enum entry found = check_object(d, key, true, &fd, &st, why, whyn);
	if (found != ENTRY_LOADED)
		return found;
	j->handle = open_checked(d, fd, why, whyn);
	close(fd);
	if (!j->handle)
		return ENTRY_BAD;
	const char *carried = dlsym(j->handle, "gl_jit_key");
	j->run = (sim_jit_fn)dlsym(j->handle, "gl_jit_run");
	if (!carried || strncmp(carried, key, 65) != 0 || !j->run) {
		snprintf(why, whyn, "it is the object of another kernel (its gl_jit_key is not %.16s...)", key);
		dlclose(j->handle);
		j->handle = NULL;
		j->run = NULL;
		return ENTRY_BAD;
	}
	return ENTRY_LOADED;
}

static void discard_entry(const struct gl_safe_dir *d, const char *key)
{
	const char *ext[] = {".so", ".sum", ".c"};
	for (int i = 0; i < 3; i++) {
		char name[80];
		snprintf(name, sizeof name, "%s%s", key, ext[i]);
		gl_safe_dir_discard(d, name);
	}
}

/* The generated source and the symbol that names its key (not part of the key: it is the key). */
static char *keyed_source(const char *source, const char *key)
{
	struct gl_str s = {0};
	gl_str_addf(&s, "%s\n/* the cache key this object answers to (checked after dlopen) */\n"
		    "const char gl_jit_key[65] = \"%s\";\n", source, key);
	return s.buf;
}

/* Compile into a private temporary directory of d, then rename the object into d after its record. */
static int build_entry(const struct gl_safe_dir *d, const char *source, const char *key, int ncode, double *seconds,
		       char *why, size_t whyn)
{
	struct gl_safe_dir tmp;
	struct gl_err e = {0};
	char tname[64], src[PATH_MAX + 16], so[PATH_MAX + 16], sum[RECORD_MAX], hex[65], name[80];
	if (gl_safe_dir_make_temp_dir(d, tname, sizeof tname, &tmp, &e) != GL_OK) {
		say(why, whyn, e.msg);
		return -1;
	}
	char *text = keyed_source(source, key);
	int rc = gl_safe_dir_write(&tmp, "kernel.c", text, strlen(text), &e) != GL_OK ? -1 : 0;
	free(text);
	if (rc)
		say(why, whyn, e.msg);
	snprintf(src, sizeof src, "%s/kernel.c", tmp.path);
	snprintf(so, sizeof so, "%s/kernel.so", tmp.path);
	double t0 = gl_now();
	rc = rc ? rc : compile(src, so, ncode, why, whyn);
	*seconds = gl_now() - t0;
	int fd = -1;
	struct stat st;
	if (rc == 0 && (gl_safe_dir_open_file(&tmp, "kernel.so", &fd, &st, &e) != GL_OK || gl_sha256_fd(fd, hex) != 0)) {
		snprintf(why, whyn, "the compiler's output cannot be read: %s", e.msg[0] ? e.msg : strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0) { /* the record first: an object is never found without it */
		record_text(key, (long long)st.st_size, hex, sum, sizeof sum);
		snprintf(name, sizeof name, "%s.sum", key);
		if (gl_safe_dir_write(d, name, sum, strlen(sum), &e) != GL_OK) {
			say(why, whyn, e.msg);
			rc = -1;
		}
	}
	snprintf(name, sizeof name, "%s.c", key); /* kept beside the object, for reading */
	if (rc == 0)
		renameat(tmp.fd, "kernel.c", d->fd, name);
	snprintf(name, sizeof name, "%s.so", key);
	if (rc == 0 && renameat(tmp.fd, "kernel.so", d->fd, name) != 0) {
		snprintf(why, whyn, "cannot store %s/%s: %s", d->path, name, strerror(errno));
		rc = -1;
	}
	gl_safe_dir_close(&tmp);
	gl_safe_dir_remove_tree(d, tname);
	return rc;
}

/* The cache directory, open and checked; false when there is none (nowhere to put it, or it cannot be
 * created) or it is refused (*refused: it exists but may not be used; the reason in why). */
static bool open_cache(struct gl_safe_dir *d, bool *refused, char *why, size_t whyn)
{
	char dir[PATH_MAX];
	struct gl_err e = {0};
	struct stat st;
	*refused = false;
	d->fd = -1;
	if (sim_jit_cache_dir(dir, sizeof dir) != 0)
		return false;
	if (gl_safe_dir_open(d, dir, GL_SAFE_DIR_CREATE, what_dir, &e) == GL_OK)
		return true;
	*refused = lstat(dir, &st) == 0;
	if (*refused)
		say(why, whyn, e.msg);
	return false;
}

bool sim_jit_cached(const struct ptx_module *m, const struct ptx_function *fn)
{
	char why[512], key[65];
	int native = 0, fd;
	bool refused;
	struct gl_safe_dir d;
	struct stat st;
	if (fn->ncode > SIM_JIT_MAX_INSNS || !open_cache(&d, &refused, why, sizeof why))
		return false;
	char *source = sim_jit_source(m, fn, &native, why, sizeof why);
	bool found = source && cache_key(source, key, why, sizeof why) == 0 &&
		     check_object(&d, key, false, &fd, &st, why, sizeof why) == ENTRY_LOADED;
	free(source);
	if (found)
		close(fd);
	gl_safe_dir_close(&d);
	return found;
}

/* Load `key` from d, compiling it (again) when it is missing or was bad. */
static int load_or_build(struct gl_safe_dir *d, const char *source, struct sim_jit *j, int ncode, char *why,
			 size_t whyn)
{
	char bad[512];
	enum entry found = load_object(d, j->key, j, bad, sizeof bad);
	if (found == ENTRY_LOADED)
		return 0;
	if (found == ENTRY_REFUSED) {
		snprintf(why, whyn, "nothing of the cache entry was loaded: %s", bad);
		return -1;
	}
	if (found == ENTRY_BAD) {
		snprintf(j->note, sizeof j->note, "the cached object %.16s... was deleted and compiled again: %.120s",
			 j->key, bad);
		discard_entry(d, j->key);
	}
	if (build_entry(d, source, j->key, ncode, &j->compile_seconds, why, whyn) != 0)
		return -1;
	found = load_object(d, j->key, j, bad, sizeof bad);
	if (found != ENTRY_LOADED)
		snprintf(why, whyn, "the object just compiled cannot be used: %s", bad);
	return found == ENTRY_LOADED ? 0 : -1;
}

int sim_jit_load(const struct ptx_module *m, const struct ptx_function *fn, struct sim_jit **out, char *why, size_t whyn)
{
	*out = NULL;
	if (fn->ncode > SIM_JIT_MAX_INSNS) {
		snprintf(why, whyn, "the kernel has %d PTX instructions, more than the %d the compiled engine compiles "
			 "(a C compile grows faster than the kernel)", fn->ncode, SIM_JIT_MAX_INSNS);
		return -1;
	}
	int native = 0;
	char *source = sim_jit_source(m, fn, &native, why, whyn);
	if (!source)
		return -1;
	struct sim_jit *j = gl_xcalloc(1, sizeof *j);
	j->native = native;
	j->ncode = fn->ncode;
	struct gl_safe_dir d;
	struct gl_err e = {0};
	bool refused, cached = open_cache(&d, &refused, why, whyn);
	int rc = refused ? -1 : cache_key(source, j->key, why, whyn);
	if (rc == 0 && cached) {
		gl_safe_dir_clean_stale(&d, 2.0 * cc_timeout() + 60); /* what interrupted compiles left */
		rc = load_or_build(&d, source, j, fn->ncode, why, whyn);
		gl_safe_dir_close(&d);
	} else if (rc == 0) { /* no cache directory: compile in a temporary one, used once */
		rc = gl_safe_dir_temp(&d, "gpulab-jit", &e) == GL_OK ? 0 : -1;
		if (rc)
			say(why, whyn, e.msg);
		if (rc == 0)
			rc = load_or_build(&d, source, j, fn->ncode, why, whyn);
		if (d.fd >= 0)
			gl_safe_dir_remove_temp(&d); /* the object stays mapped after its files are gone */
	}
	free(source);
	if (rc) {
		if (j->handle)
			dlclose(j->handle);
		free(j);
		return -1;
	}
	*out = j;
	return 0;
}

void sim_jit_free(struct sim_jit *j)
{
	if (!j)
		return;
	if (j->handle)
		dlclose(j->handle);
	free(j);
}
