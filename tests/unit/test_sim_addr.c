/* test_sim_addr.c — the checked address translation (sim/sim_addr.h): every space (global, const,
 * shared, local, param, and generic addresses through each window) driven with the boundary values
 * 0, end-size, end-size+1, end, 2^64-size, 2^64-1 and negative offsets, for every access size; then
 * the address width of each space (.shared and .local: 32 bits, the rest 64); then
 * whole kernels (tests/fixtures/sim/wrap.ptx) whose lanes address within an access of 2^64 must give
 * findings and leave every byte of host memory outside the addressed buffer as it was; a parameter
 * that .align pushes past the parameter buffer is refused, and bar.red's barrier id is range-checked
 * before it indexes the CTA's barrier arrays. */
#include "sim/sim_addr.h"
#include "tests/unit/sim_fixture.h"

#define BUF_BYTES 256
#define MOD_BYTES 64
#define SHARED_BYTES 128
#define LOCAL_BYTES 32
#define PARAM_BYTES 4096

static uint8_t buf[BUF_BYTES], mod[MOD_BYTES], shared[SHARED_BYTES], local[LOCAL_BYTES], params[PARAM_BYTES];
static const struct sim_region regions[] = {
	{GL_SIM_GLOBAL_BASE, BUF_BYTES, buf, "buf"},
	{PTX_MODULE_BASE, MOD_BYTES, mod, "module globals"},
};
static const struct sim_memmap map = {
	.regions = regions, .nregions = 2,
	.shared = shared, .shared_size = SHARED_BYTES,
	.local = local, .local_size = LOCAL_BYTES,
	.params = params, .params_size = PARAM_BYTES, .module_base = PTX_MODULE_BASE,
};

static void test_span_rule(void)
{
	CHECK(sim_span_in(0, 0, 0));
	CHECK(!sim_span_in(1, 0, 0));
	CHECK(sim_span_in(0, 4, 4));
	CHECK(!sim_span_in(0, 5, 4));
	CHECK(!sim_span_in(1, 4, 4));
	CHECK(sim_span_in(UINT64_MAX - 4, 4, UINT64_MAX));
	CHECK(!sim_span_in(UINT64_MAX - 3, 4, UINT64_MAX));
	CHECK(!sim_span_in(UINT64_MAX - 3, 4, 128)); /* the wrap that a + size <= end lets through */
	CHECK(!sim_span_in(UINT64_MAX, 1, 128));
	CHECK(!sim_span_in(4, UINT64_MAX, 128));
}

/* One space of `end` bytes whose byte 0 is at address `start` and at host `host`. */
struct space_case {
	const char *name;
	enum ptx_space space;
	uint64_t start, end;
	uint8_t *host;
	bool aligned;        /* param accesses may be unaligned */
};

static void expect_hit(const struct space_case *c, uint64_t off, unsigned size, bool is_store)
{
	struct sim_xlat x = sim_addr_translate(&map, c->space, c->start + off, size, is_store);
	if (x.miss != SIM_HIT || x.host != c->host + off)
		fprintf(stderr, "  %s: offset %llu size %u should hit\n", c->name, (unsigned long long)off, size);
	CHECK_EQ(x.miss, SIM_HIT);
	CHECK(x.host == c->host + off);
}

static void expect_miss(const struct space_case *c, uint64_t addr, unsigned size, enum sim_miss want)
{
	struct sim_xlat x = sim_addr_translate(&map, c->space, addr, size, false);
	if (x.miss != want)
		fprintf(stderr, "  %s: address 0x%llx size %u: miss %d, want %d\n", c->name, (unsigned long long)addr,
			size, x.miss, want);
	CHECK_EQ(x.miss, want);
	CHECK(x.host == NULL);
}

/* The miss an address outside the space gives: misaligned where the resolved space checks alignment
 * (every space but param) and the address is not a multiple of the size, else out of bounds.  The
 * windows start at multiples of 2^40, so the generic address has the alignment of its offset. */
