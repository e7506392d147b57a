/* ptxas.h — reading what `ptxas -v` prints about each entry: for a kernel NAME,
 * "Compiling entry function 'NAME' for 'sm_XX'", then "N bytes stack frame, S bytes spill stores,
 * L bytes spill loads" and "Used R registers, ... B bytes smem".  Used for the embedded topics'
 * resource tables (kernels/harness.c) and by the driver library for a program's kernels. */
#ifndef GL_PTXAS_H
#define GL_PTXAS_H

struct gl_ptxas_usage {
	int regs, static_smem, spill_stores, spill_loads, stack; /* -1 when ptxas said nothing */
};

/* The usage of `entry` in ptxas -v output `text` (NULL: none). */
void gl_ptxas_usage(const char *text, const char *entry, struct gl_ptxas_usage *out);

#endif
