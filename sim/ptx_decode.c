/* ptx_decode.c — opcode spelling -> decoded instruction fields.  Modifiers are classified through one
 * table; each opcode then reads the classes it cares about. */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "ptx_ops.h"

static const char *const op_names[OP_COUNT] = {
	[OP_INVALID] = "?", [OP_MOV] = "mov", [OP_LD] = "ld", [OP_ST] = "st", [OP_CVTA] = "cvta", [OP_CVT] = "cvt",
	[OP_PRMT] = "prmt", [OP_CLOCK] = "mov(clock)", [OP_ADD] = "add", [OP_SUB] = "sub", [OP_MUL] = "mul",
	[OP_MAD] = "mad", [OP_MUL24] = "mul24", [OP_MAD24] = "mad24", [OP_SAD] = "sad", [OP_DIV] = "div",
	[OP_REM] = "rem", [OP_ABS] = "abs", [OP_NEG] = "neg", [OP_MIN] = "min", [OP_MAX] = "max", [OP_FMA] = "fma",
	[OP_RCP] = "rcp", [OP_SQRT] = "sqrt", [OP_RSQRT] = "rsqrt", [OP_SIN] = "sin", [OP_COS] = "cos",
	[OP_LG2] = "lg2", [OP_EX2] = "ex2", [OP_TANH] = "tanh", [OP_COPYSIGN] = "copysign", [OP_TESTP] = "testp",
	[OP_ADDC] = "addc", [OP_SUBC] = "subc", [OP_MADC] = "madc", [OP_DP4A] = "dp4a", [OP_DP2A] = "dp2a",
	[OP_AND] = "and", [OP_OR] = "or", [OP_XOR] = "xor", [OP_NOT] = "not", [OP_CNOT] = "cnot", [OP_SHL] = "shl",
	[OP_SHR] = "shr", [OP_SHF] = "shf", [OP_BFE] = "bfe", [OP_BFI] = "bfi", [OP_POPC] = "popc",
	[OP_CLZ] = "clz", [OP_BREV] = "brev", [OP_BFIND] = "bfind", [OP_FNS] = "fns", [OP_SETP] = "setp",
	[OP_SET] = "set", [OP_SELP] = "selp", [OP_SLCT] = "slct", [OP_BRA] = "bra", [OP_CALL] = "call",
	[OP_RET] = "ret", [OP_EXIT] = "exit", [OP_TRAP] = "trap", [OP_BAR] = "bar", [OP_MEMBAR] = "membar",
	[OP_NOP] = "nop", [OP_ATOM] = "atom", [OP_RED] = "red", [OP_CP_ASYNC] = "cp.async",
	[OP_CP_ASYNC_COMMIT] = "cp.async.commit_group", [OP_CP_ASYNC_WAIT] = "cp.async.wait_group",
	[OP_CP_ASYNC_WAIT_ALL] = "cp.async.wait_all", [OP_SHFL] = "shfl", [OP_VOTE] = "vote", [OP_MATCH] = "match",
	[OP_REDUX] = "redux", [OP_ACTIVEMASK] = "activemask", [OP_MMA] = "mma", [OP_LDMATRIX] = "ldmatrix",
	[OP_STMATRIX] = "stmatrix", [OP_VABSDIFF2] = "vabsdiff2", [OP_VABSDIFF4] = "vabsdiff4",
	[OP_ISSPACEP] = "isspacep", [OP_WMMA_LOAD] = "wmma.load", [OP_WMMA_STORE] = "wmma.store",
	[OP_WMMA_MMA] = "wmma.mma",
	[OP_MBARRIER] = "mbarrier", [OP_CP_ASYNC_MBAR_ARRIVE] = "cp.async.mbarrier.arrive",
	[OP_TEX] = "tex", [OP_TLD4] = "tld4", [OP_TXQ] = "txq", [OP_SULD] = "suld", [OP_SUST] = "sust",
	[OP_SUQ] = "suq", [OP_SURED] = "sured",
};

const char *ptx_op_name(enum ptx_op op)
{
	return op < OP_COUNT && op_names[op] ? op_names[op] : "?";
}

