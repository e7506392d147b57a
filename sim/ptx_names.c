/* ptx_names.c — register scopes and the constant pool. */
#include "ptx_names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void ptx_names_push(struct ptx_names *t)
{
	t->depth++;
}

void ptx_names_pop(struct ptx_names *t)
{
	while (t->n > 0 && t->v[t->n - 1].depth >= t->depth) {
		free(t->v[t->n - 1].name);
		t->n--;
	}
	if (t->depth > 0)
		t->depth--;
}

void ptx_names_add(struct ptx_names *t, const char *name, int len, int slot, int count, uint8_t type)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->v = gl_xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
	}
	char *copy = gl_xmalloc((size_t)len + 1);
	memcpy(copy, name, (size_t)len);
	copy[len] = '\0';
	t->v[t->n++] = (struct ptx_name){copy, slot, count, t->depth, type};
}

static int same(const char *a, const char *b, int len)
{
	return (int)strlen(a) == len && memcmp(a, b, (size_t)len) == 0;
}

int ptx_names_lookup(const struct ptx_names *t, const char *name, int len, uint8_t *type)
{
	/* split "%rd12" into prefix "%rd" and index 12 for range lookups */
	int digits = 0;
	while (digits < len && isdigit((unsigned char)name[len - 1 - digits]))
		digits++;
	long index = -1;
	if (digits > 0 && digits < 10 && digits < len) {
		index = 0;
		for (int i = len - digits; i < len; i++)
			index = index * 10 + (name[i] - '0');
	}
	for (int i = t->n - 1; i >= 0; i--) {
		const struct ptx_name *e = &t->v[i];
		int hit = e->count == 0 ? same(e->name, name, len)
					: index >= 0 && index < e->count && same(e->name, name, len - digits);
		if (hit) {
			if (type)
				*type = e->type;
			return e->count == 0 ? e->slot : e->slot + (int)index;
		}
	}
	return -1;
}

void ptx_names_free(struct ptx_names *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof *t);
}

static unsigned hash_of(uint64_t v, int var)
{
	uint64_t h = (v ^ ((uint64_t)(unsigned)var << 40)) * 0x9E3779B97F4A7C15ull;
	return (unsigned)(h >> 32);
}

static void rehash(struct ptx_consts *c)
{
	free(c->hash);
	c->hcap = c->hcap ? 2 * c->hcap : 64;
	c->hash = gl_xmalloc((size_t)c->hcap * sizeof *c->hash);
	for (int i = 0; i < c->hcap; i++)
		c->hash[i] = -1;
	for (int i = 0; i < c->n; i++) {
		unsigned h = hash_of(c->value[i], c->var[i]) & (unsigned)(c->hcap - 1);
		while (c->hash[h] >= 0)
			h = (h + 1) & (unsigned)(c->hcap - 1);
		c->hash[h] = i;
	}
}

int ptx_const_intern(struct ptx_consts *c, uint64_t value, int var)
{
	if (2 * (c->n + 1) > c->hcap)
		rehash(c);
	unsigned h = hash_of(value, var) & (unsigned)(c->hcap - 1);
	for (; c->hash[h] >= 0; h = (h + 1) & (unsigned)(c->hcap - 1)) {
		int i = c->hash[h];
		if (c->value[i] == value && c->var[i] == var)
			return i;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->value = gl_xrealloc(c->value, (size_t)c->cap * sizeof *c->value);
		c->var = gl_xrealloc(c->var, (size_t)c->cap * sizeof *c->var);
	}
	c->value[c->n] = value;
	c->var[c->n] = var;
	c->hash[h] = c->n;
	return c->n++;
}

void ptx_consts_free(struct ptx_consts *c)
{
	free(c->value);
	free(c->var);
	free(c->hash);
	memset(c, 0, sizeof *c);
}
