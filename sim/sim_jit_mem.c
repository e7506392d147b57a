/* sim_jit_mem.c — the memory side of the compiled engine (sim_jit.h): a compiled kernel computes the
 * lanes' addresses of a ld/st inline, or passes the register and offset of a [register + offset] operand,
 * and makes one call per warp-instruction here, into the same code the interpreter runs after its own
 * address step (sim_ld_st_at), so counts, checks and findings are the interpreter's. */
#include "sim_exec.h"
#include "sim_jit.h"

int sim_jit_mem(void *cta, void *w, int pc, uint32_t mask, uint64_t *addr)
{
	struct sim_cta *c = cta;
	return sim_mem_hot_or_general(c, w, &c->L->fn->code[pc], mask, addr); /* hot form first; -1: a fault */
}

int sim_jit_mem_reg(void *cta, void *w, const void *ins, const uint64_t *reg, uint64_t off, uint64_t *tok)
{
	return sim_mem_hot_reg_or_general(cta, w, ins, reg, off, tok); /* a jump: the arguments are in place */
}

int sim_jit_param(void *cta, void *w, int pc, uint32_t mask, uint64_t a)
{
	struct sim_cta *c = cta;
	return sim_ld_param_at(c, w, &c->L->fn->code[pc], mask, a);
}
