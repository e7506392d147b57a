/* sim_tex.h — textures and surfaces: the PTX ISA's texture and surface rules and the CUDA Programming
 * Guide's texture fetching formulas, as pure functions of one object (common/texture.h) and one lane's
 * coordinates (sim_tex_sample.c, sim_surf.c), and the executors that run tex, tld4, txq, suld, sust,
 * suq and sured for a warp (sim_tex_exec.c).  docs/sim.md, "Textures and surfaces". */
#ifndef GL_SIM_TEX_H
#define GL_SIM_TEX_H

#include <stdbool.h>
#include <stdint.h>

#include "common/texture.h"
#include "ptx_ops.h"

/* OpenCL 1.0's channel data type and channel order values, which txq and suq return (PTX ISA, "Channel
 * Data Type and Channel Order Fields"). */
enum {
	SIM_CL_SNORM_INT8 = 0x10D0, SIM_CL_SNORM_INT16 = 0x10D1, SIM_CL_UNORM_INT8 = 0x10D2,
	SIM_CL_UNORM_INT16 = 0x10D3, SIM_CL_SIGNED_INT8 = 0x10D7, SIM_CL_SIGNED_INT16 = 0x10D8,
	SIM_CL_SIGNED_INT32 = 0x10D9, SIM_CL_UNSIGNED_INT8 = 0x10DA, SIM_CL_UNSIGNED_INT16 = 0x10DB,
	SIM_CL_UNSIGNED_INT32 = 0x10DC, SIM_CL_HALF_FLOAT = 0x10DD, SIM_CL_FLOAT = 0x10DE,
	SIM_CL_R = 0x10B0, SIM_CL_RG = 0x10B2, SIM_CL_RGBA = 0x10B5,
};

/* Normalised reads of 8- and 16-bit integers: unsigned v / (2^bits - 1) in [0, 1]; signed
 * max(v / (2^(bits-1) - 1), -1) in [-1, 1]. */
float sim_tex_unorm(uint32_t v, unsigned bits);
float sim_tex_snorm(int32_t v, unsigned bits);
/* A linear filter's weight of the upper texel, in 1.8 fixed point: round(frac x 256), 0..256 (the
 * Guide: "9-bit fixed point format with 8 bits of fractional value, so 1.0 is exactly represented"). */
unsigned sim_tex_weight(float frac);
/* Texel index i of a dimension of n texels under an address mode: an index in [0, n), or -1 when it
 * falls on the border (GL_TEXADDR_BORDER). */
int64_t sim_tex_address(int64_t i, uint64_t n, enum gl_tex_address mode);

/* Whether an instruction of geometry g may read object o (its resource has that shape; a surface
 * instruction's .a2d may also address a cubemap's faces); else *why says what o is. */
bool sim_tex_geom_fits(const struct gl_tex_object *o, enum ptx_tex_geom g, bool surface, const char **why);

/* One lane of tex: the coordinate vector c (c[k] the 32-bit bits of element k: .s32 integers when
 * int_coords, else .f32), four result words (f32 bits for a texture that returns floats, 32-bit
 * integers otherwise).  A geometry the object fits (sim_tex_geom_fits). */
void sim_tex_sample(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4], bool int_coords,
		    uint32_t out[4]);
/* One lane of tld4: channel `comp` of the four texels of the bilinear footprint, counter-clockwise from
 * the lower left: (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
void sim_tex_gather(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4], unsigned comp,
		    uint32_t out[4]);
/* txq and suq. */
uint32_t sim_tex_query(const struct gl_tex_object *o, enum ptx_tex_query q);

/* Surfaces (sim_surf.c).  Where an access of `size` bytes lands, after the out-of-range mode: */
enum sim_surf_hit { SURF_IN, SURF_OUT, SURF_MISALIGNED };
struct sim_surf_at {
	enum sim_surf_hit hit;
	uint8_t *host;        /* SURF_IN: the first byte */
	int64_t x, y, z;      /* the coordinates asked for (x in bytes), for messages */
};
/* c: the coordinate vector's bits (.s32; a1d/a2d: the layer first); formatted: x counts texels
 * (sust.p), else bytes.  SU_CLAMP moves an outside access to the nearest location inside, aligned to
 * its size; SU_TRAP and SU_ZERO leave it SURF_OUT for the caller. */
struct sim_surf_at sim_surf_locate(const struct gl_tex_object *o, enum ptx_tex_geom g, const uint32_t c[4],
				   unsigned size, bool formatted, enum ptx_surf_clamp mode);
/* sust.p: the 32-bit source values (f32 for float formats, u32/s32 for integer ones) converted to the
 * texel's format at p; channels beyond `n` values are written as 0. */
void sim_surf_store_formatted(const struct gl_tex_object *o, uint8_t *p, const uint32_t *v, unsigned n);

#endif
