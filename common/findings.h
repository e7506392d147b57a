/* findings.h — sanitizer findings as the simulator reports them and the store keeps them, and the set
 * that deduplicates them: one entry per (kind, PTX line) with an occurrence count and the first few
 * block/thread coordinates, as compute-sanitizer does.  Memory stays bounded: a set keeps at most
 * `limit` distinct findings and only counts the occurrences of any further ones. */
#ifndef GL_FINDINGS_H
#define GL_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#define GL_FINDING_SAMPLES     4    /* block/thread coordinates kept per distinct finding */
#define GL_FINDINGS_MAX        1024 /* distinct findings kept per launch */
#define GL_PRINT_LIMIT_DEFAULT 100  /* distinct findings printed unless --print-limit says otherwise */

/* compute-sanitizer's tools: which checks run (bit mask; 0 in options means all). */
enum {
	GL_TOOL_MEMCHECK = 1,  /* out-of-bounds, misaligned */
	GL_TOOL_RACECHECK = 2, /* shared and global races, reads of in-flight cp.async data */
	GL_TOOL_INITCHECK = 4, /* uninitialised shared-memory reads */
	GL_TOOL_SYNCCHECK = 8, /* barrier divergence */
	GL_TOOL_ALL = 15,
};

struct gl_finding_site {
	unsigned block[3], thread[3];
};

struct gl_finding {
	char kind[24];    /* out-of-bounds, misaligned, race, barrier-divergence, deadlock, budget, uninit ... */
	char space[8];    /* global, shared, local, "" */
	bool warning;     /* warnings do not fail a run */
	uint64_t address; /* of the first occurrence */
	unsigned size;
	unsigned block[3], thread[3]; /* the first occurrence */
	int line;                     /* PTX line */
	int src_line;                 /* CUDA line when the PTX has .loc */
	char src_file[160];           /* its file, from the PTX's .file directives ("" when unknown) */
	char message[256];            /* the first occurrence's */
	long count;                   /* occurrences */
	int nsamples;                 /* distinct coordinates of the first occurrences, the first one included */
	struct gl_finding_site samples[GL_FINDING_SAMPLES];
};

struct gl_findings {
	struct gl_finding *items; /* distinct findings, in the order first seen */
	int n, cap;
	int limit;  /* most distinct findings kept */
	int *index; /* open-addressing hash of (kind, line) -> item + 1; NULL until needed */
	unsigned index_size;
	long occurrences; /* every occurrence, kept or dropped */
	long errors;      /* occurrences that are errors (not warnings), kept or dropped */
	long dropped;     /* occurrences of distinct findings beyond `limit` */
};

void gl_findings_init(struct gl_findings *s, int limit);
/* Forget every finding but keep the memory (for the next CTA). */
void gl_findings_clear(struct gl_findings *s);
void gl_findings_free(struct gl_findings *s);

/* Record one occurrence of (kind, line).  Returns its entry with count and samples updated; *fresh
 * tells that the entry is new and its details (space, address, size, message ...) are for the caller
 * to fill.  NULL when the set is full and the occurrence was only counted. */
struct gl_finding *gl_findings_note(struct gl_findings *s, const char *kind, int line, bool warning,
                                    const unsigned block[3], const unsigned thread[3], bool *fresh);

/* Add every finding of `from` (counts, samples, dropped occurrences) to `into`, as if its occurrences
 * had come after those already in `into`.  Merging CTAs in grid order gives the same set for any
 * number of worker threads. */
void gl_findings_merge(struct gl_findings *into, const struct gl_findings *from);

/* Errors before warnings, each in the order first seen (stable). */
void gl_findings_order(struct gl_findings *s);

/* The tool that reports a kind (GL_TOOL_*), or 0 for budget, assert, trap and unsupported. */
int gl_finding_tool(const char *kind);
/* Is a finding of `kind` reported when the tools in `tools` run?  Findings that stop the launch
 * (synccheck's, budget, assert, trap, unsupported) always are: an aborted launch says why. */
bool gl_finding_selected(const char *kind, int tools);
const char *gl_tool_name(int tool);
/* "memcheck", "racecheck", "initcheck", "synccheck" or "all", comma-separated: a GL_TOOL_* mask, or -1. */
int gl_tool_parse(const char *text);

#endif
