/* sass_map.h — what ptxas made of each PTX memory access, read from nvdisasm's PTX line info
 * (`ptxas -lineinfo` then `nvdisasm -gp`: every SASS instruction names the PTX line it came from).
 * ptxas merges neighbouring scalar ld/st into vector ones (four ld.shared.f32 -> one LDS.128), splits,
 * duplicates or removes them; the simulator counts what the SASS executes (docs/sim.md). */
#ifndef GL_SASS_MAP_H
#define GL_SASS_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "ptx.h"
#include "sim.h" /* SASS_HEADER */

enum sass_space { SASS_GLOBAL, SASS_SHARED, SASS_LOCAL, SASS_GENERIC, SASS_NSPACES };

/* One SASS ld/st (LDG/STG, LDS/STS, LDL/STL, LD/ST). */
struct sass_access {
	int line;          /* PTX line */
	uint8_t space;     /* enum sass_space */
	bool store;
	uint8_t width;     /* bytes: 1, 2, 4, 8, 16 */
};

struct sass_func {
	char *name;
	struct sass_access *acc;
	int nacc;
	int *lines;        /* PTX line of every SASS instruction that can execute (no NOP, no final self-branch) */
	int ninsn;
	bool ptx_lines;    /* the line info names PTX lines (.nv_debug_ptx_txt) */
	int regs;          /* registers per thread ptxas allocated (.sectioninfo SHI_REGISTERS), 0 unknown */
};

struct sass_text {
	struct sass_func *fns;
	int nfns;
	char tool[64];     /* "ptxas 13.0" from the header, or "" */
};

/* Parse nvdisasm -gp output (with or without gpulab's header line). */
int sass_parse(const char *text, struct sass_text *out, struct gl_err *err);
void sass_text_free(struct sass_text *s);
const struct sass_func *sass_find(const struct sass_text *s, const char *name);
/* "LDS.U.128" -> space/store/width; false for anything that is not a plain ld/st. */
bool sass_classify(const char *opcode, struct sass_access *out);

/* Derive fn->sass for every function of `m` that the SASS holds and set m->counts_mode.  Problems that
 * leave accesses unattributed do not fail: they are counted in *unmapped (may be NULL) and named in
 * `problem` (the first one), and those accesses are counted as PTX. */
void sass_map_apply(struct ptx_module *m, const struct sass_text *s, int *unmapped, char *problem, size_t n);
/* No SASS: counts are PTX-level, for the reason given ("nvdisasm not found"). */
void sass_map_ptx_level(struct ptx_module *m, const char *why);

/* Static SASS ld/st counts by space, direction and width (index: 0..4 for 1, 2, 4, 8, 16 bytes). */
struct sass_counts {
	unsigned n[SASS_NSPACES][2][5];
};
/* Counted from the SASS text itself. */
void sass_counts_of_sass(const struct sass_func *f, struct sass_counts *c);
/* What the mapping the simulator applies assumes ptxas emitted for `fn`. */
void sass_counts_of_map(const struct ptx_function *fn, struct sass_counts *c);
const char *sass_space_name(enum sass_space s);

/* Is this PTX instruction a ld/st the mapping covers (global, shared, local or generic)? */
bool sass_ptx_ldst(const struct ptx_insn *ins);

#endif
