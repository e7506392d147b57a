/* trace.c — names of trace spaces and operations, as stored in the database. */
#include "trace.h"

#include <string.h>

static const char *const spaces[] = {"global", "shared", "local"};
static const char *const ops[] = {"ld", "st", "atom", "cp.async", "ldmatrix"};

const char *gl_trace_space_name(int space)
{
	return space >= 0 && space < 3 ? spaces[space] : "?";
}

const char *gl_trace_op_name(int op)
{
	return op >= 0 && op < 5 ? ops[op] : "?";
}

int gl_trace_space_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(spaces[i], name) == 0)
			return i;
	return -1;
}

int gl_trace_op_parse(const char *name)
{
	for (int i = 0; i < 5; i++)
		if (strcmp(ops[i], name) == 0)
			return i;
	return -1;
}
