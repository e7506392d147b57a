/* keyed_cache.c — texts kept across processes under a key (keyed_cache.h): the entry format, its checks
 * on load, and the folder and files through common/safe_dir.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "keyed_cache.h"
#include "safe_dir.h"
#include "sha256.h"
#include "util.h"

#define KEYED_CACHE_MAX (256u << 20) /* bigger entries are not cached (nor read back) */

/* The cache's folder (gl_cache_dir), created if missing and checked through common/safe_dir.h (ours, not a
 * link, not writable by others); false when there is none we may use, said with verbose. */
static bool cache_dir(const struct gl_keyed_cache *c, struct gl_safe_dir *d, bool verbose)
{
	char dir[4096], what[96];
	struct gl_err err = {0};
	d->fd = -1;
	if (gl_cache_dir(c->folder, dir, sizeof dir) != 0)
		return false;
	snprintf(what, sizeof what, "the %s", c->what);
	if (gl_safe_dir_open(d, dir, GL_SAFE_DIR_CREATE, what, &err) == GL_OK)
		return true;
	if (verbose)
		fprintf(stderr, "gpulab: %s not used: %s\n", c->what, err.msg);
	return false;
}

static void checksum(const char *data, size_t len, char hex[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	gl_sha256_add(&h, data, len);
	gl_sha256_hex(&h, hex);
}

/* The text of an entry's bytes when its header is "MAGIC KEY LENGTH SHA256" for this magic and key and what
 * follows has that length and checksum and no NUL byte; NULL otherwise. */
static char *entry_text(const struct gl_keyed_cache *c, const char *raw, size_t len, const char *key)
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
	if (strcmp(magic, c->magic) != 0 || strcmp(k, key) != 0 || n != blen || memchr(body, '\0', blen))
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

char *gl_keyed_cache_load(const struct gl_keyed_cache *c, const char *key, bool verbose)
{
	struct gl_safe_dir d;
	if (strlen(key) != 64 || !cache_dir(c, &d, verbose))
		return NULL;
	char name[96], *raw = NULL, *text = NULL;
	size_t len = 0;
	struct gl_err err = {0};
	snprintf(name, sizeof name, "%s.%s", key, c->suffix);
	int rc = gl_safe_dir_read(&d, name, KEYED_CACHE_MAX + 256u, &raw, &len, &err);
	if (rc == GL_OK)
		text = entry_text(c, raw, len, key);
	free(raw);
	if (verbose && rc != GL_EUSAGE) /* GL_EUSAGE: no entry yet, an ordinary miss */
		fprintf(stderr, "gpulab: %s: %s %s/%s\n", c->what, text ? "hit" : "unusable entry, ignored:", d.path, name);
	gl_safe_dir_close(&d);
	return text;
}

void gl_keyed_cache_store(const struct gl_keyed_cache *c, const char *key, const char *text, bool verbose)
{
	size_t len = strlen(text);
	struct gl_safe_dir d;
	if (strlen(key) != 64 || len == 0 || len > KEYED_CACHE_MAX || !cache_dir(c, &d, verbose))
		return;
	char name[96], sum[65], head[256];
	checksum(text, len, sum);
	int hlen = snprintf(head, sizeof head, "%s %s %zu %s\n", c->magic, key, len, sum);
	char *entry = malloc((size_t)hlen + len);
	struct gl_err err = {0};
	int rc = GL_EENV;
	snprintf(name, sizeof name, "%s.%s", key, c->suffix);
	if (entry) {
		memcpy(entry, head, (size_t)hlen);
		memcpy(entry + hlen, text, len);
		rc = gl_safe_dir_write(&d, name, entry, (size_t)hlen + len, &err);
	}
	free(entry);
	if (verbose)
		fprintf(stderr, "gpulab: %s: %s %s/%s\n", c->what, rc == GL_OK ? "stored" : "could not store", d.path, name);
	gl_safe_dir_close(&d);
}