static enum sim_miss want(const struct space_case *c, uint64_t addr, unsigned size)
{
	uint64_t a = addr;
	enum ptx_space sp = c->space == PS_GENERIC ? sim_resolve_generic(&a) : c->space;
	return sp != PS_PARAM && size > 1 && (addr & (size - 1)) ? SIM_MISALIGNED : SIM_OUT_OF_BOUNDS;
}

static void boundaries(const struct space_case *c)
{
	for (unsigned size = 1; size <= 16; size *= 2) {
		uint64_t last = c->end - size, at[] = {
			c->start + last + 1,   /* end - size + 1 */
			c->start + c->end,     /* end */
			UINT64_MAX - size + 1, /* 2^64 - size: a + size wraps to 0 */
			UINT64_MAX,            /* 2^64 - 1 */
			c->start - size,       /* negative offsets */
			c->start - 1,
		};
		expect_hit(c, 0, size, false);
		expect_hit(c, last, size, false);
		for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
			expect_miss(c, at[i], size, want(c, at[i], size));
	}
}

static void test_spaces(void)
{
	const struct space_case cases[] = {
		{"global", PS_GLOBAL, GL_SIM_GLOBAL_BASE, BUF_BYTES, buf, true},
		{"const", PS_CONST, PTX_MODULE_BASE, MOD_BYTES, mod, true},
		{"shared", PS_SHARED, 0, SHARED_BYTES, shared, true},
		{"local", PS_LOCAL, 0, LOCAL_BYTES, local, true},
		{"param", PS_PARAM, 0, PARAM_BYTES, params, false},
		{"generic global", PS_GENERIC, GL_SIM_GLOBAL_BASE, BUF_BYTES, buf, true},
		{"generic shared", PS_GENERIC, PTX_SHARED_WINDOW, SHARED_BYTES, shared, true},
		{"generic local", PS_GENERIC, PTX_LOCAL_WINDOW, LOCAL_BYTES, local, true},
		{"generic param", PS_GENERIC, PTX_PARAM_WINDOW, PARAM_BYTES, params, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		boundaries(&cases[i]);
}

static void test_resolution_and_rules(void)
{
	/* a generic address reports the space it resolved to and the offset inside it */
	struct sim_xlat x = sim_addr_translate(&map, PS_GENERIC, PTX_SHARED_WINDOW + 8, 4, true);
	CHECK_EQ(x.space, PS_SHARED);
	CHECK_EQ(x.offset, 8);
	CHECK(x.host == shared + 8);
	x = sim_addr_translate(&map, PS_NONE, PTX_LOCAL_WINDOW + 4, 4, false);
	CHECK_EQ(x.space, PS_LOCAL);
	CHECK(x.host == local + 4);
	/* parameters and constants are read-only */
	CHECK_EQ(sim_addr_translate(&map, PS_PARAM, 0, 4, true).miss, SIM_READ_ONLY);
	CHECK_EQ(sim_addr_translate(&map, PS_GENERIC, PTX_PARAM_WINDOW, 4, true).miss, SIM_READ_ONLY);
	CHECK_EQ(sim_addr_translate(&map, PS_CONST, PTX_MODULE_BASE, 4, true).miss, SIM_READ_ONLY);
	/* constant space is the module's data, not a kernel buffer */
	x = sim_addr_translate(&map, PS_CONST, GL_SIM_GLOBAL_BASE, 4, false);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK(x.region == &regions[0]);
	/* past a buffer: no region, the buffer is the nearest one below */
	x = sim_addr_translate(&map, PS_GLOBAL, GL_SIM_GLOBAL_BASE + BUF_BYTES + 64, 4, false);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK(x.region == NULL);
	CHECK(x.near == &regions[0]);
	/* a read that starts inside the buffer and runs past its end names the buffer */
	x = sim_addr_translate(&map, PS_GLOBAL, GL_SIM_GLOBAL_BASE + BUF_BYTES - 8, 16, false);
	CHECK_EQ(x.miss, SIM_MISALIGNED);
	x = sim_addr_translate(&map, PS_GLOBAL, GL_SIM_GLOBAL_BASE + BUF_BYTES - 4, 8, false);
	CHECK_EQ(x.miss, SIM_MISALIGNED);
	struct sim_region odd[] = {{GL_SIM_GLOBAL_BASE, 12, buf, "odd"}};
	struct sim_memmap m2 = map;
	m2.regions = odd, m2.nregions = 1;
	x = sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + 8, 8, false);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK(x.region == &odd[0]);
	/* a region at the very top of the address space: its last bytes hit, nothing wraps past it */
	static uint8_t top[16];
	struct sim_region high[] = {{UINT64_MAX - 15, 16, top, "top"}};
	m2.regions = high;
	CHECK(sim_addr_translate(&m2, PS_GLOBAL, UINT64_MAX - 15, 16, false).host == top);
	CHECK(sim_addr_translate(&m2, PS_GLOBAL, UINT64_MAX - 3, 4, false).host == top + 12);
	CHECK_EQ(sim_addr_translate(&m2, PS_GLOBAL, UINT64_MAX - 3, 8, false).miss, SIM_MISALIGNED);
	CHECK_EQ(sim_addr_translate(&m2, PS_GLOBAL, 0, 4, false).miss, SIM_OUT_OF_BOUNDS);
	/* no local memory at all, and an access larger than the whole space */
	m2 = map;
	m2.local = NULL, m2.local_size = 0, m2.shared_size = 8;
	CHECK_EQ(sim_addr_translate(&m2, PS_LOCAL, 0, 1, false).miss, SIM_OUT_OF_BOUNDS);
	CHECK_EQ(sim_addr_translate(&m2, PS_SHARED, 0, 16, false).miss, SIM_OUT_OF_BOUNDS);
	CHECK(sim_addr_translate(&m2, PS_SHARED, 0, 8, false).host == shared);
}

/* .shared and .local addresses are 32 bits wide: the low 32 bits of the sum are the address.  Global
 * and generic addresses are 64 bits wide; a generic address 4 GiB or more past the shared window's base
 * is outside the window (a window is as large as its space). */
static void test_address_widths(void)
{
	const uint64_t k4g = 1ull << 32;
	struct sim_xlat x = sim_addr_translate(&map, PS_SHARED, k4g + 4, 4, false);
	CHECK_EQ(x.miss, SIM_HIT);
	CHECK(x.host == shared + 4);
	CHECK_EQ(x.offset, 4);
	x = sim_addr_translate(&map, PS_SHARED, UINT64_MAX - 3, 4, true); /* 0xfffffffc: past the end */
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK_EQ(x.offset, 0xfffffffcull);
	x = sim_addr_translate(&map, PS_LOCAL, 0xabcd00000008ull, 8, false);
	CHECK(x.host == local + 8);
	CHECK_EQ(sim_addr_translate(&map, PS_GLOBAL, GL_SIM_GLOBAL_BASE + k4g, 4, false).miss, SIM_OUT_OF_BOUNDS);
	CHECK_EQ(sim_addr_translate(&map, PS_CONST, PTX_MODULE_BASE + k4g, 4, false).miss, SIM_OUT_OF_BOUNDS);
	CHECK_EQ(sim_addr_translate(&map, PS_PARAM, k4g, 4, false).miss, SIM_OUT_OF_BOUNDS);
	x = sim_addr_translate(&map, PS_GENERIC, PTX_SHARED_WINDOW + k4g + 4, 4, false);
	CHECK_EQ(x.space, PS_GLOBAL);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	x = sim_addr_translate(&map, PS_GENERIC, PTX_LOCAL_WINDOW + k4g - 8, 8, false);
	CHECK_EQ(x.space, PS_LOCAL);
	CHECK_EQ(x.offset, k4g - 8);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK_EQ(sim_addr_wrap(PS_SHARED, k4g - 1 + k4g), k4g - 1);
	CHECK_EQ(sim_addr_wrap(PS_GENERIC, k4g + 4), k4g + 4);
	CHECK_EQ(sim_addr_wrap(PS_NONE, k4g + 4), k4g + 4);
	uint64_t lanes[32];
	for (int l = 0; l < 32; l++)
		lanes[l] = k4g * (uint64_t)l + 4 * (uint64_t)l;
	sim_addr_wrap_warp(PS_GLOBAL, lanes, 0xffffffffu);
	CHECK_EQ(lanes[3], 3 * k4g + 12);
	sim_addr_wrap_warp(PS_LOCAL, lanes, 0x0000000fu); /* inactive lanes keep their values */
	CHECK_EQ(lanes[3], 12);
	CHECK_EQ(lanes[4], 4 * k4g + 16);
	sim_addr_wrap_warp(PS_SHARED, lanes, 0xffffffffu);
	for (int l = 0; l < 32; l++)
		CHECK_EQ(lanes[l], 4 * l);
}

/* A global access outside every region whose bytes all lie in one mapping names them (x.mapped); the
 * translation still says out of bounds, so the caller reports it (sim_fault.c decides whether it goes
 * ahead). */
static void test_mapped_bytes(void)
{
	static uint8_t granule[4096];
	const struct sim_region alloc[] = {{GL_SIM_GLOBAL_BASE, 100, granule, "b"}}; /* inside the mapping */
	const struct gl_sim_mapping maps[] = {{GL_SIM_GLOBAL_BASE, sizeof granule, granule}};
	struct sim_memmap m2 = map;
	m2.regions = alloc, m2.nregions = 1, m2.mapped = maps, m2.nmapped = 1;
	struct sim_xlat x = sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + 8, 4, false);
	CHECK_EQ(x.miss, SIM_HIT);
	CHECK(x.host == granule + 8 && x.mapped == NULL);
	x = sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + 100, 4, false);
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK(x.host == NULL && x.mapped == granule + 100);
	CHECK(x.near == &alloc[0]);
	x = sim_addr_translate(&m2, PS_GENERIC, GL_SIM_GLOBAL_BASE + 96, 8, true); /* straddles the end */
	CHECK_EQ(x.miss, SIM_OUT_OF_BOUNDS);
	CHECK(x.region == &alloc[0] && x.mapped == granule + 96);
	x = sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + sizeof granule - 16, 16, false); /* the last */
	CHECK(x.mapped == granule + sizeof granule - 16);
	CHECK(sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + sizeof granule, 4, false).mapped == NULL);
	CHECK(sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE - 4, 4, false).mapped == NULL);
	CHECK(sim_addr_translate(&m2, PS_GLOBAL, GL_SIM_GLOBAL_BASE + 101, 4, false).mapped == NULL); /* misaligned */
	CHECK(sim_addr_translate(&m2, PS_CONST, GL_SIM_GLOBAL_BASE + 100, 4, false).mapped == NULL);
	CHECK(sim_addr_translate(&map, PS_GLOBAL, GL_SIM_GLOBAL_BASE + BUF_BYTES, 4, false).mapped == NULL);
}

