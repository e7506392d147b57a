/* sim_tex_exec.c — tex, tld4, txq, suld, sust, suq and sured for the lanes of a warp: each lane's
 * handle is looked up in the launch's objects (an unknown one, or one of the wrong kind or shape, is an
 * `invalid-texture` finding and reads zero), its coordinates go through the rules of sim_tex_sample.c
 * and sim_surf.c, and each warp-level instruction with a lane on is counted (one instruction, one
 * request).  Both engines run these through here: the compiled engine calls the interpreter for them. */
#include <inttypes.h>
#include <stdlib.h>

#include "sim_exec.h"
#include "sim_tex.h"

static int by_handle(const void *a, const void *b)
{
	const struct gl_tex_object *const *x = a, *const *y = b;
	return (*x)->handle < (*y)->handle ? -1 : (*x)->handle > (*y)->handle;
}

void sim_tex_setup(struct sim_launch *L, const struct gl_launch *l)
{
	L->ntex = l->textures ? l->ntextures : 0;
	L->tex = NULL;
	if (!L->ntex)
		return;
	L->tex = gl_xmalloc((size_t)L->ntex * sizeof *L->tex);
	for (int i = 0; i < L->ntex; i++)
		L->tex[i] = &l->textures[i];
	qsort(L->tex, (size_t)L->ntex, sizeof *L->tex, by_handle);
}

void sim_tex_free(struct sim_launch *L)
{
	free(L->tex);
	L->tex = NULL;
	L->ntex = 0;
}

