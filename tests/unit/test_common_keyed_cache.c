/* test_common_keyed_cache.c — texts kept across processes under a key (common/keyed_cache.h): a stored
 * text comes back under its key only; an entry whose header names another key or magic, whose length or
 * checksum does not match its bytes, or that holds a NUL is a miss; keys that are not 64 characters are
 * neither stored nor read; the folder and entries are private (0700, 0600), and a folder writable by
 * others is not used. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/keyed_cache.h"
#include "tests/unit/check.h"
#include "tests/unit/tmp_fixture.h"

static const struct gl_keyed_cache cache = {"ptxas", "ptxas", "gpulab-ptxas 1", "test cache"};
static const char key[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
static const char other[] = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

static const char *entry_path(const char *k)
{
	static char path[600];
	snprintf(path, sizeof path, "%s/gpulab/ptxas/%s.ptxas", tmpdir, k);
	return path;
}

/* Replace the entry of `k` with exactly these bytes. */
static void plant(const char *k, const char *bytes, size_t n)
{
	unlink(entry_path(k));
	int fd = open(entry_path(k), O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && write(fd, bytes, n) == (ssize_t)n);
	close(fd);
}

static void test_round_trip(void)
{
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL); /* nothing yet */
	gl_keyed_cache_store(&cache, key, "Used 8 registers\n", false);
	char *text = gl_keyed_cache_load(&cache, key, false);
	CHECK_STR(text, "Used 8 registers\n");
	free(text);
	CHECK(gl_keyed_cache_load(&cache, other, false) == NULL);
	size_t n;
	char *raw = slurp(entry_path(key), &n), head[200];
	snprintf(head, sizeof head, "gpulab-ptxas 1 %s 17 ", key);
	CHECK(raw && strncmp(raw, head, strlen(head)) == 0 && strstr(raw, "\nUsed 8 registers\n"));
	free(raw);
	struct stat st;
	CHECK(stat(entry_path(key), &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(stat(tmp_path("gpulab/ptxas"), &st) == 0 && (st.st_mode & 0777) == 0700);
	/* another kind of cache in the same folder does not take this entry */
	struct gl_keyed_cache sass = cache;
	sass.magic = "gpulab-sass 1";
	CHECK(gl_keyed_cache_load(&sass, key, false) == NULL);
	/* keys of another length are refused both ways */
	gl_keyed_cache_store(&cache, "short", "x", false);
	CHECK(gl_keyed_cache_load(&cache, "short", false) == NULL);
	CHECK(access(entry_path("short"), F_OK) != 0);
}

static void test_bad_entries(void)
{
	char good[512];
	/* sha256("abc") */
	const char *sum = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	int n = snprintf(good, sizeof good, "gpulab-ptxas 1 %s 3 %s\nabc", key, sum);
	plant(key, good, (size_t)n);
	char *text = gl_keyed_cache_load(&cache, key, false);
	CHECK_STR(text, "abc");
	free(text);
	n = snprintf(good, sizeof good, "gpulab-ptxas 1 %s 3 %s\nabd", key, sum); /* changed byte */
	plant(key, good, (size_t)n);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL);
	n = snprintf(good, sizeof good, "gpulab-ptxas 1 %s 4 %s\nabc", key, sum); /* wrong length */
	plant(key, good, (size_t)n);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL);
	n = snprintf(good, sizeof good, "gpulab-ptxas 1 %s 3 %s\nabc", other, sum); /* another key's */
	plant(key, good, (size_t)n);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL);
	plant(key, "no header at all", 16);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL);
	/* a symbolic link at the entry's name is not followed */
	unlink(entry_path(key));
	CHECK(symlink("/etc/passwd", entry_path(key)) == 0);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL);
	/* storing replaces the link, never writes through it */
	gl_keyed_cache_store(&cache, key, "fresh", false);
	text = gl_keyed_cache_load(&cache, key, false);
	CHECK_STR(text, "fresh");
	free(text);
	struct stat st;
	CHECK(lstat(entry_path(key), &st) == 0 && S_ISREG(st.st_mode));
}

static void test_open_folder(void)
{
	CHECK(chmod(tmp_path("gpulab/ptxas"), 0777) == 0);
	CHECK(gl_keyed_cache_load(&cache, key, false) == NULL); /* not used, whatever it holds */
	CHECK(chmod(tmp_path("gpulab/ptxas"), 0700) == 0);
	char *text = gl_keyed_cache_load(&cache, key, false);
	CHECK_STR(text, "fresh");
	free(text);
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/gl-keyed-cache-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 77;
	setenv("XDG_CACHE_HOME", tmpdir, 1);
	test_round_trip();
	test_bad_entries();
	test_open_folder();
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	CHECK_DONE();
}
