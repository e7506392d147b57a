/* ptx_decode_tex.c — the modifiers of tex, tld4, txq, suld, sust, suq and sured (PTX ISA, "Texture
 * Instructions" and "Surface Instructions").  Their words are classified by one table, as the other
 * opcodes' are, but with meanings of their own (`.b` is a surface access mode or tld4's blue channel,
 * `.clamp` an out-of-range mode).  Forms the simulator does not run are refused here with the reason,
 * so the kernel that uses one is refused before it starts (lazy loading keeps the others). */
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "ptx_ops.h"

enum word_class { W_GEOM, W_VEC, W_TYPE, W_MIP, W_QUERY, W_CLAMP, W_COMP, W_MODE, W_REDOP, W_IGNORE, W_REFUSED };

static const struct {
	const char *name;
	enum word_class cls;
	int value;
	const char *why; /* W_REFUSED: the reason */
} words[] = {
	{"1d", W_GEOM, TXG_1D, NULL}, {"2d", W_GEOM, TXG_2D, NULL}, {"3d", W_GEOM, TXG_3D, NULL},
	{"a1d", W_GEOM, TXG_A1D, NULL}, {"a2d", W_GEOM, TXG_A2D, NULL}, {"cube", W_GEOM, TXG_CUBE, NULL},
	{"acube", W_GEOM, TXG_ACUBE, NULL},
	{"v2", W_VEC, 2, NULL}, {"v4", W_VEC, 4, NULL},
	{"b8", W_TYPE, PT_B8, NULL}, {"b16", W_TYPE, PT_B16, NULL}, {"b32", W_TYPE, PT_B32, NULL},
	{"b64", W_TYPE, PT_B64, NULL}, {"u32", W_TYPE, PT_U32, NULL}, {"s32", W_TYPE, PT_S32, NULL},
	{"u64", W_TYPE, PT_U64, NULL}, {"s64", W_TYPE, PT_S64, NULL}, {"f32", W_TYPE, PT_F32, NULL},
	{"base", W_MIP, TXM_BASE, NULL}, {"level", W_MIP, TXM_LEVEL, NULL}, {"grad", W_MIP, TXM_GRAD, NULL},
	{"width", W_QUERY, TXQ_WIDTH, NULL}, {"height", W_QUERY, TXQ_HEIGHT, NULL}, {"depth", W_QUERY, TXQ_DEPTH, NULL},
	{"channel_data_type", W_QUERY, TXQ_CHANNEL_DATA_TYPE, NULL},
	{"channel_order", W_QUERY, TXQ_CHANNEL_ORDER, NULL},
	{"normalized_coords", W_QUERY, TXQ_NORMALIZED_COORDS, NULL}, {"filter_mode", W_QUERY, TXQ_FILTER_MODE, NULL},
	{"addr_mode_0", W_QUERY, TXQ_ADDR_MODE_0, NULL}, {"addr_mode_1", W_QUERY, TXQ_ADDR_MODE_1, NULL},
	{"addr_mode_2", W_QUERY, TXQ_ADDR_MODE_2, NULL}, {"array_size", W_QUERY, TXQ_ARRAY_SIZE, NULL},
	{"num_mipmap_levels", W_QUERY, TXQ_NUM_MIPMAP_LEVELS, NULL}, {"num_samples", W_QUERY, TXQ_NUM_SAMPLES, NULL},
	{"memory_layout", W_QUERY, TXQ_MEMORY_LAYOUT, NULL},
	{"trap", W_CLAMP, SU_TRAP, NULL}, {"clamp", W_CLAMP, SU_CLAMP, NULL}, {"zero", W_CLAMP, SU_ZERO, NULL},
	{"r", W_COMP, 0, NULL}, {"g", W_COMP, 1, NULL}, {"a", W_COMP, 3, NULL}, /* "b": W_MODE or blue, below */
	{"b", W_MODE, 0, NULL}, {"p", W_MODE, SU_FORMATTED, NULL},
	{"add", W_REDOP, AOP_ADD, NULL}, {"min", W_REDOP, AOP_MIN, NULL}, {"max", W_REDOP, AOP_MAX, NULL},
	{"and", W_REDOP, AOP_AND, NULL}, {"or", W_REDOP, AOP_OR, NULL},
	/* cache operations: hints that change nothing here */
	{"ca", W_IGNORE, 0, NULL}, {"cg", W_IGNORE, 0, NULL}, {"cs", W_IGNORE, 0, NULL}, {"cv", W_IGNORE, 0, NULL},
	{"wb", W_IGNORE, 0, NULL}, {"wt", W_IGNORE, 0, NULL},
	{"2dms", W_REFUSED, 0, "multi-sample textures are not simulated"},
	{"a2dms", W_REFUSED, 0, "multi-sample textures are not simulated"},
	{"f16", W_REFUSED, 0, "f16 texture results are not simulated; fetch .f32"},
	{"f16x2", W_REFUSED, 0, "f16x2 texture results are not simulated; fetch .v4.f32"},
	{"force_unnormalized_coords", W_REFUSED, 0, "independent texture mode (separate samplers) is not simulated"},
};