static const struct {
	const char *name;
	enum ptx_op op;
} base_ops[] = {
	{"mov", OP_MOV},	 {"ld", OP_LD},		{"ldu", OP_LD},		 {"st", OP_ST},	      {"cvta", OP_CVTA},
	{"cvt", OP_CVT},	 {"prmt", OP_PRMT},	{"add", OP_ADD},	 {"sub", OP_SUB},     {"mul", OP_MUL},
	{"mad", OP_MAD},	 {"mul24", OP_MUL24},	{"mad24", OP_MAD24},	 {"sad", OP_SAD},     {"div", OP_DIV},
	{"rem", OP_REM},	 {"abs", OP_ABS},	{"neg", OP_NEG},	 {"min", OP_MIN},     {"max", OP_MAX},
	{"fma", OP_FMA},	 {"rcp", OP_RCP},	{"sqrt", OP_SQRT},	 {"rsqrt", OP_RSQRT}, {"sin", OP_SIN},
	{"cos", OP_COS},	 {"lg2", OP_LG2},	{"ex2", OP_EX2},	 {"tanh", OP_TANH},   {"copysign", OP_COPYSIGN},
	{"testp", OP_TESTP},	 {"addc", OP_ADDC},	{"subc", OP_SUBC},	 {"madc", OP_MADC},   {"dp4a", OP_DP4A},
	{"dp2a", OP_DP2A},	 {"and", OP_AND},	{"or", OP_OR},		 {"xor", OP_XOR},     {"not", OP_NOT},
	{"cnot", OP_CNOT},	 {"shl", OP_SHL},	{"shr", OP_SHR},	 {"shf", OP_SHF},     {"bfe", OP_BFE},
	{"bfi", OP_BFI},	 {"popc", OP_POPC},	{"clz", OP_CLZ},	 {"brev", OP_BREV},   {"bfind", OP_BFIND},
	{"fns", OP_FNS},	 {"setp", OP_SETP},	{"set", OP_SET},	 {"selp", OP_SELP},   {"slct", OP_SLCT},
	{"bra", OP_BRA},	 {"brx", OP_INVALID},	{"call", OP_CALL},	 {"ret", OP_RET},     {"exit", OP_EXIT},
	{"trap", OP_TRAP},	 {"bar", OP_BAR},	{"barrier", OP_BAR},	 {"membar", OP_MEMBAR},
	{"fence", OP_MEMBAR},	 {"nanosleep", OP_NOP}, {"prefetch", OP_NOP}, {"prefetchu", OP_NOP},
	{"pmevent", OP_NOP},	 {"atom", OP_ATOM},	{"red", OP_RED},	 {"cp", OP_CP_ASYNC}, {"shfl", OP_SHFL},
	{"vote", OP_VOTE},	 {"match", OP_MATCH},	{"redux", OP_REDUX},	 {"activemask", OP_ACTIVEMASK},
	{"mma", OP_MMA},	 {"ldmatrix", OP_LDMATRIX}, {"stmatrix", OP_STMATRIX}, {"discard", OP_NOP},
	{"applypriority", OP_NOP}, {"createpolicy", OP_INVALID}, {"vabsdiff2", OP_VABSDIFF2},
	{"vabsdiff4", OP_VABSDIFF4}, {"isspacep", OP_ISSPACEP}, {"wmma", OP_WMMA_MMA},
	{"mbarrier", OP_MBARRIER}, {"tex", OP_TEX}, {"tld4", OP_TLD4}, {"txq", OP_TXQ}, {"suld", OP_SULD},
	{"sust", OP_SUST}, {"suq", OP_SUQ}, {"sured", OP_SURED},
};

enum mod_class {
	MC_TYPE, MC_SPACE, MC_VEC, MC_RND, MC_CMP, MC_BOOL, MC_ATOMOP, MC_SHFL, MC_VOTE, MC_FLAG, MC_SHAPE,
	MC_NUM, MC_TESTP, MC_PRMT, MC_BAR, MC_IGNORE, MC_TO, MC_LAYOUT, MC_SATFINITE, MC_MBAR,
};

