/* ptx_names.h — parse-time tables: register names with brace scopes (`%r<37>` ranges and single names),
 * string maps (labels, symbols, functions) and interned constant slots (immediates and symbol addresses). */
#ifndef GL_PTX_NAMES_H
#define GL_PTX_NAMES_H

#include <stdint.h>

/* A string plus an integer tag (a block id, or 0) -> int map; keys are copied.  Lookups are O(1), so
 * labels, symbols and functions resolve in linear time however many a module has. */
struct ptx_strkey {
	char *s;
	int len, tag;
	int value;
};

struct ptx_strmap {
	struct ptx_strkey *keys;
	int n, cap;
	int *slots; /* open addressing over keys; -1 empty */
	int nslots;
};

/* Index of the key, or -1. */
int ptx_strmap_find(const struct ptx_strmap *m, const char *s, int len, int tag);
/* Index of the key, added with `value` when new (an existing key keeps its value). */
int ptx_strmap_add(struct ptx_strmap *m, const char *s, int len, int tag, int value);
void ptx_strmap_free(struct ptx_strmap *m);

struct ptx_name {
	const char *name; /* the key's string */
	int slot;  /* first slot */
	int count; /* > 0: a range %r<count>, names %r0..%r{count-1}; 0: a single name */
	int depth;
	uint8_t type;
	int key;   /* in ptx_names.keys */
	int prev;  /* the entry this one shadows (same name, outer or earlier), or -1 */
};

/* Declarations in brace scopes: a stack of entries, and per name the newest entry (keys[k].value). */
struct ptx_names {
	struct ptx_name *v;
	int n, cap, depth;
	struct ptx_strmap keys;
};

void ptx_names_push(struct ptx_names *t);
void ptx_names_pop(struct ptx_names *t);
void ptx_names_add(struct ptx_names *t, const char *name, int len, int slot, int count, uint8_t type);
/* Whether the innermost scope already declares this single name (range: this range prefix). */
int ptx_names_in_scope(const struct ptx_names *t, const char *name, int len, int range);
/* Slot of a register name, or -1; `type` gets its declared type. */
int ptx_names_lookup(const struct ptx_names *t, const char *name, int len, uint8_t *type);
void ptx_names_free(struct ptx_names *t);

/* Constants: value plus an optional variable whose address must be added at layout time. */
struct ptx_consts {
	uint64_t *value;
	int *var;         /* -1 none, else index into the function's var refs (see ptx_parse.c) */
	int n, cap;
	int *hash;        /* open addressing over (value, var) */
	int hcap;
};

int ptx_const_intern(struct ptx_consts *c, uint64_t value, int var);
void ptx_consts_free(struct ptx_consts *c);

#endif
