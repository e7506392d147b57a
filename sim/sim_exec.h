/* sim_exec.h — the executors the dispatcher in sim_exec.c calls, one family per file; what they share is
 * the interpreter core (sim_core.h). */
#ifndef GL_SIM_EXEC_H
#define GL_SIM_EXEC_H

#include "sim_core.h"

/* sim_exec_float.c */
int sim_exec_float(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_exec_cvt(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
double sim_to_double(uint64_t bits, enum ptx_type t);
uint64_t sim_from_double(double v, enum ptx_type t, int rnd);

/* sim_mem.c: the address each lane in `mask` names with a memory operand */
void sim_lane_addresses(struct sim_cta *cta, struct sim_warp *w, const struct ptx_operand *mo, uint32_t mask,
			uint64_t addr[32]);

/* sim_mem.c: ld/st of the lanes in `mask` at the addresses their memory operand names (sim_lane_addresses'
 * result, which it may change): exec_ld_st after the address step, for the compiled engine (sim_jit_mem.c) */
int sim_ld_st_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask, uint64_t addr[32]);
/* The same without trying the hot form first (sim_mem_hot): every other form, and the hot form's
 * accesses that leave shared memory (which it reports). */
int sim_ld_st_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		      uint64_t addr[32]);

/* sim_mem.c: an ld.param (ins must be one) of the lanes in `mask` (not empty) all at address a, a constant
 * address, for the compiled engine: translated once; a miss goes the lanes' way (sim_mem_hot_or_general).
 * 0, or -1 on a fault. */
int sim_ld_param_at(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask, uint64_t a);

/* sim_mem.c: the wavefronts (*units) and bank conflicts of a shared access, or the sectors of a global or
 * local one, for `site` (the call site whose shapes the wavefront memo keeps). */
void sim_access_cost(struct sim_cta *cta, uintptr_t site, enum ptx_space sp, const uint64_t addr[32], uint32_t mask,
		     unsigned size, uint32_t *units, uint32_t *conflicts);

/* sim_mem.c: the global region holding [addr, addr + size) when an access there is allowed (a store not
 * into read-only memory), else NULL; and the global race check of a warp-level access, in lane order
 * (`key`, or NULL: the address set's name for read groups, sim_race.h). */
const struct sim_region *sim_global_region(struct sim_cta *cta, struct sim_warp *w, uint64_t addr, unsigned size,
					   bool is_store);
void sim_check_global_races(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			    const uint64_t addr[32], unsigned n, bool is_store, const struct sim_race_key *key);
/* Does the race check look at this global access?  Not in a single-warp CTA or without the racecheck tool,
 * and strong accesses (volatile, relaxed, acquire, release) never form a data race (PTX ISA). */
static inline bool sim_races_checked(const struct sim_cta *cta, const struct ptx_insn *ins)
{
	return cta->L->warps_per_cta >= 2 && (cta->L->tools & GL_TOOL_RACECHECK) &&
	       !(ins->mods & (PM_VOLATILE | PM_STRONG));
}
/* The findings of the lanes of `racing` of a warp-level global access: other[l] is the warp (+1) lane l
 * races with (sim_race.h). */
void sim_global_race_findings(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t racing,
			      const uint64_t addr[32], unsigned n, const uint8_t other[32]);

/* sim_mem.c: when every lane in `mask` reads `size` aligned bytes inside shared memory at its address,
 * the host address of shared offset 0 (lane l's bytes are at it + addr[l]), else NULL: those lanes then
 * translate one by one, which reports them. */
uint8_t *sim_shared_span(struct sim_cta *cta, struct sim_warp *w, const uint64_t addr[32], uint32_t mask,
			 unsigned size);

/* sim_cp_async.c: cp.async, its hot form (a full warp's aligned copies inside one buffer) or sim_exec_mem. */
int sim_exec_cp_async(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mem_hot.c: the hot forms of a full warp's 4-byte ld/st of shared or global memory (counted, checked
 * and moved as the general path would); false when the access is of another form or leaves its memory,
 * for the general path. */
bool sim_mem_hot(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
		    const uint64_t addr[32]);
/* sim_mem_hot, else sim_ld_st_general: 0, or -1 when an access faulted (the CTA stops), for the compiled
 * engine (sim_jit_mem.c). */
int sim_mem_hot_or_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask,
			   uint64_t addr[32]);
/* The same for a full warp (mask 0xffffffff) and the addresses reg[l] + off, which a hot shared access of
 * a shape seen before never writes out.  *tok is the register's shape token (0: none): the class
 * (sim_shape.cls) of the shape its lanes were last found to have, which the caller keeps while nothing
 * writes the register (sim_jit_gen.c); an access whose site's shape has that class needs no comparison of
 * the lanes.  Every call leaves in it the class found for the register's lanes, or 0. */
int sim_mem_hot_reg_or_general(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			       const uint64_t reg[32], uint64_t off, uint64_t *tok);

/* sim_exec_packed.c: dp4a / dp2a, vabsdiff2 / vabsdiff4, fns */
int sim_exec_packed(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_atom.c: atom / red */
int sim_exec_atom(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mma.c: mma.sync; sim_wmma.c: wmma.load, wmma.store, wmma.mma */
int sim_exec_mma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
int sim_exec_wmma(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_mem.c: one warp-level access of `size` (1, 2, 4 or 8) bytes per lane in `mask` for an instruction
 * that is not a ld/st itself (wmma.load/store), in the instruction's state space: counted, checked
 * (bounds, alignment, races) and moved like a ld/st of that size.  Loads fill val[lane]; lanes whose
 * access failed a check keep their value and add a finding. */
void sim_warp_access(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t addr[32],
		     uint32_t mask, unsigned size, bool is_store, uint64_t val[32]);

/* sim_mbarrier.c: mbarrier.* and cp.async.mbarrier.arrive */
int sim_exec_mbarrier(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);
/* The 64-bit object of a valid mbarrier in gpulab's encoding (for tests and documentation). */
uint64_t sim_mbarrier_encode(uint32_t pending, uint32_t expected, int32_t tx, bool phase);

/* sim_tex_exec.c: tex, tld4, txq, suld, sust, suq, sured */
int sim_exec_tex(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

/* sim_call.c: call (device printf through vprintf) */
int sim_exec_call(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask);

#endif