static const struct {
	const char *name;
	enum mod_class cls;
	unsigned value;
} mods[] = {
	{"pred", MC_TYPE, PT_PRED}, {"b8", MC_TYPE, PT_B8}, {"b16", MC_TYPE, PT_B16}, {"b32", MC_TYPE, PT_B32},
	{"b64", MC_TYPE, PT_B64}, {"b128", MC_TYPE, PT_B128}, {"u8", MC_TYPE, PT_U8}, {"u16", MC_TYPE, PT_U16},
	{"u32", MC_TYPE, PT_U32}, {"u64", MC_TYPE, PT_U64}, {"s8", MC_TYPE, PT_S8}, {"s16", MC_TYPE, PT_S16},
	{"s32", MC_TYPE, PT_S32}, {"s64", MC_TYPE, PT_S64}, {"f16", MC_TYPE, PT_F16}, {"f16x2", MC_TYPE, PT_F16X2},
	{"bf16", MC_TYPE, PT_BF16}, {"bf16x2", MC_TYPE, PT_BF16X2}, {"tf32", MC_TYPE, PT_TF32},
	{"f32", MC_TYPE, PT_F32}, {"f64", MC_TYPE, PT_F64},
	{"global", MC_SPACE, PS_GLOBAL}, {"shared", MC_SPACE, PS_SHARED}, {"shared::cta", MC_SPACE, PS_SHARED},
	{"local", MC_SPACE, PS_LOCAL}, {"param", MC_SPACE, PS_PARAM}, {"const", MC_SPACE, PS_CONST},
	{"v2", MC_VEC, 2}, {"v4", MC_VEC, 4}, {"v8", MC_VEC, 8},
	{"rn", MC_RND, PR_RN}, {"rz", MC_RND, PR_RZ}, {"rm", MC_RND, PR_RM}, {"rp", MC_RND, PR_RP},
	{"rni", MC_RND, PR_RNI}, {"rzi", MC_RND, PR_RZI}, {"rmi", MC_RND, PR_RMI}, {"rpi", MC_RND, PR_RPI},
	{"rna", MC_RND, PR_RNA},
	{"eq", MC_CMP, CMP_EQ}, {"ne", MC_CMP, CMP_NE}, {"lt", MC_CMP, CMP_LT}, {"le", MC_CMP, CMP_LE},
	{"gt", MC_CMP, CMP_GT}, {"ge", MC_CMP, CMP_GE}, {"lo", MC_CMP, CMP_LO}, {"ls", MC_CMP, CMP_LS},
	{"hi", MC_CMP, CMP_HI}, {"hs", MC_CMP, CMP_HS}, {"equ", MC_CMP, CMP_EQU}, {"neu", MC_CMP, CMP_NEU},
	{"ltu", MC_CMP, CMP_LTU}, {"leu", MC_CMP, CMP_LEU}, {"gtu", MC_CMP, CMP_GTU}, {"geu", MC_CMP, CMP_GEU},
	{"num", MC_CMP, CMP_NUM}, {"nan", MC_CMP, CMP_NAN},
	{"and", MC_BOOL, BOOL_AND}, {"or", MC_BOOL, BOOL_OR}, {"xor", MC_BOOL, BOOL_XOR},
	{"add", MC_ATOMOP, AOP_ADD}, {"min", MC_ATOMOP, AOP_MIN}, {"max", MC_ATOMOP, AOP_MAX},
	{"inc", MC_ATOMOP, AOP_INC}, {"dec", MC_ATOMOP, AOP_DEC}, {"exch", MC_ATOMOP, AOP_EXCH},
	{"cas", MC_ATOMOP, AOP_CAS},
	{"up", MC_SHFL, SHFL_UP}, {"down", MC_SHFL, SHFL_DOWN}, {"bfly", MC_SHFL, SHFL_BFLY}, {"idx", MC_SHFL, SHFL_IDX},
	{"all", MC_VOTE, VOTE_ALL}, {"any", MC_VOTE, VOTE_ANY}, {"uni", MC_VOTE, VOTE_UNI},
	{"ballot", MC_VOTE, VOTE_BALLOT},
	/* .satfinite on float results (clamp to the largest finite value) is not modelled: refused, not mistaken */
	{"wide", MC_FLAG, PM_WIDE}, {"ftz", MC_FLAG, PM_FTZ}, {"sat", MC_FLAG, PM_SAT},
	{"approx", MC_FLAG, PM_APPROX}, {"full", MC_FLAG, PM_FULL}, {"nc", MC_FLAG, PM_NC},
	{"trans", MC_FLAG, PM_TRANS}, {"shiftamt", MC_FLAG, PM_SHIFTAMT}, {"clamp", MC_FLAG, PM_CLAMP},
	{"wrap", MC_FLAG, PM_WRAP}, {"volatile", MC_FLAG, PM_VOLATILE}, {"relu", MC_FLAG, PM_RELU},
	{"NaN", MC_FLAG, PM_NAN}, {"xorsign", MC_FLAG, PM_XORSIGN}, {"abs", MC_FLAG, PM_ABS}, {"cc", MC_FLAG, PM_CC}, {"ca", MC_FLAG, PM_CA},
	{"cg", MC_FLAG, PM_CG}, {"aligned", MC_FLAG, PM_ALIGNED}, {"l", MC_FLAG, PM_LEFT}, {"r", MC_FLAG, PM_RIGHT},
	{"m16n8k16", MC_SHAPE, MMA_M16N8K16}, {"m16n8k8", MC_SHAPE, MMA_M16N8K8}, {"m8n8k4", MC_SHAPE, MMA_M8N8K4},
	{"m16n8k4", MC_SHAPE, MMA_M16N8K4}, {"m8n8k16", MC_SHAPE, MMA_M8N8K16}, {"m16n8k32", MC_SHAPE, MMA_M16N8K32},
	{"m16n16k16", MC_SHAPE, MMA_M16N16K16}, {"m32n8k16", MC_SHAPE, MMA_M32N8K16},
	{"m8n32k16", MC_SHAPE, MMA_M8N32K16}, {"m16n16k8", MC_SHAPE, MMA_M16N16K8},
	{"satfinite", MC_SATFINITE, 1}, /* integer mma / wmma.mma only; refused elsewhere */
	{"m8n8", MC_IGNORE, 0},
	{"x1", MC_NUM, 1}, {"x2", MC_NUM, 2}, {"x4", MC_NUM, 4},
	{"finite", MC_TESTP, TESTP_FINITE}, {"infinite", MC_TESTP, TESTP_INFINITE},
	{"number", MC_TESTP, TESTP_NUMBER}, {"notanumber", MC_TESTP, TESTP_NOTANUMBER},
	{"normal", MC_TESTP, TESTP_NORMAL}, {"subnormal", MC_TESTP, TESTP_SUBNORMAL},
	{"f4e", MC_PRMT, PRMT_F4E}, {"b4e", MC_PRMT, PRMT_B4E}, {"rc8", MC_PRMT, PRMT_RC8},
	{"ecl", MC_PRMT, PRMT_ECL}, {"ecr", MC_PRMT, PRMT_ECR}, {"rc16", MC_PRMT, PRMT_RC16},
	{"sync", MC_BAR, BAR_SYNC}, {"arrive", MC_BAR, BAR_ARRIVE}, {"red", MC_BAR, 100}, {"popc", MC_BAR, 101},
	{"warp", MC_BAR, 102}, {"to", MC_TO, 1},
	/* hints and orderings that do not change single-CTA semantics in the simulator */
	{"row", MC_LAYOUT, 0}, {"col", MC_LAYOUT, 1}, {"cs", MC_IGNORE, 0}, {"lu", MC_IGNORE, 0},
	{"cv", MC_IGNORE, 0}, {"wb", MC_IGNORE, 0}, {"wt", MC_IGNORE, 0}, {"relaxed", MC_FLAG, PM_STRONG},
	{"acquire", MC_FLAG, PM_STRONG}, {"release", MC_FLAG, PM_STRONG}, {"acq_rel", MC_IGNORE, 0}, {"sc", MC_IGNORE, 0},
	{"cta", MC_IGNORE, 0}, {"gpu", MC_IGNORE, 0}, {"sys", MC_IGNORE, 0}, {"gl", MC_IGNORE, 0},
	{"weak", MC_IGNORE, 0}, {"noftz", MC_IGNORE, 0}, {"async", MC_IGNORE, 0}, {"mmio", MC_IGNORE, 0},
	{"L1::evict_last", MC_IGNORE, 0}, {"L1::evict_first", MC_IGNORE, 0}, {"L1::evict_normal", MC_IGNORE, 0},
	{"L1::no_allocate", MC_IGNORE, 0}, {"L2::evict_last", MC_IGNORE, 0}, {"L2::evict_first", MC_IGNORE, 0},
	{"L2::64B", MC_IGNORE, 0}, {"L2::128B", MC_IGNORE, 0}, {"L2::256B", MC_IGNORE, 0},
	{"L2::cache_hint", MC_IGNORE, 0}, {"L1", MC_IGNORE, 0}, {"L2", MC_IGNORE, 0},
	{"parity", MC_MBAR, MBAR_F_PARITY}, {"expect_tx", MC_MBAR, MBAR_F_EXPECT_TX}, {"noinc", MC_MBAR, MBAR_F_NOINC},
	{"noComplete", MC_MBAR, MBAR_F_NOCOMPLETE}, {"mbarrier", MC_IGNORE, 0},
	{"commit_group", MC_IGNORE, 0}, {"wait_group", MC_IGNORE, 0}, {"wait_all", MC_IGNORE, 0},
};

