/* test_sim_jit_cache.c — the compiled engine's cache treats what it finds as input (sim/sim_jit_cache.c,
 * docs/sim.md "The cache"): a cache directory that is a symbolic link, another user's or writable by
 * others is refused (the interpreter runs); a truncated object, one swapped in from another kernel (with
 * its record rewritten to match) and one with no record are deleted and compiled again, and nothing of
 * them runs; another user's object is refused and left alone; a compiler that runs past its time limit is
 * stopped with its process group and leaves nothing behind; kernels over SIM_JIT_MAX_INSNS are not
 * compiled; stale temporary directories are removed.  Skipped (77) without a C compiler. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/safe_dir.h"
#include "common/sha256.h"
#include "sim/sim_jit.h"
#include "sim_fixture.h"
#include "tmp_fixture.h"

#define NOBODY 65534

static const char *two_kernels =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry inc(.param .u64 p)\n{\n	.reg .b32 %r<4>;\n	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p];\n	mov.u32 %r1, %tid.x;\n	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n	ld.global.u32 %r2, [%rd3];\n	add.s32 %r3, %r2, 1;\n"
	"	st.global.u32 [%rd3], %r3;\n	ret;\n}\n"
	".visible .entry dbl(.param .u64 p)\n{\n	.reg .b32 %r<4>;\n	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p];\n	mov.u32 %r1, %tid.x;\n	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n	ld.global.u32 %r2, [%rd3];\n	add.s32 %r3, %r2, %r2;\n"
	"	st.global.u32 [%rd3], %r3;\n	ret;\n}\n";

static char jitdir[600];

/* Load fn, expecting success (rc 0) or failure with `why_part` in the reason. */
static struct sim_jit *load(const struct ptx_module *m, const char *name, int want_rc, const char *why_part)
{
	struct sim_jit *j = NULL;
	char why[512] = "";
	int rc = sim_jit_load(m, ptx_find_function(m, name), &j, why, sizeof why);
	CHECK_EQ(rc, want_rc);
	if (why_part && !strstr(why, why_part))
		fprintf(stderr, "reason '%s' lacks '%s'\n", why, why_part);
	CHECK(!why_part || strstr(why, why_part));
	return j;
}

/* The entry file of j's key with extension ext. */
static const char *entry(const struct sim_jit *j, const char *ext)
{
	static char path[8][800];
	static int k;
	char *p = path[k++ % 8];
	int len = snprintf(p, 800, "%s/%s%s", jitdir, j->key, ext);
	CHECK(len > 0 && len < 800); /* a cut path would name another file */
	return p;
}

static void copy_file(const char *from, const char *to)
{
	size_t n;
	char *text = slurp(from, &n);
	FILE *f = fopen(to, "wb");
	CHECK(text && f && fwrite(text, 1, n, f) == n);
	if (f)
		fclose(f);
	free(text);
}

static void test_entries(const struct ptx_module *m)
{
	struct sim_jit *a = load(m, "inc", 0, NULL), *b = load(m, "dbl", 0, NULL);
	CHECK(a && b && a->compile_seconds > 0 && strcmp(a->key, b->key) != 0);
	if (!a || !b)
		return;
	struct stat st;
	CHECK(stat(entry(a, ".sum"), &st) == 0 && (st.st_mode & 0777) == 0600);
	struct sim_jit *again = load(m, "inc", 0, NULL);
	CHECK(again && again->compile_seconds == 0 && !again->note[0]);
	sim_jit_free(again);
	/* the files are changed in place below: nothing of them may stay mapped (only the keys are kept) */
	struct sim_jit ka = *a, kb = *b;
	sim_jit_free(a);
	sim_jit_free(b);
	a = &ka;
	b = &kb;
	/* truncated: deleted and compiled again */
	CHECK(truncate(entry(a, ".so"), 100) == 0);
	again = load(m, "inc", 0, NULL);
	CHECK(again && again->compile_seconds > 0 && strstr(again->note, "deleted and compiled again"));
	CHECK(stat(entry(a, ".so"), &st) == 0 && st.st_size > 100);
	sim_jit_free(again);
	/* swapped: dbl's object under inc's key, with a record rewritten to match it: loaded, but its
	 * gl_jit_key says dbl, so it is dropped before any call and compiled again */
	copy_file(entry(b, ".so"), entry(a, ".so"));
	size_t n;
	char *obj = slurp(entry(a, ".so"), &n), hex[65], rec[400];
	struct gl_sha256 s;
	gl_sha256_init(&s);
	gl_sha256_add(&s, obj, n);
	gl_sha256_hex(&s, hex);
	free(obj);
	snprintf(rec, sizeof rec, "gpulab-jit-entry 1 %s %zu %s\n", a->key, n, hex);
	FILE *f = fopen(entry(a, ".sum"), "w");
	CHECK(f && fputs(rec, f) >= 0 && fclose(f) == 0);
	again = load(m, "inc", 0, NULL);
	CHECK(again && again->compile_seconds > 0 && strstr(again->note, "the object of another kernel"));
	sim_jit_free(again);
	/* no record beside it (an object somebody put there): deleted and compiled again */
	CHECK(unlink(entry(a, ".sum")) == 0);
	again = load(m, "inc", 0, NULL);
	CHECK(again && strstr(again->note, "no readable record"));
	sim_jit_free(again);
	/* another user's object: refused, not loaded, left alone */
	if (geteuid() == 0) {
		CHECK(chown(entry(a, ".so"), NOBODY, NOBODY) == 0);
		again = load(m, "inc", -1, "belongs to user 65534");
		CHECK(!again);
		CHECK(stat(entry(a, ".so"), &st) == 0 && st.st_uid == NOBODY);
		CHECK(unlink(entry(a, ".so")) == 0);
	}
	/* a link planted at the object's name: refused, never followed */
	CHECK(symlink(entry(b, ".so"), entry(a, ".so")) == 0);
	again = load(m, "inc", -1, "is a symbolic link");
	CHECK(!again);
	CHECK(unlink(entry(a, ".so")) == 0);
}

