/* test_sim_mma_tile.c — sim_frag_mma's direct path for mma.sync m16n8kK with floating-point inputs
 * against the general one (sim_frag_gather, sim_mma_compute, sim_frag_scatter, which every other shape
 * takes): f16 inputs with f32 and f16 accumulators at k16 and k8, bf16 at k16, tf32 at k8 and k4, on
 * random register bits (NaNs, infinities, subnormals and signed zeros among them), on tiles with only
 * finite special values (the vectorised f16/f32 paths: sim_mma_hw_16x8's AVX2/FMA/F16C form, which
 * sim_frag_mma takes first where the CPU has them and which is also called on its own, and the portable
 * one), and on registers the result overwrites (D the same as C).  Every result bit must agree. */
#include <stdlib.h>

#include "check.h"
#include "xorshift.h"
#include "sim/sim_mma.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	return xs_next64(&rng);
}

/* Tiles whose special values are only finite ones (zeros, subnormals, the largest subnormal): the
 * vectorised f16/f32 path (sim_mma_frag.c) takes them, where an infinity or NaN sends the whole tile to
 * the element-by-element one. */
static bool finite_only;
static unsigned hw_tiles; /* tiles sim_mma_hw_16x8 computed */

/* Random bits for a register of 16-bit or 32-bit elements; one element in eight is a special value. */
static uint64_t reg_bits(enum ptx_type t)
{
	static const uint16_t h16[] = {0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x0001, 0x8000, 0x0000, 0x03ff};
	static const uint16_t b16[] = {0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x0001, 0x8000, 0x0000, 0x007f};
	static const uint32_t f32[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 1, 0x80000000, 0, 0x007fffff};
	uint64_t v = 0;
	if (t == PT_F16 || t == PT_BF16) {
		for (unsigned j = 0; j < 2; j++) {
			uint64_t x = next(), e = (x >> 20) & 0xffff;
			if ((x & (finite_only ? 63 : 7)) == 0) /* finite only: rarer, so that most registers hold none */
				e = (t == PT_F16 ? h16 : b16)[finite_only ? 4 + ((x >> 6) & 3) : (x >> 3) & 7];
			else if (t == PT_BF16)
				e = (e & 0x807f) | 0x3f00 | ((x >> 40) & 0x80); /* exponents near 1 */
			else
				e = (e & 0x83ff) | 0x3800 | ((x >> 40) & 0x400);
			v |= e << (16 * j);
		}
		return v;
	}
	uint64_t x = next();
	if (finite_only)
		return (x & 63) == 0 ? f32[4 + ((x >> 6) & 3)] : ((x >> 20) & 0x807fffffu) | 0x3f000000u;
	return (x & 7) == 0 ? f32[(x >> 3) & 7] : ((x >> 20) & 0x807fffffu) | 0x3f000000u;
}

/* One tile: A, B, C in registers 0.., D in the registers `d0`.. (C's own when d0 is C's first). */
static void tile(enum ptx_type at, enum ptx_type ct, enum ptx_type dt, unsigned K, bool d_is_c)
{
	struct sim_frag fa = sim_frag_make(FRAG_A, 16, K, at), fb = sim_frag_make(FRAG_B, K, 8, at);
	struct sim_frag fc = sim_frag_make(FRAG_C, 16, 8, ct), fd = sim_frag_make(FRAG_C, 16, 8, dt);
	static uint64_t regs[3][64 * 32];
	struct ptx_insn ins = {0};
	int slot = 0;
	ins.ops[1].nvec = (uint8_t)fa.unique;
	for (unsigned r = 0; r < fa.unique; r++)
		ins.ops[1].vec[r] = slot++;
	ins.ops[2].nvec = (uint8_t)fb.unique;
	for (unsigned r = 0; r < fb.unique; r++)
		ins.ops[2].vec[r] = slot++;
	int c0 = slot;
	ins.ops[3].nvec = (uint8_t)fc.unique;
	for (unsigned r = 0; r < fc.unique; r++)
		ins.ops[3].vec[r] = slot++;
	ins.ops[0].nvec = (uint8_t)fd.unique;
	for (unsigned r = 0; r < fd.unique; r++)
		ins.ops[0].vec[r] = d_is_c ? c0 + (int)r : slot++;
	for (int s = 0; s < slot; s++) {
		enum ptx_type t = s < c0 ? at : ct;
		for (int l = 0; l < 32; l++)
			regs[0][s * 32 + l] = regs[1][s * 32 + l] = regs[2][s * 32 + l] = reg_bits(t);
	}
	struct sim_cta cta = {0};
	struct sim_warp fast = {.r = regs[0], .nslots = 64}, general = {.r = regs[1], .nslots = 64};
	sim_frag_mma(&cta, &fast, &ins, 16, 8, K, &fa, &fb, &fc, &fd);
	static sim_mat a, b, c, d;
	sim_frag_gather(&cta, &general, &fa, ins.ops[1].vec, a);
	sim_frag_gather(&cta, &general, &fb, ins.ops[2].vec, b);
	sim_frag_gather(&cta, &general, &fc, ins.ops[3].vec, c);
	sim_mma_compute(16, 8, K, at, at, ct, dt, false, a, b, c, d);
	sim_frag_scatter(&general, &fd, ins.ops[0].vec, fd.unique, d);
	CHECK(memcmp(regs[0], regs[1], sizeof regs[0]) == 0);
	if (at != PT_F16 || ct != PT_F32 || dt != PT_F32)
		return;
	/* sim_mma_hw_16x8 on its own (sim_frag_mma takes it first where the CPU allows): the general path's
	 * bits, or nothing written */
	uint64_t before[64 * 32];
	memcpy(before, regs[2], sizeof before);
	struct sim_warp hw = {.r = regs[2], .nslots = 64};
	bool done = sim_mma_hw_16x8(&cta, &hw, &ins, K);
	hw_tiles += done;
	CHECK(memcmp(regs[2], done ? regs[1] : before, sizeof before) == 0);
}

int main(void)
{
	for (int i = 0; i < 200; i++) {
		tile(PT_F16, PT_F32, PT_F32, 16, i & 1);
		tile(PT_F16, PT_F16, PT_F16, 16, i & 1);
		tile(PT_F16, PT_F32, PT_F16, 16, false);
		tile(PT_F16, PT_F16, PT_F32, 8, false);
		tile(PT_BF16, PT_F32, PT_F32, 16, i & 1);
		tile(PT_TF32, PT_F32, PT_F32, 8, i & 1);
		tile(PT_TF32, PT_F32, PT_F32, 4, false);
	}
	finite_only = true;
	for (int i = 0; i < 200; i++) {
		tile(PT_F16, PT_F32, PT_F32, 16, i & 1);
		tile(PT_F16, PT_F32, PT_F32, 8, i & 1);
	}
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
		CHECK(hw_tiles > 300); /* most finite-only tiles (a few hold an infinity or NaN in C) */
#endif
	/* the portable vector form, which CPUs without those instructions take */
	unsigned hw_before = hw_tiles;
	sim_mma_hw_allow(false);
	for (int i = 0; i < 200; i++) {
		tile(PT_F16, PT_F32, PT_F32, 16, i & 1);
		tile(PT_F16, PT_F32, PT_F32, 8, i & 1);
	}
	CHECK_EQ(hw_tiles, hw_before);
	CHECK_DONE();
}