struct decoded_mods {
	enum ptx_type types[4];
	int ntypes;
	int cmp, boolop, atomop, shfl, vote, testp, prmt, shape, num;
	int bar_kind, bar_red, bar_popc, bar_warp;
	int to;
	int layouts[2], nlayouts, satfinite;
	unsigned mbar; /* MBAR_F_* */
};

static int classify(const char *m, size_t len, struct ptx_insn *ins, struct decoded_mods *d)
{
	for (size_t i = 0; i < GL_ARRAY_LEN(mods); i++) {
		/* the first letter first: it rules out almost every entry without a strlen */
		if (!len || mods[i].name[0] != m[0] || strlen(mods[i].name) != len || memcmp(mods[i].name, m, len) != 0)
			continue;
		unsigned v = mods[i].value;
		switch (mods[i].cls) {
		case MC_TYPE: if (d->ntypes < 4) d->types[d->ntypes++] = (enum ptx_type)v; break;
		case MC_SPACE: ins->space = (uint8_t)v; break;
		case MC_VEC: ins->vec = (uint8_t)v; break;
		case MC_RND: ins->rnd = (uint8_t)v; break;
		case MC_CMP: d->cmp = (int)v; break;
		case MC_BOOL: d->boolop = (int)v; break;
		case MC_ATOMOP: d->atomop = (int)v; break;
		case MC_SHFL: d->shfl = (int)v; break;
		case MC_VOTE: d->vote = (int)v; break;
		case MC_FLAG: ins->mods |= v; break;
		case MC_SHAPE: d->shape = (int)v; break;
		case MC_NUM: d->num = (int)v; break;
		case MC_TESTP: d->testp = (int)v; break;
		case MC_PRMT: d->prmt = (int)v; break;
		case MC_BAR:
			if (v == 100) d->bar_red = 1;
			else if (v == 101) d->bar_popc = 1;
			else if (v == 102) d->bar_warp = 1;
			else d->bar_kind = (int)v;
			break;
		case MC_TO: d->to = 1; break;
		case MC_LAYOUT: if (d->nlayouts < 2) d->layouts[d->nlayouts++] = (int)v; break;
		case MC_SATFINITE: d->satfinite = 1; break;
		case MC_MBAR: d->mbar |= v; break;
		case MC_IGNORE: break;
		}
		return 0;
	}
	return -1;
}