/* ---- whole kernels: lane 0 addresses the buffer (or offset 0 of its space), lanes 1..31 `bad` */

/* The finding names the address in the resolved space: the generic address minus its window. */
static void run_wrap_at(struct ptx_module *m, const char *kernel, uint64_t bad, const char *space, uint64_t reported)
{
	struct gl_launch l = {0};
	fx_geometry(&l, kernel, 1, 1, 32, 1);
	int32_t *b = fx_buffer(&l, "b", GL_I32, 128);
	gl_launch_arg_scalar(&l, bad, 8);
	struct gl_sim_result res;
	struct gl_sim_opts o = {.threads = 1};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	CHECK(res.nerrors > 0);
	bool named = false;
	for (int i = 0; i < res.nfindings; i++)
		named |= !res.findings[i].warning && strcmp(res.findings[i].space, space) == 0 &&
			 res.findings[i].address == reported && res.findings[i].thread[0] >= 1;
	if (!named)
		fprintf(stderr, "  %s with 0x%llx: no error in %s space at that address\n", kernel,
			(unsigned long long)bad, space);
	CHECK(named);
	for (int i = 64; i < 128; i++) /* no kernel writes there, and nothing else may */
		CHECK_EQ(b[i], 0);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
}

static void run_wrap(struct ptx_module *m, const char *kernel, uint64_t bad, const char *space)
{
	run_wrap_at(m, kernel, bad, space, bad);
}

