/* sass_cache.c — ptxas and nvdisasm once: the SASS text `gpulab sim` gets for a PTX file is kept under
 * $XDG_CACHE_HOME/gpulab/sass (~/.cache/gpulab/sass), so running the same PTX again skips both tools
 * (their run is most of a small launch's time: 0.4 s for a small kernel, seconds for a module of many).
 *
 * The key (sass.c) hashes everything the text depends on: the PTX bytes, each tool's path and
 * `--version` text, the target and the flags.  An entry KEY.sass holds one header line,
 * "gpulab-sass 1 KEY LENGTH SHA256", and then the text.  The directory and its files go through
 * common/safe_dir.h like every cache of gpulab's (ours and private, regular files of ours read without
 * following links, new files made O_CREAT|O_EXCL|O_NOFOLLOW and renamed in), and an entry is used only
 * when its header names this key and the bytes that follow have that length and checksum; anything else
 * is a miss, and the tools run again.  No usable cache directory only means the tools run every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/safe_dir.h"
#include "common/sha256.h"
#include "common/util.h"
#include "toolchain/toolchain.h"

#define SASS_CACHE_MAGIC "gpulab-sass 1"
#define SASS_CACHE_MAX (256u << 20) /* bigger entries are not cached (nor read back) */

/* gpulab's cache folder "sass" (gl_cache_dir), created if missing and checked through common/safe_dir.h
 * (ours, not a link, not writable by others); false when there is none we may use, said with -v. */
static bool cache_dir(struct gl_safe_dir *d, bool verbose)
{
	char dir[4096];
	struct gl_err err = {0};
	d->fd = -1;
	if (gl_cache_dir("sass", dir, sizeof dir) != 0)
		return false;
	if (gl_safe_dir_open(d, dir, GL_SAFE_DIR_CREATE, "the SASS cache", &err) == GL_OK)
		return true;
	if (verbose)
		fprintf(stderr, "gpulab: SASS cache not used: %s\n", err.msg);
	return false;
}

static void checksum(const char *data, size_t len, char hex[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	gl_sha256_add(&h, data, len);
	gl_sha256_hex(&h, hex);
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
	struct gl_safe_dir d;
	if (!cache_dir(&d, verbose))
		return NULL;
	char name[80], *raw = NULL, *text = NULL;
	size_t len = 0;
	struct gl_err err = {0};
	snprintf(name, sizeof name, "%s.sass", key);
	int rc = gl_safe_dir_read(&d, name, SASS_CACHE_MAX + 256u, &raw, &len, &err);
	if (rc == GL_OK)
		text = entry_text(raw, len, key);
	free(raw);
	if (verbose && rc != GL_EUSAGE) /* GL_EUSAGE: no entry yet, an ordinary miss */
		fprintf(stderr, "gpulab: SASS cache: %s %s/%s\n", text ? "hit" : "unusable entry, ignored:", d.path, name);
	gl_safe_dir_close(&d);
	return text;
}

void gl_sasscache_store(const char *key, const char *text, bool verbose)
{
	size_t len = strlen(text);
	struct gl_safe_dir d;
	if (len == 0 || len > SASS_CACHE_MAX || !cache_dir(&d, verbose))
		return;
	char name[80], sum[65], head[256];
	checksum(text, len, sum);
	int hlen = snprintf(head, sizeof head, "%s %s %zu %s\n", SASS_CACHE_MAGIC, key, len, sum);
	char *entry = malloc((size_t)hlen + len);
	struct gl_err err = {0};
	int rc = GL_EENV;
	if (entry) {
		memcpy(entry, head, (size_t)hlen);
		memcpy(entry + hlen, text, len);
		snprintf(name, sizeof name, "%s.sass", key);
		rc = gl_safe_dir_write(&d, name, entry, (size_t)hlen + len, &err);
	}
	free(entry);
	if (verbose)
		fprintf(stderr, "gpulab: SASS cache: %s %s/%s.sass\n", rc == GL_OK ? "stored" : "could not store", d.path, key);
	gl_safe_dir_close(&d);
}