/* mma / wmma: shape, layouts, .satfinite and the four types (d, a, b, c).  The f16 forms of wmma.mma
 * name only d and c; wmma.load/store keep their matrix in sub2 (ptx_ops.h). */
static void finish_mma(struct ptx_insn *ins, const struct decoded_mods *d)
{
	ins->sub = (uint8_t)(d->shape < 0 ? MMA_NO_SHAPE : d->shape);
	unsigned flags = d->satfinite ? MMA_SATFINITE : 0;
	if (ins->op == OP_WMMA_MMA || ins->op == OP_MMA) {
		flags |= (d->nlayouts > 0 && d->layouts[0]) ? MMA_A_COL : 0;
		flags |= (d->nlayouts > 1 && d->layouts[1]) ? MMA_B_COL : 0;
		ins->btype = d->ntypes > 2 ? d->types[2] : PT_F16;
		if (d->ntypes == 2) { /* wmma.mma .f16 forms: .dtype.ctype */
			ins->type2 = PT_F16;
			ins->type3 = d->types[1];
		}
	} else {
		flags |= (d->nlayouts > 0 && d->layouts[0]) ? MMA_A_COL : 0;
		flags |= (unsigned)ins->sub2 << MMA_MATRIX_SHIFT; /* the matrix decode_wmma found */
	}
	ins->sub2 = (uint8_t)flags;
}