struct tex_words {
	int geom, vec, mip, query, clamp, comp, mode, redop;
	enum ptx_type types[2];
	int ntypes;
};

static int refuse(char *msg, size_t n, const char *text, const char *why)
{
	snprintf(msg, n, "unsupported instruction '%s' (%s)", text, why);
	return -1;
}

/* The word classes each instruction takes. */
#define C(x) (1u << (x))
static unsigned allowed_classes(enum ptx_op op)
{
	switch (op) {
	case OP_TEX: return C(W_GEOM) | C(W_VEC) | C(W_TYPE) | C(W_MIP);
	case OP_TLD4: return C(W_COMP) | C(W_MODE) | C(W_GEOM) | C(W_VEC) | C(W_TYPE);
	case OP_TXQ: return C(W_QUERY) | C(W_TYPE) | C(W_MIP);
	case OP_SUQ: return C(W_QUERY) | C(W_TYPE);
	case OP_SURED: return C(W_MODE) | C(W_REDOP) | C(W_GEOM) | C(W_TYPE) | C(W_CLAMP);
	default: return C(W_MODE) | C(W_GEOM) | C(W_VEC) | C(W_TYPE) | C(W_CLAMP) | C(W_IGNORE); /* suld, sust */
	}
}
#undef C

static int classify_words(const char *text, const char *mods, enum ptx_op op, struct tex_words *w, char *msg,
			  size_t n)
{
	*w = (struct tex_words){.geom = -1, .vec = 1, .mip = TXM_BASE, .query = -1, .clamp = SU_TRAP, .comp = -1,
				.mode = -1, .redop = -1};
	for (const char *m = mods; *m == '.';) {
		const char *start = m + 1, *next = strchr(start, '.');
		size_t len = next ? (size_t)(next - start) : strlen(start);
		size_t i = 0;
		while (i < GL_ARRAY_LEN(words) && (strlen(words[i].name) != len || memcmp(words[i].name, start, len)))
			i++;
		if (i == GL_ARRAY_LEN(words) ||
		    (words[i].cls != W_REFUSED && !(allowed_classes(op) & (1u << words[i].cls)))) {
			snprintf(msg, n, "unsupported modifier '.%.*s' in '%s'", (int)len, start, text);
			return -1;
		}
		int v = words[i].value;
		switch (words[i].cls) {
		case W_GEOM: w->geom = v; break;
		case W_VEC: w->vec = v; break;
		case W_TYPE: if (w->ntypes < 2) w->types[w->ntypes++] = (enum ptx_type)v; break;
		case W_MIP: w->mip = v; break;
		case W_QUERY: w->query = v; break;
		case W_CLAMP: w->clamp = v; break;
		case W_COMP: w->comp = v; break;
		case W_MODE: /* tld4's first word names a channel; .b there is blue */
			if (op == OP_TLD4)
				w->comp = 2;
			else
				w->mode = v;
			break;
		case W_REDOP: w->redop = v; break;
		case W_IGNORE: break;
		case W_REFUSED: return refuse(msg, n, text, words[i].why);
		}
		m = next ? next : start + len;
	}
	return 0;
}