/* .shared and .local addresses are 32 bits wide: `bad` is reported as its low 32 bits, still past the end. */
static void run_wrap32(struct ptx_module *m, const char *kernel, uint64_t bad, const char *space)
{
	run_wrap_at(m, kernel, bad, space, (uint32_t)bad);
}

static void test_wrapping_kernels(void)
{
	struct ptx_module *m = fx_fixture("wrap");
	if (!m)
		return;
	static const uint64_t bad[] = {0xfffffffffffffff0ull, 0xfffffffffffffffcull};
	for (int i = 0; i < 2; i++) {
		run_wrap(m, "wrap_global", bad[i], "global");
		run_wrap(m, "wrap_global_v4", bad[0], "global");
		run_wrap32(m, "wrap_shared", bad[i], "shared");
		run_wrap(m, "wrap_atomic", bad[i], "global");
		run_wrap32(m, "wrap_atomic_shared", bad[i], "shared");
		run_wrap32(m, "wrap_ldmatrix", bad[0], "shared");
		run_wrap32(m, "wrap_cp_async", bad[0], "shared");
		run_wrap32(m, "wrap_local", bad[i], "local");
		run_wrap(m, "wrap_const", bad[i], "const");
		run_wrap(m, "wrap_generic", bad[i], "global");
	}
	/* generic addresses at the top of the shared window resolve to shared offsets near 2^32 */
	run_wrap_at(m, "wrap_generic", PTX_SHARED_WINDOW + PTX_WINDOW_SIZE - 4, "shared", PTX_WINDOW_SIZE - 4);
	run_wrap_at(m, "wrap_generic", PTX_LOCAL_WINDOW - 4, "global", PTX_LOCAL_WINDOW - 4);
	ptx_module_free(m);
}