/* Pick the op-specific selectors once all modifiers are known. */
static void finish(struct ptx_insn *ins, const struct decoded_mods *d)
{
	ins->type = d->ntypes > 0 ? d->types[0] : PT_NONE;
	ins->type2 = d->ntypes > 1 ? d->types[1] : ins->type;
	ins->type3 = d->ntypes > 3 ? d->types[3] : ins->type;
	switch (ins->op) {
	case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: case OP_MADC: case OP_DP2A:
		/* .hi / .lo spell the same as the unsigned comparisons */
		if (d->cmp == CMP_HI)
			ins->mods |= PM_HI;
		else if (d->cmp == CMP_LO)
			ins->mods |= PM_LO;
		break;
	case OP_SETP: case OP_SET: case OP_SLCT:
		ins->sub = (uint8_t)(d->cmp < 0 ? 255 : d->cmp);
		ins->sub2 = (uint8_t)d->boolop;
		break;
	case OP_VABSDIFF2: case OP_VABSDIFF4: /* .add: accumulate the differences into c */
		ins->sub = (uint8_t)(d->atomop == AOP_ADD);
		ins->type3 = d->ntypes > 2 ? d->types[2] : ins->type2;
		break;
	case OP_ATOM: case OP_RED: case OP_REDUX:
		/* and/or/xor are atomic operations here, not predicate combiners */
		ins->sub = (uint8_t)(d->atomop ? d->atomop
				   : d->boolop == BOOL_AND ? AOP_AND
				   : d->boolop == BOOL_OR ? AOP_OR
				   : d->boolop == BOOL_XOR ? AOP_XOR : AOP_NONE);
		break;
	case OP_SHFL: ins->sub = (uint8_t)d->shfl; break;
	case OP_VOTE: case OP_MATCH: ins->sub = (uint8_t)d->vote; break;
	case OP_TESTP: ins->sub = (uint8_t)d->testp; break;
	case OP_PRMT: ins->sub = (uint8_t)d->prmt; break;
	case OP_MMA: case OP_WMMA_MMA: case OP_WMMA_LOAD: case OP_WMMA_STORE: finish_mma(ins, d); break;
	case OP_LDMATRIX: case OP_STMATRIX: ins->sub = (uint8_t)(d->num ? d->num : 1); break;
	case OP_BAR:
		ins->sub = d->bar_warp ? BAR_WARP_SYNC
			 : d->bar_red ? (d->bar_popc ? BAR_RED_POPC : d->boolop == BOOL_AND ? BAR_RED_AND : BAR_RED_OR)
			 : d->bar_kind == BAR_ARRIVE ? BAR_ARRIVE : BAR_SYNC;
		break;
	case OP_CVTA: ins->sub = (uint8_t)d->to; break;
	case OP_MBARRIER: case OP_CP_ASYNC_MBAR_ARRIVE: ins->sub2 = (uint8_t)d->mbar; break;
	default: break;
	}
}

/* wmma.load.{a,b,c}, wmma.store.d and wmma.mma: the words after "wmma." up to the first modifier.
 * Returns the rest (at its '.'), or NULL when the form is not one of these. */
static char *decode_wmma(char *rest, struct ptx_insn *ins)
{
	static const struct {
		const char *word;
		enum ptx_op op;
		enum ptx_wmma_matrix matrix;
	} forms[] = {
		{"load.a", OP_WMMA_LOAD, WMMA_A}, {"load.b", OP_WMMA_LOAD, WMMA_B}, {"load.c", OP_WMMA_LOAD, WMMA_C},
		{"store.d", OP_WMMA_STORE, WMMA_D}, {"mma", OP_WMMA_MMA, WMMA_D},
	};
	for (size_t i = 0; i < GL_ARRAY_LEN(forms); i++) {
		size_t n = strlen(forms[i].word);
		if (strncmp(rest, forms[i].word, n) == 0 && (rest[n] == '.' || rest[n] == '\0')) {
			ins->op = (uint16_t)forms[i].op;
			ins->sub2 = (uint8_t)forms[i].matrix;
			return rest + n;
		}
	}
	return NULL;
}

/* cp.async has sub-forms spelled as further dotted words. */
static int decode_cp(const char *rest, struct ptx_insn *ins)
{
	if (strncmp(rest, "async", 5) != 0)
		return -1;
	rest += 5;
	if (strncmp(rest, ".commit_group", 13) == 0)
		ins->op = OP_CP_ASYNC_COMMIT;
	else if (strncmp(rest, ".wait_group", 11) == 0)
		ins->op = OP_CP_ASYNC_WAIT;
	else if (strncmp(rest, ".wait_all", 9) == 0)
		ins->op = OP_CP_ASYNC_WAIT_ALL;
	else if (strncmp(rest, ".mbarrier.arrive", 16) == 0)
		ins->op = OP_CP_ASYNC_MBAR_ARRIVE;
	else if (strncmp(rest, ".bulk", 5) == 0)
		return -1; /* TMA forms are sm_90 features the simulator does not model */
	return 0;
}

