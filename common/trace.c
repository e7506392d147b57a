/* trace.c — names of trace spaces and operations, as stored in the database. */
#include "trace.h"

#include <string.h>

static const char *const spaces[] = {"global", "shared", "local", "warp", "cta"};
static const char *const ops[] = {"ld", "st", "atom", "cp.async", "ldmatrix", "shfl", "bar"};
#define NSPACES ((int)(sizeof spaces / sizeof spaces[0]))
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

const char *gl_trace_space_name(int space)
{
	return space >= 0 && space < NSPACES ? spaces[space] : "?";
}

const char *gl_trace_op_name(int op)
{
	return op >= 0 && op < NOPS ? ops[op] : "?";
}

int gl_trace_space_parse(const char *name)
{
	for (int i = 0; i < NSPACES; i++)
		if (strcmp(spaces[i], name) == 0)
			return i;
	return -1;
}

int gl_trace_op_parse(const char *name)
{
	for (int i = 0; i < NOPS; i++)
		if (strcmp(ops[i], name) == 0)
			return i;
	return -1;
}