static const struct gl_tex_object *find(const struct sim_launch *L, uint64_t h)
{
	int lo = 0, hi = L->ntex - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		uint64_t v = L->tex[mid]->handle;
		if (v == h)
			return L->tex[mid];
		if (v < h)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

static const char *const geom_names[] = {
	[TXG_1D] = "1d", [TXG_2D] = "2d", [TXG_3D] = "3d", [TXG_A1D] = "a1d", [TXG_A2D] = "a2d",
	[TXG_CUBE] = "cube", [TXG_ACUBE] = "acube",
};

/* The lanes' objects, looked up once per distinct handle in a row of lanes. */
struct lookup {
	uint64_t handle;
	const struct gl_tex_object *obj;
	bool valid;
};

/* Lane l's object for `ins`, or NULL after an invalid-texture finding (no such handle, the other kind,
 * or a shape the instruction's geometry cannot read). */
static const struct gl_tex_object *lane_object(struct sim_cta *cta, const struct ptx_insn *ins, int l, uint64_t h,
					       struct lookup *c)
{
	enum ptx_op op = (enum ptx_op)ins->op;
	bool surface = op == OP_SULD || op == OP_SUST || op == OP_SUQ || op == OP_SURED;
	const char *name = ptx_op_name(op), *what;
	if (!c->valid || c->handle != h)
		*c = (struct lookup){h, find(cta->L, h), true};
	const struct gl_tex_object *o = c->obj;
	if (!o) {
		sim_finding(cta, ins, l, "invalid-texture", PS_NONE, h, 0, false, "%s: no %s object of this launch has "
			    "the handle %" PRIu64 " (never created, or destroyed before the launch)", name,
			    surface ? "surface" : "texture", h);
		return NULL;
	}
	if ((o->kind == GL_TEX_SURFACE) != surface) {
		sim_finding(cta, ins, l, "invalid-texture", PS_NONE, h, 0, false, "%s: handle %" PRIu64 " is a %s "
			    "object, not a %s object", name, h, surface ? "texture" : "surface",
			    surface ? "surface" : "texture");
		return NULL;
	}
	if (op != OP_TXQ && op != OP_SUQ && !sim_tex_geom_fits(o, (enum ptx_tex_geom)ins->sub, surface, &what)) {
		sim_finding(cta, ins, l, "invalid-texture", PS_NONE, h, 0, false, "%s.%s on %s %" PRIu64
			    ", which is %s", name, geom_names[ins->sub], surface ? "surface" : "texture", h, what);
		return NULL;
	}
	return o;
}

/* Lane l's coordinate vector, as 32-bit words. */
static void lane_coords(struct sim_cta *cta, struct sim_warp *w, const struct ptx_operand *m, int l, uint32_t c[4])
{
	for (int k = 0; k < 4; k++)
		c[k] = k < m->nvec ? (uint32_t)sim_src(cta, w, m->vec[k])[l] : 0;
}

/* Register k of a value operand (a register or a {vector}); -1 for the sink. */
static int reg_of(const struct ptx_operand *o, int k)
{
	return o->kind == PO_VEC ? o->vec[k] : o->slot;
}

static int exec_fetch(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *d = &ins->ops[0], *m = &ins->ops[1];
	const uint64_t *h = sim_src(cta, w, m->slot);
	bool int_coords = ins->type2 == PT_S32;
	struct lookup cache = {0};
	FOR_LANES(mask, l) {
		uint32_t c[4], out[4] = {0};
		const struct gl_tex_object *o = lane_object(cta, ins, (int)l, h[l], &cache);
		if (o) {
			lane_coords(cta, w, m, (int)l, c);
			if (ins->op == OP_TLD4)
				sim_tex_gather(o, (enum ptx_tex_geom)ins->sub, c, ins->sub2, out);
			else
				sim_tex_sample(o, (enum ptx_tex_geom)ins->sub, c, int_coords, out);
		}
		for (int k = 0; k < 4; k++)
			if (d->vec[k] >= 0)
				sim_reg(w, d->vec[k])[l] = out[k];
		if (d->nvec == 5 && d->vec[4] >= 0) /* |p: resident (there is no sparse memory here) */
			sim_reg(w, d->vec[4])[l] = o != NULL;
	}
	if (mask) {
		cta->c.tex_inst++;
		if (ins->op == OP_TEX)
			*(int_coords ? &cta->c.tex_tld : &cta->c.tex_tex) += 1;
	}
	return 0;
}

static int exec_query(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	uint64_t *d = sim_reg(w, ins->ops[0].slot);
	const uint64_t *h = sim_src(cta, w, ins->ops[1].slot);
	struct lookup cache = {0};
	FOR_LANES(mask, l) {
		const struct gl_tex_object *o = lane_object(cta, ins, (int)l, h[l], &cache);
		d[l] = o ? sim_tex_query(o, (enum ptx_tex_query)ins->sub2) : 0;
	}
	return 0;
}

/* A surface access outside the surface under .trap, or misaligned: a finding naming the coordinates. */
static void surf_finding(struct sim_cta *cta, const struct ptx_insn *ins, int l, const struct gl_tex_object *o,
			 const struct sim_surf_at *at, unsigned size, bool store)
{
	const struct gl_tex_resource *r = &o->res;
	const char *dir = ins->op == OP_SULD ? "read" : ins->op == OP_SUST ? "write" : "reduction";
	if (at->hit == SURF_MISALIGNED) {
		sim_finding_at(cta, ins, l, "misaligned", "surface", (uint64_t)at->x, size, false,
			       "surface %s of %u bytes at x = %" PRId64 " bytes of surface %" PRIu64
			       ": x is not a multiple of %u", dir, size, at->x, o->handle, size);
		return;
	}
	sim_finding_at(cta, ins, l, "out-of-bounds", "surface", (uint64_t)at->x, size, false,
		       "surface %s of %u bytes at x = %" PRId64 " bytes, y = %" PRId64 ", z/layer = %" PRId64
		       " is outside surface %" PRIu64 " (%" PRIu64 " x %" PRIu64 " texels of %u bytes%s): %s.trap "
		       "traps there on a GPU",
		       dir, size, at->x, at->y, at->z, o->handle, r->width, r->height ? r->height : 1,
		       gl_tex_texel_bytes(r), r->depth || r->layers ? ", more slices" : "", store ? "sust" : "suld");
}

static int exec_suld(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *d = &ins->ops[0], *m = &ins->ops[1];
	const uint64_t *h = sim_src(cta, w, m->slot);
	unsigned size = ptx_type_bytes(ins->type), total = size * ins->vec;
	enum ptx_surf_clamp mode = (enum ptx_surf_clamp)(ins->sub2 & 3);
	struct lookup cache = {0};
	FOR_LANES(mask, l) {
		uint64_t v[4] = {0};
		uint32_t c[4];
		const struct gl_tex_object *o = lane_object(cta, ins, (int)l, h[l], &cache);
		if (o) {
			lane_coords(cta, w, m, (int)l, c);
			struct sim_surf_at at = sim_surf_locate(o, (enum ptx_tex_geom)ins->sub, c, total, false, mode);
			if (at.hit == SURF_IN)
				for (unsigned k = 0; k < ins->vec; k++)
					memcpy(&v[k], at.host + k * size, size);
			else if (at.hit == SURF_MISALIGNED || mode == SU_TRAP)
				surf_finding(cta, ins, (int)l, o, &at, total, false);
		}
		for (unsigned k = 0; k < ins->vec; k++)
			if (reg_of(d, (int)k) >= 0)
				sim_reg(w, reg_of(d, (int)k))[l] = v[k];
	}
	cta->c.surf_ld += mask != 0;
	return 0;
}

static int exec_sust(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *m = &ins->ops[0], *s = &ins->ops[1];
	const uint64_t *h = sim_src(cta, w, m->slot);
	bool formatted = ins->sub2 & SU_FORMATTED;
	unsigned size = ptx_type_bytes(ins->type);
	enum ptx_surf_clamp mode = (enum ptx_surf_clamp)(ins->sub2 & 3);
	struct lookup cache = {0};
	FOR_LANES(mask, l) {
		uint32_t c[4], v32[4];
		const struct gl_tex_object *o = lane_object(cta, ins, (int)l, h[l], &cache);
		if (!o)
			continue;
		lane_coords(cta, w, m, (int)l, c);
		unsigned total = formatted ? gl_tex_texel_bytes(&o->res) : size * ins->vec;
		struct sim_surf_at at = sim_surf_locate(o, (enum ptx_tex_geom)ins->sub, c, total, formatted, mode);
		if (at.hit != SURF_IN) {
			if (at.hit == SURF_MISALIGNED || mode == SU_TRAP)
				surf_finding(cta, ins, (int)l, o, &at, total, true);
			continue; /* .zero drops the store */
		}
		for (unsigned k = 0; k < ins->vec; k++) {
			uint64_t x = sim_src(cta, w, reg_of(s, (int)k))[l];
			v32[k] = (uint32_t)x;
			if (!formatted)
				memcpy(at.host + k * size, &x, size); /* little endian: the register's low bytes */
		}
		if (formatted)
			sim_surf_store_formatted(o, at.host, v32, ins->vec);
	}
	cta->c.surf_st += mask != 0;
	return 0;
}

/* sured.b: an atomic add, min, max, and or or on the surface word (lanes apply in lane order). */
static uint64_t reduce(enum ptx_atomop op, enum ptx_type t, uint64_t a, uint64_t b)
{
	unsigned n = ptx_type_bytes(t);
	bool sgn = t == PT_S32 || t == PT_S64;
	int64_t sa = sim_sext(a, n), sb = sim_sext(b, n);
	uint64_t ua = sim_trunc(a, n), ub = sim_trunc(b, n);
	switch (op) {
	case AOP_ADD: return ua + ub;
	case AOP_MIN: return sgn ? (uint64_t)(sa < sb ? sa : sb) : ua < ub ? ua : ub;
	case AOP_MAX: return sgn ? (uint64_t)(sa > sb ? sa : sb) : ua > ub ? ua : ub;
	case AOP_AND: return ua & ub;
	default: return ua | ub;
	}
}

static int exec_sured(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	const struct ptx_operand *m = &ins->ops[0];
	const uint64_t *h = sim_src(cta, w, m->slot), *b = sim_src(cta, w, ins->ops[1].slot);
	unsigned size = ptx_type_bytes(ins->type);
	enum ptx_surf_clamp mode = (enum ptx_surf_clamp)(ins->sub2 & 3);
	struct lookup cache = {0};
	FOR_LANES(mask, l) {
		uint32_t c[4];
		const struct gl_tex_object *o = lane_object(cta, ins, (int)l, h[l], &cache);
		if (!o)
			continue;
		lane_coords(cta, w, m, (int)l, c);
		struct sim_surf_at at = sim_surf_locate(o, (enum ptx_tex_geom)ins->sub, c, size, false, mode);
		if (at.hit != SURF_IN) {
			if (at.hit == SURF_MISALIGNED || mode == SU_TRAP)
				surf_finding(cta, ins, (int)l, o, &at, size, true);
			continue;
		}
		uint64_t old = 0;
		memcpy(&old, at.host, size);
		uint64_t v = reduce((enum ptx_atomop)ins->btype, (enum ptx_type)ins->type, old, b[l]);
		memcpy(at.host, &v, size);
	}
	cta->c.surf_red += mask != 0;
	return 0;
}

int sim_exec_tex(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	switch (ins->op) {
	case OP_TEX: case OP_TLD4: return exec_fetch(cta, w, ins, mask);
	case OP_TXQ: case OP_SUQ: return exec_query(cta, w, ins, mask);
	case OP_SULD: return exec_suld(cta, w, ins, mask);
	case OP_SUST: return exec_sust(cta, w, ins, mask);
	default: return exec_sured(cta, w, ins, mask);
	}
}