/* mbarrier.OPERATION{.modifiers}: the first dotted word names the operation; returns where the modifiers
 * start (NULL for an unknown operation). */
static const char *decode_mbarrier(const char *rest, struct ptx_insn *ins)
{
	static const struct {
		const char *name;
		enum ptx_mbar sub;
	} kinds[] = {
		{"init", MBAR_INIT}, {"arrive", MBAR_ARRIVE}, {"arrive_drop", MBAR_ARRIVE_DROP},
		{"expect_tx", MBAR_EXPECT_TX}, {"complete_tx", MBAR_COMPLETE_TX}, {"test_wait", MBAR_TEST_WAIT},
		{"try_wait", MBAR_TRY_WAIT}, {"pending_count", MBAR_PENDING_COUNT}, {"inval", MBAR_INVAL},
	};
	const char *end = strchr(rest, '.');
	size_t n = end ? (size_t)(end - rest) : strlen(rest);
	for (size_t i = 0; i < GL_ARRAY_LEN(kinds); i++)
		if (strlen(kinds[i].name) == n && memcmp(kinds[i].name, rest, n) == 0) {
			ins->sub = (uint8_t)kinds[i].sub;
			return rest + n;
		}
	return NULL;
}

int ptx_decode_opcode(const char *text, int len, struct ptx_insn *ins, char *msg, size_t msgn)
{
	char buf[160];
	if (len <= 0 || (size_t)len >= sizeof buf) {
		snprintf(msg, msgn, "opcode too long");
		return -1;
	}
	memcpy(buf, text, (size_t)len);
	buf[len] = '\0';
	char *dot = strchr(buf, '.');
	size_t base_len = dot ? (size_t)(dot - buf) : (size_t)len;
	ins->op = OP_INVALID;
	ins->vec = 1;
	for (size_t i = 0; i < GL_ARRAY_LEN(base_ops); i++)
		if (base_ops[i].name[0] == buf[0] && strlen(base_ops[i].name) == base_len &&
		    memcmp(base_ops[i].name, buf, base_len) == 0)
			ins->op = (uint16_t)base_ops[i].op;
	if (ins->op == OP_INVALID) {
		snprintf(msg, msgn, "unsupported instruction '%s'", buf);
		return -1;
	}
	if (ptx_op_is_texture((enum ptx_op)ins->op)) /* their modifiers are words of their own (ptx_decode_tex.c) */
		return ptx_decode_texop(buf, dot ? dot : "", ins, msg, msgn);
	if (ins->op == OP_CP_ASYNC && (!dot || decode_cp(dot + 1, ins) != 0)) {
		snprintf(msg, msgn, "unsupported instruction '%s'", buf);
		return -1;
	}
	if (ins->op == OP_MBARRIER) {
		const char *after = dot ? decode_mbarrier(dot + 1, ins) : NULL;
		if (!after) {
			snprintf(msg, msgn, "unsupported instruction '%s'", buf);
			return -1;
		}
		dot = buf + (after - buf); /* the modifiers after the operation */
	}
	if (ins->op == OP_WMMA_MMA) {
		char *rest = dot ? decode_wmma(dot + 1, ins) : NULL;
		if (!rest) {
			snprintf(msg, msgn, "unsupported instruction '%s' (wmma forms: load.a, load.b, load.c, store.d, mma)", buf);
			return -1;
		}
		dot = *rest ? rest : NULL;
	}
	struct decoded_mods d = {.cmp = -1, .shape = -1};
	for (char *m = dot; m && *m;) {
		char *start = m + 1;
		char *next = strchr(start, '.');
		size_t mlen = next ? (size_t)(next - start) : strlen(start);
		if (classify(start, mlen, ins, &d) != 0) {
			snprintf(msg, msgn, "unsupported modifier '.%.*s' in '%s'", (int)mlen, start, buf);
			return -1;
		}
		m = next;
	}
	finish(ins, &d);
	if (d.satfinite && ins->op != OP_MMA && ins->op != OP_WMMA_MMA) {
		snprintf(msg, msgn, "unsupported modifier '.satfinite' in '%s' (only integer mma and wmma.mma)", buf);
		return -1;
	}
	return 0;
}
