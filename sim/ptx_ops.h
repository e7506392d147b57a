/* ptx_ops.h — the decoded opcodes and their op-specific selectors. */
#ifndef GL_PTX_OPS_H
#define GL_PTX_OPS_H

#include "ptx.h"

enum ptx_op {
	OP_INVALID,
	/* data movement */
	OP_MOV, OP_LD, OP_ST, OP_CVTA, OP_CVT, OP_PRMT, OP_CLOCK,
	/* integer / float arithmetic */
	OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_MUL24, OP_MAD24, OP_SAD, OP_DIV, OP_REM, OP_ABS, OP_NEG, OP_MIN,
	OP_MAX, OP_FMA, OP_RCP, OP_SQRT, OP_RSQRT, OP_SIN, OP_COS, OP_LG2, OP_EX2, OP_TANH, OP_COPYSIGN,
	OP_TESTP, OP_ADDC, OP_SUBC, OP_MADC, OP_DP4A, OP_DP2A,
	/* bits */
	OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT, OP_SHL, OP_SHR, OP_SHF, OP_BFE, OP_BFI, OP_POPC, OP_CLZ,
	OP_BREV, OP_BFIND, OP_FNS,
	/* compare / select */
	OP_SETP, OP_SET, OP_SELP, OP_SLCT,
	/* control */
	OP_BRA, OP_CALL, OP_RET, OP_EXIT, OP_TRAP, OP_BAR, OP_MEMBAR, OP_NOP,
	/* memory extras */
	OP_ATOM, OP_RED, OP_CP_ASYNC, OP_CP_ASYNC_COMMIT, OP_CP_ASYNC_WAIT, OP_CP_ASYNC_WAIT_ALL,
	OP_MBARRIER, OP_CP_ASYNC_MBAR_ARRIVE,
	/* warp collectives */
	OP_SHFL, OP_VOTE, OP_MATCH, OP_REDUX, OP_ACTIVEMASK, OP_MMA, OP_LDMATRIX, OP_STMATRIX,
	OP_WMMA_LOAD, OP_WMMA_STORE, OP_WMMA_MMA,
	/* SIMD video (what libdevice's __vabsdiff*, __vsad* emit) */
	OP_VABSDIFF2, OP_VABSDIFF4,
	OP_ISSPACEP,
	/* textures and surfaces (ptx_decode_tex.c, sim_tex_exec.c) */
	OP_TEX, OP_TLD4, OP_TXQ, OP_SULD, OP_SUST, OP_SUQ, OP_SURED,
	OP_COUNT
};

