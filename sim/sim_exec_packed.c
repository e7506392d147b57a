/* sim_exec_packed.c — integer instructions that work on packed bytes and halves or on bit masks: dp4a and
 * dp2a (__dp4a, __dp2a_lo/hi), vabsdiff2/vabsdiff4 with and without .add (what libdevice's __vabsdiff*
 * and __vsad* emit), and fns (__fns).  Definitions from the PTX ISA. */
#include "sim_exec.h"

/* Element i (0-based) of a packed value, `bits` wide, sign- or zero-extended. */
static int64_t element(uint64_t v, unsigned bits, unsigned i, bool sgn)
{
	uint64_t e = (v >> (bits * i)) & ((1ull << bits) - 1);
	return sgn ? sim_sext(e, bits / 8) : (int64_t)e;
}

/* dp4a.atype.btype d, a, b, c: d = c + sum of the four byte products.
 * dp2a.{lo,hi}.atype.btype d, a, b, c: d = c + a.h0 * b.b(0|2) + a.h1 * b.b(1|3). */
static int exec_dp(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	bool sa = ptx_type_is_signed((enum ptx_type)ins->type), sb = ptx_type_is_signed((enum ptx_type)ins->type2);
	unsigned first = (ins->mods & PM_HI) ? 2 : 0;
	FOR_LANES(mask, l) {
		int64_t acc = (int64_t)(uint32_t)c[l];
		if (ins->op == OP_DP4A)
			for (unsigned i = 0; i < 4; i++)
				acc += element(a[l], 8, i, sa) * element(b[l], 8, i, sb);
		else
			for (unsigned i = 0; i < 2; i++)
				acc += element(a[l], 16, i, sa) * element(b[l], 8, first + i, sb);
		d[l] = (uint32_t)acc;
	}
	return 0;
}

/* vabsdiff{2,4}.dtype.atype.btype[.sat] d, a, b, c: per half or byte |a_i - b_i| (saturated to the
 * element of dtype with .sat); with .add, d = c + the sum of the differences instead. */
static int exec_vabsdiff(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *a = SRC(1), *b = SRC(2), *c = SRC(3);
	unsigned bits = ins->op == OP_VABSDIFF4 ? 8 : 16, n = 32 / bits;
	bool sa = ptx_type_is_signed((enum ptx_type)ins->type2), sb = ptx_type_is_signed((enum ptx_type)ins->type3);
	bool sd = ptx_type_is_signed((enum ptx_type)ins->type), sat = ins->mods & PM_SAT;
	int64_t hi = sd ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
	FOR_LANES(mask, l) {
		int64_t sum = 0;
		uint32_t r = 0;
		for (unsigned i = 0; i < n; i++) {
			int64_t x = element(a[l], bits, i, sa) - element(b[l], bits, i, sb);
			x = x < 0 ? -x : x;
			sum += x;
			if (sat && x > hi)
				x = hi;
			r |= (uint32_t)(x & ((1ll << bits) - 1)) << (bits * i);
		}
		d[l] = ins->sub ? (uint32_t)((int64_t)(uint32_t)c[l] + sum) : r;
	}
	return 0;
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of mask counting from base
 * (towards the msb for offset > 0, the lsb for offset < 0; offset 0 asks whether bit base is set), or
 * 0xffffffff when there is none. */
static uint32_t fns(uint32_t m, uint32_t base, int32_t offset)
{
	if (base > 31)
		return 0xffffffffu;
	if (offset == 0)
		return (m >> base) & 1 ? base : 0xffffffffu;
	int step = offset > 0 ? 1 : -1;
	int64_t left = offset > 0 ? offset : -(int64_t)offset;
	for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
		if ((m >> pos) & 1 && --left == 0)
			return (uint32_t)pos;
	return 0xffffffffu;
}

static int exec_fns(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = DST(0);
	const uint64_t *m = SRC(1), *base = SRC(2), *off = SRC(3);
	FOR_LANES(mask, l) d[l] = fns((uint32_t)m[l], (uint32_t)base[l], (int32_t)off[l]);
	return 0;
}

int sim_exec_packed(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	switch (ins->op) {
	case OP_DP4A: case OP_DP2A: return exec_dp(cta, w, ins, mask);
	case OP_VABSDIFF2: case OP_VABSDIFF4: return exec_vabsdiff(cta, w, ins, mask);
	case OP_FNS: return exec_fns(cta, w, ins, mask);
	default: return sim_unsupported(cta, w, ins, ptx_op_name((enum ptx_op)ins->op));
	}
}
