/* test_sim_wrap32.c — .shared and .local addresses are 32 bits wide (sim/sim_addr.h, docs/sim.md "Address
 * widths"): the kernels of tests/fixtures/sim/wrap32.ptx address their arrays as a 32-bit base below the
 * array plus a positive offset, whose 64-bit sum is 2^32 + the offset, in every instruction family that
 * takes a shared address (ld/st in the warp's hot form and the general one, atom/red, ldmatrix, cp.async,
 * wmma, mbarrier) and in .local.  Each runs with shift 0 (lanes wrap) and 16 (none does) on the
 * interpreter and on the compiled engine: the results are right, nothing is reported, the counts of the
 * two shifts agree (the bank math sees the wrapped address) and the trace holds 32-bit addresses.  A
 * 32-bit generic address (cvta.shared.u32) is zero-extended: it reaches no shared memory. */
#include <stdlib.h>
#include <unistd.h>

#include "tests/unit/sim_fixture.h"

#define OUT_INTS 320

struct run {
	struct gl_launch l;
	struct gl_sim_result res;
	int32_t *out;
	bool ok;
};

static void launch(struct run *r, const struct ptx_module *m, const char *kernel, unsigned shift, int engine)
{
	memset(r, 0, sizeof *r);
	fx_geometry(&r->l, kernel, 1, 1, 32, 1);
	r->out = fx_buffer(&r->l, "out", GL_I32, OUT_INTS);
	if (strcmp(kernel, "w32_cp_async") == 0) {
		int32_t *in = fx_buffer(&r->l, "in", GL_I32, 4 * 32);
		for (int i = 0; i < 4 * 32; i++)
			in[i] = 5 * i + 3;
	}
	gl_launch_arg_scalar(&r->l, shift, 4);
	struct gl_sim_opts o = {.threads = 1, .engine = engine, .trace = true};
	r->ok = fx_run_opts(m, &r->l, &r->res, &o) == GL_OK;
	CHECK(r->ok);
	if (r->ok && engine == GL_ENGINE_COMPILED)
		CHECK(strcmp(r->res.engine, "compiled") == 0);
}

static void done(struct run *r)
{
	if (r->ok)
		gl_sim_result_free(&r->res);
	gl_launch_free(&r->l);
}

/* Every shared or local address the trace recorded is a 32-bit address inside the CTA's space. */
static void check_trace(const struct run *r)
{
	for (uint32_t i = 0; i < r->res.ntrace; i++) {
		const struct gl_trace_event *e = &r->res.trace[i];
		if (e->space != GL_TRACE_SHARED && e->space != GL_TRACE_LOCAL)
			continue;
		for (int l = 0; l < 32; l++) {
			if (!(e->mask >> l & 1))
				continue;
			if (e->addrs[l] >> 32)
				fprintf(stderr, "  %s: trace event %u lane %d at 0x%llx\n", r->l.entry, i, l,
					(unsigned long long)e->addrs[l]);
			CHECK(e->addrs[l] < 4096);
		}
	}
}

/* The kernel's outputs with shift 0 and 16: no findings, and the counts of the two runs agree. */
static void run_pair(const struct ptx_module *m, const char *kernel, int engine, struct run *wrapped,
		     struct run *plain)
{
	launch(wrapped, m, kernel, 0, engine);
	launch(plain, m, kernel, 16, engine);
	if (!wrapped->ok || !plain->ok)
		return;
	CHECK_EQ(wrapped->res.findings_total, 0);
	CHECK_EQ(plain->res.findings_total, 0);
	CHECK(!wrapped->res.aborted);
	const struct gl_sim_counters *a = &wrapped->res.c, *b = &plain->res.c;
	CHECK_EQ(a->sld_inst, b->sld_inst);
	CHECK_EQ(a->sst_inst, b->sst_inst);
	CHECK_EQ(a->sld_wf, b->sld_wf);
	CHECK_EQ(a->sst_wf, b->sst_wf);
	CHECK_EQ(a->sld_conf, b->sld_conf);
	CHECK_EQ(a->sst_conf, b->sst_conf);
	CHECK_EQ(a->satom_inst, b->satom_inst);
	CHECK_EQ(a->ldsm_wf, b->ldsm_wf);
	CHECK_EQ(a->ldgsts_sst_wf, b->ldgsts_sst_wf);
	CHECK_EQ(a->lld_sect + a->lst_sect, b->lld_sect + b->lst_sect);
	if (strcmp(kernel, "w32_mbarrier") != 0) /* mbarrier operations are not memory requests */
		CHECK(a->sld_inst + a->sst_inst + a->satom_inst + a->ldsm_inst + a->ldgsts_inst + a->lld_req > 0);
	check_trace(wrapped);
}

static void test_ld_st(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_ld_st", engine, &w, &p);
	for (int t = 0; w.ok && p.ok && t < 32; t++)
		for (const struct run *r = &w; r; r = r == &w ? &p : NULL) {
			CHECK_EQ(r->out[t], 3 * (31 - t) + 1);            /* the hot form */
			CHECK_EQ(r->out[32 + t], t < 20 ? -t : 0);        /* a partial warp, signed */
			CHECK_EQ(r->out[64 + t], 48 * (t % 8) + 22);      /* v4 */
			CHECK_EQ(r->out[96 + t], 3 * t + 1);              /* a 64-bit register past 2^32 */
		}
	/* the first shared store's lanes, wrapped: offsets 0, 4, ..., 124 (s is the kernel's only array) */
	const struct gl_trace_event *st = NULL;
	for (uint32_t i = 0; w.ok && i < w.res.ntrace && !st; i++)
		if (w.res.trace[i].space == GL_TRACE_SHARED)
			st = &w.res.trace[i];
	CHECK(st != NULL);
	for (int l = 0; st && l < 32; l++)
		CHECK_EQ(st->addrs[l], 4 * l);
	CHECK_EQ(w.res.c.sst_wf, 2); /* one wavefront per 4-byte store of consecutive words */
	done(&w);
	done(&p);
}

