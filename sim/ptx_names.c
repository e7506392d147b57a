/* ptx_names.c — string maps, register scopes and the constant pool. */
#include "ptx_names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static unsigned str_hash(const char *s, int len, int tag)
{
	uint32_t h = 2166136261u ^ (uint32_t)tag * 0x9E3779B1u; /* FNV-1a */
	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int key_is(const struct ptx_strkey *k, const char *s, int len, int tag)
{
	return k->len == len && k->tag == tag && memcmp(k->s, s, (size_t)len) == 0;
}

int ptx_strmap_find(const struct ptx_strmap *m, const char *s, int len, int tag)
{
	if (!m->nslots)
		return -1;
	unsigned mask = (unsigned)m->nslots - 1;
	for (unsigned h = str_hash(s, len, tag) & mask; m->slots[h] >= 0; h = (h + 1) & mask)
		if (key_is(&m->keys[m->slots[h]], s, len, tag))
			return m->slots[h];
	return -1;
}

static void strmap_place(struct ptx_strmap *m, int i)
{
	unsigned mask = (unsigned)m->nslots - 1;
	unsigned h = str_hash(m->keys[i].s, m->keys[i].len, m->keys[i].tag) & mask;
	while (m->slots[h] >= 0)
		h = (h + 1) & mask;
	m->slots[h] = i;
}

int ptx_strmap_add(struct ptx_strmap *m, const char *s, int len, int tag, int value)
{
	int i = ptx_strmap_find(m, s, len, tag);
	if (i >= 0)
		return i;
	if (2 * (m->n + 1) > m->nslots) { /* at most half full */
		free(m->slots);
		m->nslots = m->nslots ? 2 * m->nslots : 64;
		m->slots = gl_xmalloc((size_t)m->nslots * sizeof *m->slots);
		for (int k = 0; k < m->nslots; k++)
			m->slots[k] = -1;
		for (int k = 0; k < m->n; k++)
			strmap_place(m, k);
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 32;
		m->keys = gl_xrealloc(m->keys, (size_t)m->cap * sizeof *m->keys);
	}
	char *copy = gl_xmalloc((size_t)len + 1);
	memcpy(copy, s, (size_t)len);
	copy[len] = '\0';
	m->keys[m->n] = (struct ptx_strkey){copy, len, tag, value};
	strmap_place(m, m->n);
	return m->n++;
}

void ptx_strmap_free(struct ptx_strmap *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->keys[i].s);
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void ptx_names_push(struct ptx_names *t)
{
	t->depth++;
}

void ptx_names_pop(struct ptx_names *t)
{
	while (t->n > 0 && t->v[t->n - 1].depth >= t->depth) {
		const struct ptx_name *e = &t->v[--t->n];
		t->keys.keys[e->key].value = e->prev; /* the newest entry of its name: unshadow the previous one */
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
	int k = ptx_strmap_add(&t->keys, name, len, 0, -1);
	struct ptx_strkey *key = &t->keys.keys[k];
	t->v[t->n] = (struct ptx_name){key->s, slot, count, t->depth, type, k, key->value};
	key->value = t->n++;
}

int ptx_names_in_scope(const struct ptx_names *t, const char *name, int len, int range)
{
	int k = ptx_strmap_find(&t->keys, name, len, 0);
	for (int i = k >= 0 ? t->keys.keys[k].value : -1; i >= 0 && t->v[i].depth == t->depth; i = t->v[i].prev)
		if ((t->v[i].count > 0) == (range != 0))
			return 1;
	return 0;
}

/* The newest live entry named name[0..len) that is a single name (index < 0) or a range holding index. */
static int newest(const struct ptx_names *t, const char *name, int len, long index)
{
	int k = ptx_strmap_find(&t->keys, name, len, 0);
	for (int i = k >= 0 ? t->keys.keys[k].value : -1; i >= 0; i = t->v[i].prev)
		if (index < 0 ? t->v[i].count == 0 : index < t->v[i].count)
			return i;
	return -1;
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
	/* a single name and a range can both match ("%r1" and %r<2>): the newer declaration wins */
	int single = newest(t, name, len, -1);
	int range = index >= 0 ? newest(t, name, len - digits, index) : -1;
	int i = single > range ? single : range;
	if (i < 0)
		return -1;
	const struct ptx_name *e = &t->v[i];
	if (type)
		*type = e->type;
	return e->count == 0 ? e->slot : e->slot + (int)index;
}

void ptx_names_free(struct ptx_names *t)
{
	free(t->v);
	ptx_strmap_free(&t->keys);
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