static void test_directory(const struct ptx_module *m)
{
	char real[700];
	snprintf(real, sizeof real, "%s.real", jitdir);
	/* writable by others */
	CHECK(chmod(jitdir, 0777) == 0);
	CHECK(!load(m, "inc", -1, "writable by every user (mode 0777)"));
	CHECK(chmod(jitdir, 0700) == 0);
	/* a symbolic link to a directory of ours */
	CHECK(rename(jitdir, real) == 0 && symlink(real, jitdir) == 0);
	CHECK(!load(m, "inc", -1, "is a symbolic link"));
	CHECK(unlink(jitdir) == 0 && rename(real, jitdir) == 0);
	/* another user's directory (a planted cache) */
	if (geteuid() == 0) {
		CHECK(chown(jitdir, NOBODY, NOBODY) == 0);
		CHECK(!load(m, "inc", -1, "belongs to user 65534"));
		CHECK(chown(jitdir, 0, 0) == 0);
	}
	struct sim_jit *j = load(m, "inc", 0, NULL);
	CHECK(j != NULL);
	sim_jit_free(j);
}

static int count_temps(void)
{
	char cmd[800];
	snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '^%s'", jitdir, GL_SAFE_DIR_TEMP_PREFIX);
	FILE *p = popen(cmd, "r");
	int n = -1;
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void test_limits(const struct ptx_module *m)
{
	/* a compiler that never finishes: stopped at the limit, its temporary directory removed */
	FILE *f = fopen(tmp_path("slowcc"), "w");
	CHECK(f && fputs("#!/bin/sh\n[ \"$1\" = --version ] && { echo slowcc 1; exit 0; }\nsleep 30 & wait\n", f) >= 0 &&
	      fclose(f) == 0);
	CHECK(chmod(tmp_path("slowcc"), 0755) == 0);
	setenv("GPULAB_CC", tmp_path("slowcc"), 1);
	setenv("GPULAB_JIT_CC_TIMEOUT", "1", 1);
	double t0 = gl_now();
	CHECK(!load(m, "dbl", -1, "ran past its time limit of 1 s"));
	CHECK(gl_now() - t0 < 10);
	CHECK_EQ(count_temps(), 0);
	unsetenv("GPULAB_CC");
	unsetenv("GPULAB_JIT_CC_TIMEOUT");
	/* what an interrupted compile leaves is removed once it is old */
	char stale[800];
	snprintf(stale, sizeof stale, "%s/%sdead", jitdir, GL_SAFE_DIR_TEMP_PREFIX);
	CHECK(mkdir(stale, 0700) == 0);
	struct timeval old[2] = {{1000000, 0}, {1000000, 0}};
	CHECK(utimes(stale, old) == 0);
	struct sim_jit *j = load(m, "dbl", 0, NULL);
	sim_jit_free(j);
	CHECK_EQ(count_temps(), 0);
	/* a kernel past the size limit is not compiled */
	struct gl_str big = {0};
	gl_str_add(&big, ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry big()\n{\n	.reg .b32 %r<2>;\n");
	for (int i = 0; i < SIM_JIT_MAX_INSNS; i++)
		gl_str_add(&big, "	add.s32 %r1, %r1, 1;\n");
	gl_str_add(&big, "	ret;\n}\n");
	struct ptx_module *bm = fx_parse(big.buf, "big.ptx");
	gl_str_free(&big);
	if (bm)
		CHECK(!load(bm, "big", -1, "more than the 3000 the compiled engine compiles"));
	ptx_module_free(bm);
}

int main(void)
{
	if (system("cc --version >/dev/null 2>&1") != 0)
		return 77;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl-jit-cache-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 77;
	setenv("XDG_CACHE_HOME", tmpdir, 1);
	unsetenv("GPULAB_CC");
	snprintf(jitdir, sizeof jitdir, "%s/gpulab/jit", tmpdir);
	struct ptx_module *m = fx_parse(two_kernels, "two.ptx");
	if (m) {
		test_entries(m);
		test_directory(m);
		test_limits(m);
	}
	ptx_module_free(m);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	CHECK_DONE();
}