static bool is_one_of(int v, const int *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

/* tex and tld4: geometry, .v4, result type and coordinate type. */
static int finish_fetch(const char *text, const struct tex_words *w, struct ptx_insn *ins, char *msg, size_t n)
{
	enum ptx_type d = w->ntypes > 0 ? w->types[0] : PT_NONE, c = w->ntypes > 1 ? w->types[1] : PT_NONE;
	if (w->geom < 0 || w->vec != 4 || w->ntypes != 2)
		return refuse(msg, n, text, "expected tex.GEOM.v4.DTYPE.CTYPE");
	if (d != PT_U32 && d != PT_S32 && d != PT_F32)
		return refuse(msg, n, text, "the result type is .u32, .s32 or .f32");
	if (c != PT_S32 && c != PT_F32)
		return refuse(msg, n, text, "coordinates are .s32 or .f32");
	if (ins->op == OP_TLD4) {
		static const int tld4_geoms[] = {TXG_2D, TXG_A2D, TXG_CUBE, TXG_ACUBE};
		if (w->comp < 0 || !is_one_of(w->geom, tld4_geoms, GL_ARRAY_LEN(tld4_geoms)) || c != PT_F32)
			return refuse(msg, n, text, "expected tld4.{r,g,b,a}.{2d,a2d,cube,acube}.v4.DTYPE.f32");
		ins->sub2 = (uint8_t)w->comp;
	} else {
		ins->sub2 = (uint8_t)w->mip;
	}
	if ((w->geom == TXG_CUBE || w->geom == TXG_ACUBE) && c != PT_F32)
		return refuse(msg, n, text, "cubemap coordinates are .f32");
	ins->type = (uint8_t)d;
	ins->type2 = (uint8_t)c;
	return 0;
}

/* txq and suq: a query the instruction knows, into a .b32. */
static int finish_query(const char *text, const struct tex_words *w, struct ptx_insn *ins, char *msg, size_t n)
{
	static const int suq_queries[] = {TXQ_WIDTH, TXQ_HEIGHT, TXQ_DEPTH, TXQ_CHANNEL_DATA_TYPE, TXQ_CHANNEL_ORDER,
					  TXQ_ARRAY_SIZE, TXQ_MEMORY_LAYOUT};
	if (w->mip == TXM_LEVEL)
		return refuse(msg, n, text, "txq.level is not simulated: textures here have one level; query it "
				  "without .level");
	if (w->query < 0 || w->ntypes != 1 || w->types[0] != PT_B32)
		return refuse(msg, n, text, "expected a query and .b32");
	bool known = ins->op == OP_SUQ ? is_one_of(w->query, suq_queries, GL_ARRAY_LEN(suq_queries))
				       : w->query != TXQ_MEMORY_LAYOUT;
	if (!known)
		return refuse(msg, n, text, ins->op == OP_SUQ ? "not a surface query" : "not a texture query");
	ins->sub2 = (uint8_t)w->query;
	ins->type = PT_B32;
	return 0;
}

/* suld.b, sust.b/.p and sured.b: geometry, vector, data type, out-of-range mode. */
static int finish_surface(const char *text, const struct tex_words *w, struct ptx_insn *ins, char *msg, size_t n)
{
	static const int plain[] = {TXG_1D, TXG_2D, TXG_3D};
	enum ptx_type t = w->ntypes == 1 ? w->types[0] : PT_NONE;
	bool formatted = w->mode == SU_FORMATTED;
	if (w->mode < 0 || w->geom < 0 || w->geom > TXG_A2D || w->ntypes != 1)
		return refuse(msg, n, text, "expected .b or .p, a geometry 1d, 2d, 3d, a1d or a2d, and a type");
	if (ins->op == OP_SURED) {
		static const int types[] = {PT_U32, PT_U64, PT_S32, PT_B32, PT_S64};
		if (formatted)
			return refuse(msg, n, text, "sured.p (sample addressing) is not simulated; use sured.b");
		if (w->redop < 0 || !is_one_of(w->geom, plain, 3) || !is_one_of(t, types, GL_ARRAY_LEN(types)) ||
		    w->vec != 1)
			return refuse(msg, n, text,
				      "expected sured.b.{add,min,max,and,or}.{1d,2d,3d}.{u32,u64,s32,b32,s64}");
		if (t == PT_B32 && w->redop != AOP_AND && w->redop != AOP_OR)
			return refuse(msg, n, text, ".b32 takes .and or .or");
		ins->btype = (uint8_t)w->redop;
	} else if (formatted) {
		if (ins->op != OP_SUST || t != PT_B32 || !is_one_of(w->geom, plain, 3))
			return refuse(msg, n, text, "formatted access is sust.p.{1d,2d,3d}.VEC.b32");
	} else if (t != PT_B8 && t != PT_B16 && t != PT_B32 && t != PT_B64) {
		return refuse(msg, n, text, "unformatted data is .b8, .b16, .b32 or .b64");
	} else if (w->vec * ptx_type_bytes(t) > 16) {
		return refuse(msg, n, text, "at most 16 bytes per access");
	}
	ins->type = (uint8_t)t;
	ins->sub2 = (uint8_t)(w->clamp | (formatted ? SU_FORMATTED : 0));
	return 0;
}

int ptx_decode_texop(const char *text, const char *mods, struct ptx_insn *ins, char *msg, size_t msgn)
{
	struct tex_words w;
	enum ptx_op op = (enum ptx_op)ins->op;
	if (classify_words(text, mods, op, &w, msg, msgn))
		return -1;
	ins->sub = (uint8_t)(w.geom < 0 ? 0 : w.geom);
	ins->vec = (uint8_t)w.vec;
	switch (op) {
	case OP_TEX: case OP_TLD4: return finish_fetch(text, &w, ins, msg, msgn);
	case OP_TXQ: case OP_SUQ: return finish_query(text, &w, ins, msg, msgn);
	default: return finish_surface(text, &w, ins, msg, msgn);
	}
}

int ptx_tex_coords_needed(const struct ptx_insn *ins)
{
	static const uint8_t needed[] = {[TXG_1D] = 1, [TXG_2D] = 2, [TXG_3D] = 3, [TXG_A1D] = 2,
					 [TXG_A2D] = 3, [TXG_CUBE] = 3, [TXG_ACUBE] = 4};
	if (ins->op == OP_TXQ || ins->op == OP_SUQ || ins->sub >= GL_ARRAY_LEN(needed))
		return 0;
	return needed[ins->sub];
}

/* Elements of a value operand: a register is one, a {vector} its count. */
static int elements(const struct ptx_operand *o)
{
	return o->kind == PO_VEC ? o->nvec : o->kind == PO_SLOT ? 1 : -1;
}

/* tex's operands after [a, c]: a level's lod, a gradient's two vectors; offsets and depth compares are
 * not simulated. */
static int check_fetch_extras(const struct ptx_insn *ins, char *msg, size_t n)
{
	int extras = ins->op != OP_TEX ? 0 : ins->sub2 == TXM_LEVEL ? 1 : ins->sub2 == TXM_GRAD ? 2 : 0;
	if (ins->nops > 2 + extras) {
		snprintf(msg, n, "has an offset or depth-compare operand, which the simulator does not run");
		return -1;
	}
	if (ins->nops < 2 + extras) {
		snprintf(msg, n, "needs %s after [a, c]", extras == 1 ? "the level of detail" : "dPdx and dPdy");
		return -1;
	}
	int got = elements(&ins->ops[0]);
	if (ins->ops[0].kind != PO_VEC || (got != 4 && got != 5)) {
		snprintf(msg, n, "writes a vector of four registers (and optionally |p)");
		return -1;
	}
	return 0;
}

int ptx_tex_check_operands(const struct ptx_insn *ins, char *msg, size_t n)
{
	bool store = ins->op == OP_SUST || ins->op == OP_SURED;
	const struct ptx_operand *m = &ins->ops[store ? 0 : 1];
	if (ins->nops < 2 || m->kind != PO_MEM)
		return 0; /* the generic shape check names what is missing */
	int need = ptx_tex_coords_needed(ins);
	if (m->nvec < need || (need == 0 && m->nvec > 0)) {
		if (need)
			snprintf(msg, n, "takes %d coordinate%s for its geometry, [a, {...}] has %d", need,
				 need == 1 ? "" : "s", m->nvec);
		else
			snprintf(msg, n, "takes only the object: [a]");
		return -1;
	}
	if (ins->op == OP_TEX || ins->op == OP_TLD4)
		return check_fetch_extras(ins, msg, n);
	if (ins->nops != 2) {
		snprintf(msg, n, "takes two operands");
		return -1;
	}
	const struct ptx_operand *data = &ins->ops[store ? 1 : 0];
	int want = ins->op == OP_TXQ || ins->op == OP_SUQ || ins->op == OP_SURED ? 1 : ins->vec;
	if (elements(data) != want) {
		snprintf(msg, n, "%s %d register%s", store ? "stores" : "loads", want, want == 1 ? "" : "s");
		return -1;
	}
	return 0;
}