/* ptx_insn.sub for setp/set/slct: the comparison. */
enum ptx_cmp {
	CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
	CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN
};
/* ptx_insn.sub2 for setp/set: how the optional third predicate combines. */
enum ptx_boolop { BOOL_NONE, BOOL_AND, BOOL_OR, BOOL_XOR };
/* ptx_insn.sub for atom/red/redux. */
enum ptx_atomop { AOP_NONE, AOP_ADD, AOP_MIN, AOP_MAX, AOP_INC, AOP_DEC, AOP_EXCH, AOP_CAS, AOP_AND, AOP_OR, AOP_XOR };
/* ptx_insn.sub for shfl. */
enum ptx_shfl { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
/* ptx_insn.sub for vote / match. */
enum ptx_vote { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
/* ptx_insn.sub for bar. */
enum ptx_bar { BAR_SYNC, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR, BAR_WARP_SYNC };
/* ptx_insn.sub for testp. */
enum ptx_testp { TESTP_FINITE, TESTP_INFINITE, TESTP_NUMBER, TESTP_NOTANUMBER, TESTP_NORMAL, TESTP_SUBNORMAL };
/* ptx_insn.sub for mma and wmma: shape. */
enum ptx_mma_shape {
	MMA_M16N8K16, MMA_M16N8K8, MMA_M8N8K4, MMA_M16N8K4, MMA_M8N8K16, MMA_M16N8K32,
	MMA_M16N16K16, MMA_M32N8K16, MMA_M8N32K16, MMA_M16N16K8, /* wmma */
	MMA_NO_SHAPE = 255
};
/* ptx_insn.sub2 for mma / wmma: flags; for wmma.load / wmma.store the matrix in the low bits. */
enum {
	MMA_SATFINITE = 1u << 0, /* mma, wmma.mma: integer results saturate to s32 */
	MMA_A_COL = 1u << 1,	 /* wmma.mma: A is .col; wmma.load/store: the matrix is .col */
	MMA_B_COL = 1u << 2,	 /* wmma.mma: B is .col */
	MMA_MATRIX_SHIFT = 4,	 /* wmma.load/store: (sub2 >> 4) is enum ptx_wmma_matrix */
};
enum ptx_wmma_matrix { WMMA_A, WMMA_B, WMMA_C, WMMA_D };
/* ptx_insn.sub for mbarrier: the operation; sub2: MBAR_F_* flags (also cp.async.mbarrier.arrive's .noinc). */
enum ptx_mbar {
	MBAR_INIT, MBAR_ARRIVE, MBAR_ARRIVE_DROP, MBAR_EXPECT_TX, MBAR_COMPLETE_TX, MBAR_TEST_WAIT, MBAR_TRY_WAIT,
	MBAR_PENDING_COUNT, MBAR_INVAL
};
enum { MBAR_F_PARITY = 1, MBAR_F_EXPECT_TX = 2, MBAR_F_NOINC = 4, MBAR_F_NOCOMPLETE = 8 };
/* ptx_insn.sub for prmt. */
enum ptx_prmt { PRMT_DEFAULT, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };

/* Texture and surface instructions: ptx_insn.sub is the geometry; sub2 the tex mipmap mode, the tld4
 * component, the txq/suq query, or the surface out-of-range mode (with SU_FORMATTED for sust.p); btype the
 * sured operation (enum ptx_atomop); type the result (or data) type, type2 the coordinate type. */
enum ptx_tex_geom { TXG_1D, TXG_2D, TXG_3D, TXG_A1D, TXG_A2D, TXG_CUBE, TXG_ACUBE };
enum ptx_tex_mip { TXM_BASE, TXM_LEVEL, TXM_GRAD };
enum ptx_tex_query {
	TXQ_WIDTH, TXQ_HEIGHT, TXQ_DEPTH, TXQ_CHANNEL_DATA_TYPE, TXQ_CHANNEL_ORDER, TXQ_NORMALIZED_COORDS,
	TXQ_FILTER_MODE, TXQ_ADDR_MODE_0, TXQ_ADDR_MODE_1, TXQ_ADDR_MODE_2, TXQ_ARRAY_SIZE, TXQ_NUM_MIPMAP_LEVELS,
	TXQ_NUM_SAMPLES, TXQ_MEMORY_LAYOUT,
};
enum ptx_surf_clamp { SU_TRAP, SU_CLAMP, SU_ZERO };
enum { SU_FORMATTED = 1u << 4 };
static inline bool ptx_op_is_texture(enum ptx_op op)
{
	return op >= OP_TEX && op <= OP_SURED;
}
/* The bits of bfi's result taken from a (`bfi d, a, b, pos, len` on `bits`-bit operands): len bits from
 * pos, cut at the width; 0 (d is b) when pos is past the width or len is 0 (PTX ISA, bfi). */
static inline uint64_t ptx_bfi_mask(unsigned pos, unsigned len, unsigned bits)
{
	if (pos >= bits || len == 0)
		return 0;
	unsigned top = pos + len < bits ? pos + len : bits;
	return (top - pos == 64 ? ~0ull : (1ull << (top - pos)) - 1) << pos;
}
/* Decode the modifiers of a texture or surface opcode (`mods` is what follows its first word, e.g.
 * ".2d.v4.f32.f32"; `text` the whole opcode for messages). */
int ptx_decode_texop(const char *text, const char *mods, struct ptx_insn *ins, char *msg, size_t msgn);
/* The coordinates a geometry needs at least (its [a, {...}] vector), or 0 for none. */
int ptx_tex_coords_needed(const struct ptx_insn *ins);
/* The operands of a decoded texture or surface instruction against its form: 0, or -1 with what is wrong
 * (written after the instruction's name: "'tex' ..."). */
int ptx_tex_check_operands(const struct ptx_insn *ins, char *msg, size_t n);

/* Decode "ld.global.v4.f32" into op/type/space/vec/mods.  On failure writes a message to `msg`. */
int ptx_decode_opcode(const char *text, int len, struct ptx_insn *ins, char *msg, size_t msgn);
const char *ptx_op_name(enum ptx_op op);

#endif
