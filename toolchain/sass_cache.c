/* sass_cache.c — ptxas and nvdisasm once: the SASS text `gpulab sim` gets for a PTX file is kept under
 * $XDG_CACHE_HOME/gpulab/sass (~/.cache/gpulab/sass), so running the same PTX again skips both tools
 * (their run is most of a small launch's time: 0.4 s for a small kernel, seconds for a module of many).
 *
 * The key (sass.c) hashes everything the text depends on: the PTX bytes, each tool's path and
 * `--version` text, the target and the flags.  An entry KEY.sass holds one header line,
 * "gpulab-sass 1 KEY LENGTH SHA256", and then the text.  It is read back as untrusted input: only from a
 * directory that is ours and private (not a link, no group or other write), only a regular file of
 * ours opened without following links, and only when the header names this key and the bytes that
 * follow have that length and checksum; anything else is a miss, and the tools run again.  An entry is
 * written to a new file made with O_CREAT|O_EXCL|O_NOFOLLOW beside it and renamed into place, so a
 * reader never sees half of one.  No usable cache directory only means the tools run every time. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sha256.h"
#include "common/util.h"
#include "toolchain/toolchain.h"

#define SASS_CACHE_MAGIC "gpulab-sass 1"
#define SASS_CACHE_MAX (256u << 20) /* bigger entries are not cached (nor read back) */

/* A directory that is ours and private: not a link, owned by us, no write for group or others. */
static bool private_dir(const char *dir)
{
	struct stat st;
	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022);
}

/* gpulab's cache folder "sass" (gl_cache_dir) when it and the gpulab folder above it are ours and private;
 * false when there is none we may use. */
static bool cache_dir(char *dir, size_t n)
{
	if (gl_cache_dir("sass", dir, n) != 0)
		return false;
	char gl[4200];
	snprintf(gl, sizeof gl, "%s", dir);
	char *slash = strrchr(gl, '/');
	if (slash)
		*slash = '\0';
	return private_dir(gl) && private_dir(dir);
}

static void checksum(const char *data, size_t len, char hex[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	gl_sha256_add(&h, data, len);
	gl_sha256_hex(&h, hex);
}

/* The whole of an open regular file of ours, at most SASS_CACHE_MAX bytes; NULL otherwise. */
static char *read_own_file(int fd, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_size <= 0 ||
	    (unsigned long long)st.st_size > SASS_CACHE_MAX + 256u)
		return NULL;
	char *buf = malloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (buf && got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (!buf || got != (size_t)st.st_size) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* The text of an entry's bytes when its header is "MAGIC KEY LENGTH SHA256" for this key and what follows
 * has that length and checksum and no NUL byte; NULL otherwise. */
static char *entry_text(const char *raw, size_t len, const char *key)
{
	const char *nl = memchr(raw, '\n', len < 256 ? len : 256);
	char magic_a[16], magic_b[16], k[65], sum[65], now[65];
	unsigned long long n;
	if (!nl || sscanf(raw, "%15s %15s %64s %llu %64s", magic_a, magic_b, k, &n, sum) != 5)
		return NULL;
	char magic[40];
	snprintf(magic, sizeof magic, "%s %s", magic_a, magic_b);
	const char *body = nl + 1;
	size_t blen = len - (size_t)(body - raw);
	if (strcmp(magic, SASS_CACHE_MAGIC) != 0 || strcmp(k, key) != 0 || n != blen || memchr(body, '\0', blen))
		return NULL;
	checksum(body, blen, now);
	if (strcmp(now, sum) != 0)
		return NULL;
	char *text = malloc(blen + 1);
	if (text) {
		memcpy(text, body, blen);
		text[blen] = '\0';
	}
	return text;
}

char *gl_sasscache_load(const char *key, bool verbose)
{
	char dir[4200], path[4400];
	if (!cache_dir(dir, sizeof dir))
		return NULL;
	snprintf(path, sizeof path, "%s/%s.sass", dir, key);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t len = 0;
	char *raw = read_own_file(fd, &len);
	close(fd);
	char *text = raw ? entry_text(raw, len, key) : NULL;
	free(raw);
	if (verbose)
		fprintf(stderr, "gpulab: SASS cache: %s %s\n", text ? "hit" : "unusable entry, ignored:", path);
	return text;
}

/* Write `data` to dir/name: a new file of ours (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600) under a temporary
 * name in the same private directory, renamed into place.  0, or -1 with nothing left behind. */
static int write_new_file(const char *dir, const char *name, const char *head, const char *data, size_t len)
{
	char tmp[4400], path[4400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	bool ok = fputs(head, f) >= 0 && fwrite(data, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void gl_sasscache_store(const char *key, const char *text, bool verbose)
{
	char dir[4200], name[80], sum[65], head[256];
	size_t len = strlen(text);
	if (len == 0 || len > SASS_CACHE_MAX || !cache_dir(dir, sizeof dir))
		return;
	checksum(text, len, sum);
	snprintf(head, sizeof head, "%s %s %zu %s\n", SASS_CACHE_MAGIC, key, len, sum);
	snprintf(name, sizeof name, "%s.sass", key);
	int rc = write_new_file(dir, name, head, text, len);
	if (verbose)
		fprintf(stderr, "gpulab: SASS cache: %s %s/%s\n", rc ? "could not store" : "stored", dir, name);
}