static void test_atom(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_atom", engine, &w, &p);
	for (int t = 0; w.ok && p.ok && t < 32; t++) {
		CHECK_EQ(w.out[t], t / 4); /* lanes apply in lane order: lane t is counter t % 4's (t/4)-th */
		CHECK_EQ(w.out[32 + t], 8 + 800);
		CHECK_EQ(p.out[t], w.out[t]);
		CHECK_EQ(p.out[32 + t], w.out[32 + t]);
	}
	done(&w);
	done(&p);
}

static void test_ldmatrix(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_ldmatrix", engine, &w, &p);
	for (int shift = 0; shift <= 16 && w.ok && p.ok; shift += 16) {
		const int32_t *out = shift ? p.out : w.out;
		for (int t = 0; t < 32; t++) { /* row t / 4, columns 2 (t % 4) and + 1 of the matrix at `shift` */
			int i = shift / 2 + (t / 4) * 8 + 2 * (t % 4);
			uint32_t lo = (uint16_t)(7 * i + 1), hi = (uint16_t)(7 * (i + 1) + 1);
			CHECK_EQ((uint32_t)out[t], lo | hi << 16);
		}
	}
	done(&w);
	done(&p);
}

static void test_cp_async(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_cp_async", engine, &w, &p);
	for (int i = 0; w.ok && p.ok && i < 4 * 32; i++) {
		CHECK_EQ(w.out[i], 5 * i + 3);
		CHECK_EQ(p.out[i], 5 * i + 3);
	}
	done(&w);
	done(&p);
}

/* wmma: the fragment loaded through the wrapped address equals the plain one (8 of 8 registers), and
 * the stored tile is the same whether the store's address wrapped or not. */
static void test_wmma(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_wmma", engine, &w, &p);
	for (int t = 0; w.ok && p.ok && t < 32; t++) {
		CHECK_EQ(w.out[t], 8);
		CHECK_EQ(p.out[t], 8);
	}
	uint32_t lanes = 0;
	for (int i = 0; w.ok && p.ok && i < 256; i++) {
		CHECK_EQ(w.out[32 + i], p.out[32 + i]);
		lanes |= 1u << (p.out[32 + i] & 31);
	}
	if (w.ok && p.ok)
		CHECK_EQ(lanes, 0xffffffffu); /* every lane stored its elements */
	done(&w);
	done(&p);
}

static void test_mbarrier(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_mbarrier", engine, &w, &p);
	for (int t = 0; w.ok && p.ok && t < 32; t++) {
		CHECK_EQ(w.out[t], 1); /* the 32 arrivals (plain address) completed the phase (wrapped address) */
		CHECK_EQ(p.out[t], 1);
	}
	done(&w);
	done(&p);
}

static void test_local(const struct ptx_module *m, int engine)
{
	struct run w, p;
	run_pair(m, "w32_local", engine, &w, &p);
	for (int t = 0; w.ok && p.ok && t < 32; t++) {
		CHECK_EQ(w.out[t], 7);      /* [lbuf - 4 + 8] */
		CHECK_EQ(p.out[t], 9);      /* [lbuf + 4 - 4 + 8] */
		CHECK_EQ(w.out[32 + t], 9); /* [lbuf + 2^32 + 8] with a 64-bit register */
	}
	done(&w);
	done(&p);
}

/* cvta.shared.u32 gives the low 32 bits of the generic address; as an address it is zero-extended to 64
 * bits: global space, below every window and buffer.  isspacep.shared says no, the load is an error. */
static void test_generic32(const struct ptx_module *m, int engine)
{
	for (unsigned shift = 0; shift <= 16; shift += 16) {
		struct run r;
		launch(&r, m, "w32_gen32", shift, engine);
		if (!r.ok) {
			done(&r);
			continue;
		}
		const struct gl_finding *f = fx_finding(&r.res, "out-of-bounds");
		CHECK(f != NULL);
		if (f) {
			CHECK(strcmp(f->space, "global") == 0);
			CHECK_EQ(f->address, shift / 4); /* s is at shared offset 0 */
			CHECK(strstr(f->message, "not inside any allocation") != NULL);
		}
		CHECK_EQ(r.res.nerrors, 32);
		for (int t = 0; t < 32; t++) {
			CHECK_EQ(r.out[t], 0);
			CHECK_EQ(r.out[32 + t], 0);
		}
		done(&r);
	}
}

static void test_all(const struct ptx_module *m, int engine)
{
	test_ld_st(m, engine);
	test_atom(m, engine);
	test_ldmatrix(m, engine);
	test_cp_async(m, engine);
	test_wmma(m, engine);
	test_mbarrier(m, engine);
	test_local(m, engine);
	test_generic32(m, engine);
}

int main(void)
{
	struct ptx_module *m = fx_fixture("wrap32");
	if (!m)
		CHECK_DONE();
	test_all(m, GL_ENGINE_INTERP);
	bool have_cc = fx_have_cc();
	if (have_cc) {
		char cache[512];
		snprintf(cache, sizeof cache, "%s/gpulab-test-jit-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (long)getuid());
		setenv("XDG_CACHE_HOME", cache, 1);
		setenv("GPULAB_JIT_CFLAGS", "-O0", 1);
		test_all(m, GL_ENGINE_COMPILED);
	} else {
		fprintf(stderr, "no C compiler: the compiled engine's runs are not tested here\n");
	}
	ptx_module_free(m);
	CHECK_DONE();
}
