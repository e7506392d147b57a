/* ptx_names.h — parse-time tables: register names with brace scopes (`%r<37>` ranges and single names)
 * and interned constant slots (immediates and symbol addresses). */
#ifndef GL_PTX_NAMES_H
#define GL_PTX_NAMES_H

#include <stdint.h>

struct ptx_name {
	char *name;
	int slot;  /* first slot */
	int count; /* > 0: a range %r<count>, names %r0..%r{count-1}; 0: a single name */
	int depth;
	uint8_t type;
};

struct ptx_names {
	struct ptx_name *v;
	int n, cap, depth;
};

void ptx_names_push(struct ptx_names *t);
void ptx_names_pop(struct ptx_names *t);
void ptx_names_add(struct ptx_names *t, const char *name, int len, int slot, int count, uint8_t type);
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