/* .align can place a parameter past the 4 KiB parameter buffer: the launch is refused before any
 * argument is copied (the copy would land outside the buffer). */
static void test_parameter_past_buffer(void)
{
	static const char *text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u32 a, .param .align 4096 .u64 b)\n{\n\tret;\n}\n"
		".visible .entry ok(.param .u32 a, .param .align 2048 .u64 b)\n{\n\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "params.ptx");
	if (!m)
		return;
	for (int i = 0; i < 2; i++) {
		struct gl_launch l = {0};
		fx_geometry(&l, i ? "ok" : "k", 1, 1, 32, 1);
		gl_launch_arg_scalar(&l, 1, 4);
		gl_launch_arg_scalar(&l, 0x4141414141414141ull, 8);
		struct gl_sim_result res = {0};
		struct gl_err err = {0};
		struct gl_sim_opts o = {.threads = 1};
		int rc = gl_sim_run(m, &l, &o, &res, &err);
		if (i == 0) {
			CHECK_EQ(rc, GL_EUSAGE);
			CHECK(strstr(err.msg, "parameter 2 'b' of 'k' lies at bytes 4096..4103") != NULL);
		} else {
			CHECK_EQ(rc, GL_OK);
			gl_sim_result_free(&res);
		}
		gl_launch_free(&l);
	}
	ptx_module_free(m);
}

/* bar.red's barrier id (its second operand) indexes the CTA's barrier arrays: an id above 15 stops the
 * launch as bar.sync's does, instead of indexing past them. */
static void test_bar_red_id(void)
{
	static const char *text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u32 a, .param .u64 out)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u32 %r2, [a];\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, 0;\n"
		"\tsetp.ne.u32 %p1, %r2, 0;\n\tbar.red.popc.u32 %r1, %r2, %p1;\n"
		"\tmov.u32 %r3, %tid.x;\n\tsetp.eq.u32 %p0, %r3, 0;\n\t@%p0 st.global.u32 [%rd1], %r1;\n\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "barred.ptx");
	if (!m)
		return;
	static const uint32_t ids[] = {1000000, 16, 3};
	for (int i = 0; i < 3; i++) {
		struct gl_launch l = {0};
		fx_geometry(&l, "k", 1, 1, 64, 1);
		gl_launch_arg_scalar(&l, ids[i], 4);
		uint32_t *out = fx_buffer(&l, "out", GL_U32, 1);
		struct gl_sim_result res;
		struct gl_sim_opts o = {.threads = 1};
		CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
		if (ids[i] < 16) {
			CHECK_EQ(res.findings_total, 0);
			CHECK_EQ(*out, 64); /* every thread's predicate was true */
		} else {
			CHECK(res.aborted);
			CHECK(fx_finding(&res, "unsupported") != NULL);
			CHECK(fx_finding(&res, "deadlock") == NULL);
		}
		gl_sim_result_free(&res);
		gl_launch_free(&l);
	}
	ptx_module_free(m);
}

