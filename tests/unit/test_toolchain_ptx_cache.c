/* test_toolchain_ptx_cache.c — the nvcc cache (toolchain/ptx_cache.c) goes through common/safe_dir.h like
 * every directory another user might write: it is created 0700 and used; a cache directory that is a
 * symbolic link, another user's or writable by others is not used (nvcc runs, nothing is written there);
 * a link planted at an entry's name is replaced by a file, its target never read nor written.  Skipped
 * (77) without nvcc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "toolchain/toolchain.h"

static char base[] = "/tmp/gl_test_ptx_cache_XXXXXX";
static char src[160], dir[200], elsewhere[160];

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, fmt, a, b);
	return system(cmd);
}

/* The PTX of src through the cache: it must always be nvcc's PTX of the kernel. */
static void compile_ok(void)
{
	struct gl_nvcc_opts nv = {0};
	struct gl_err err = {0};
	char *ptx = NULL;
	CHECK_EQ(gl_simcache_compile(src, &nv, &ptx, &err), GL_OK);
	CHECK(ptx && strstr(ptx, ".entry _Z4fillPf") != NULL);
	free(ptx);
}

/* Whether directory `d` holds no entry. */
static bool empty(const char *d)
{
	return sh("test -z \"$(ls -A '%s')\"%s", d, "") == 0;
}

int main(void)
{
	const char *nvcc = gl_nvcc_path();
	if (!mkdtemp(base) || sh("command -v '%s' >/dev/null 2>&1 || test -x '%s'", nvcc, nvcc) != 0) {
		fprintf(stderr, "no nvcc: skipped\n");
		return 77;
	}
	snprintf(src, sizeof src, "%s/fill.cu", base);
	snprintf(dir, sizeof dir, "%s/cache/gpulab/ptx", base);
	snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", base);
	FILE *f = fopen(src, "w");
	fputs("__global__ void fill(float *y) { y[threadIdx.x] = 1.0f; }\n", f);
	fclose(f);
	CHECK(mkdir(elsewhere, 0700) == 0);
	char cache[180];
	snprintf(cache, sizeof cache, "%s/cache", base);
	setenv("XDG_CACHE_HOME", cache, 1);

	/* made 0700 and used: one PTX entry */
	compile_ok();
	struct stat st;
	CHECK(lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
	CHECK(sh("test \"$(ls '%s' | grep -c '\\.ptx$')\" = 1%s", dir, "") == 0);

	/* a link planted at the entry's name: replaced by a file, its target untouched */
	CHECK(sh("echo 'not PTX' > '%s/other.txt' && for p in '%s'/*.ptx; do ln -sf ../../../elsewhere/other.txt \"$p\"; done",
		 elsewhere, dir) == 0);
	compile_ok();
	CHECK(sh("for p in '%s'/*.ptx; do test -f \"$p\" && ! test -L \"$p\" || exit 1; done%s", dir, "") == 0);
	CHECK(sh("test \"$(cat '%s/other.txt')\" = 'not PTX'%s", elsewhere, "") == 0);
	CHECK(sh("rm -f '%s/other.txt'%s", elsewhere, "") == 0);

	/* the cache directory is a link: not used, nothing written where it points */
	CHECK(sh("rm -rf '%s'%s", dir, "") == 0 && symlink(elsewhere, dir) == 0);
	compile_ok();
	CHECK(empty(elsewhere));

	/* another user's directory: not used */
	if (geteuid() == 0) {
		CHECK(sh("rm -f '%s' && mkdir -m 0700 '%s'", dir, dir) == 0);
		CHECK(sh("chown 65534:65534 '%s'%s", dir, "") == 0);
		compile_ok();
		CHECK(empty(dir));
	}
	/* one others may write: not used */
	CHECK(sh("rm -rf '%s' && mkdir -m 0777 '%s'", dir, dir) == 0 && sh("chmod 0777 '%s'%s", dir, "") == 0);
	compile_ok();
	CHECK(empty(dir));

	if (sh("rm -rf '%s'%s", base, "") != 0)
		fprintf(stderr, "could not remove %s\n", base);
	CHECK_DONE();
}