/* Parameter loads: lanes reading one address (translated once, the value broadcast), lanes reading
 * different parameters through a register address (lane by lane), a predicated half warp and a
 * vector load all give each lane the right value, and a uniform load past the parameters still
 * reports the out-of-bounds finding of the lane-by-lane path. */
static void test_param_lanes(void)
{
	static const char *text =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u32 a, .param .u32 b, .param .u64 out)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<6>;\n"
		"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tld.param.u32 %r2, [a];\n"
		"\tmov.u64 %rd2, a;\n\tand.b32 %r3, %r1, 1;\n\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.s64 %rd2, %rd2, %rd3;\n"
		"\tld.param.u32 %r4, [%rd2];\n\tmov.u32 %r5, 7;\n\tsetp.lt.u32 %p1, %r1, 16;\n"
		"\t@%p1 ld.param.u32 %r5, [b];\n\tld.param.v2.u32 {%r6, %r7}, [a];\n"
		"\tadd.u32 %r8, %r2, %r4;\n\tadd.u32 %r8, %r8, %r5;\n\tadd.u32 %r8, %r8, %r6;\n\tmul.lo.u32 %r9, %r7, 1000;\n"
		"\tadd.u32 %r8, %r8, %r9;\n\tmul.wide.u32 %rd4, %r1, 4;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
		"\tst.global.u32 [%rd5], %r8;\n\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "params.ptx");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "k", 1, 1, 64, 1);
	gl_launch_arg_scalar(&l, 10, 4);
	gl_launch_arg_scalar(&l, 200, 4);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 64);
	struct gl_sim_result res;
	for (int threads = 1; threads <= 2; threads++) {
		struct gl_sim_opts o = {.threads = threads};
		CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
		CHECK_EQ(res.findings_total, 0);
		int bad = 0;
		for (unsigned t = 0; t < 64; t++) /* a + (a or b) + (b, or 7 past the first 16) + a + 1000 * b */
			bad += out[t] != 10u + (t & 1 ? 200u : 10u) + (t < 16 ? 200u : 7u) + 10u + 200000u;
		CHECK_EQ(bad, 0);
		gl_sim_result_free(&res);
	}
	gl_launch_free(&l);
	ptx_module_free(m);

	static const char *far =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u32 a)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
		"\tmov.u64 %rd1, a;\n\tadd.s64 %rd2, %rd1, 1048576;\n\tld.param.u32 %r1, [%rd2];\n\tret;\n}\n";
	m = fx_parse(far, "far.ptx");
	if (!m)
		return;
	memset(&l, 0, sizeof l);
	fx_geometry(&l, "k", 1, 1, 32, 1);
	gl_launch_arg_scalar(&l, 10, 4);
	struct gl_sim_opts o = {.threads = 1};
	CHECK_EQ(fx_run_opts(m, &l, &res, &o), GL_OK);
	const struct gl_finding *f = fx_finding(&res, "out-of-bounds");
	CHECK(f != NULL && strstr(f->message, "kernel-parameter read of size 4") != NULL);
	CHECK(f != NULL && f->count == 32); /* one per lane, as lane by lane */
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	ptx_module_free(m);
}

int main(void)
{
	test_param_lanes();
	test_span_rule();
	test_spaces();
	test_resolution_and_rules();
	test_address_widths();
	test_mapped_bytes();
	test_wrapping_kernels();
	test_parameter_past_buffer();
	test_bar_red_id();
	CHECK_DONE();
}
