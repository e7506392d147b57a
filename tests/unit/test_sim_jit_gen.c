/* test_sim_jit_gen.c — what the compiled engine's generator (sim/sim_jit_gen.c) translates inline and what
 * it leaves to the interpreter: every ld/st of tests/fixtures/sim/jit.ptx becomes one memory call (W->memr
 * with the register and offset of a shared [register + offset], else lane addresses and W->mem), the f32
 * compare/min/max/div/ex2 and integer min/max/cvt forms become lane loops, and the forms whose
 * interpreter code does more (.ftz, .sat, ex2 of a constant) still call the interpreter.
 * Then jit_oob runs on the compiled engine and must report the interpreter's findings (the differential
 * test, test_profiler_engines.c, compares every counter and buffer). */
#include <unistd.h>

#include "sim/ptx.h"
#include "sim/ptx_ops.h"
#include "sim/sim_jit.h"
#include "sim_fixture.h"

/* Does the generated source call `what` (W->exec or W->mem) for instruction pc? */
static bool calls(const char *src, const char *what, int pc)
{
	char needle[96];
	snprintf(needle, sizeof needle, "%s(W->cta, W->w, %d,", what, pc);
	return strstr(src, needle) != NULL;
}

/* Does it make the ld/st at pc one memory call (W->mem with the lanes' addresses, W->memr with its
 * instruction, code + pc times an instruction's size, and a register and offset, or W->param with a
 * kernel parameter's address)? */
static bool calls_mem(const char *src, int pc)
{
	char needle[96];
	snprintf(needle, sizeof needle, "W->memr(W->cta, W->w, W->code + %d * %zu,", pc, sizeof(struct ptx_insn));
	return calls(src, "W->mem", pc) || calls(src, "W->param", pc) || strstr(src, needle) != NULL;
}

static bool inline_form(const struct ptx_insn *ins)
{
	switch (ins->op) {
	case OP_SETP: return ins->type == PT_F32 || ins->type == PT_S32 || ins->type == PT_U32;
	case OP_MIN: case OP_MAX: case OP_BFI: return true;
	case OP_DIV: case OP_EX2: return ins->type == PT_F32;
	case OP_CVT: return !ptx_type_is_float((enum ptx_type)ins->type2);
	default: return false;
	}
}

/* The C generated for the first function of PTX `text` (NULL, after a failed check, when there is none). */
static char *generated(const char *text, const char *name, int *native)
{
	struct ptx_module *m = fx_parse(text, name);
	if (!m)
		return NULL;
	char why[256] = "";
	char *src = sim_jit_source(m, &m->funcs[0], native, why, sizeof why);
	CHECK(src != NULL);
	ptx_module_free(m);
	return src;
}

static void fixture_forms(void)
{
	struct ptx_module *m = fx_fixture("jit");
	if (!m)
		return;
	int mem = 0, forms = 0;
	for (int f = 0; f < m->nfuncs; f++) {
		const struct ptx_function *fn = &m->funcs[f];
		if (!fn->is_entry)
			continue;
		char why[256] = "";
		int native = 0;
		char *src = sim_jit_source(m, fn, &native, why, sizeof why);
		CHECK(src != NULL);
		if (!src) {
			fprintf(stderr, "%s: %s\n", fn->name, why);
			continue;
		}
		CHECK(native > 0 && native <= fn->ncode);
		for (int i = 0; i < fn->ncode; i++) {
			const struct ptx_insn *ins = &fn->code[i];
			if (ins->op == OP_LD || ins->op == OP_ST) {
				CHECK(calls_mem(src, i));
				CHECK(!calls(src, "W->exec", i));
				mem++;
			} else if (inline_form(ins)) {
				if (calls(src, "W->exec", i))
					fprintf(stderr, "%s: PTX line %d (%s) calls the interpreter\n", fn->name, ins->line,
						ptx_op_name((enum ptx_op)ins->op));
				CHECK(!calls(src, "W->exec", i));
				forms++;
			}
		}
		free(src);
	}
	/* jit.cu's loads and stores (vector ones included) and its compare/min/max/div/ex2/cvt forms */
	CHECK(mem >= 40);
	CHECK(forms >= 30);
	ptx_module_free(m);
}

/* Forms the generator must leave to the interpreter, each next to its inline twin. */
static void interpreter_forms(void)
{
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 p)\n{\n"
		"\t.reg .f32 %f<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<4>;\n"
		"\tld.param.u64 %rd1, [p];\n"              /* 0: inline (W->param) */
		"\tld.global.f32 %f1, [%rd1];\n"           /* 1: inline */
		"\tld.global.f32 %f2, [%rd1+4];\n"         /* 2: inline */
		"\tmin.f32 %f3, %f1, %f2;\n"               /* 3: inline */
		"\tmin.ftz.f32 %f4, %f1, %f2;\n"           /* 4: interpreter (.ftz) */
		"\tex2.approx.f32 %f5, %f1;\n"             /* 5: inline */
		"\tex2.approx.f32 %f6, 0f3F800000;\n"      /* 6: interpreter (a constant operand) */
		"\tmov.b32 %r1, %f1;\n"                    /* 7: inline */
		"\tcvt.s64.s32 %rd2, %r1;\n"               /* 8: inline */
		"\tcvt.sat.s8.s32 %r2, %r1;\n"             /* 9: interpreter (.sat) */
		"\tcvt.rzi.s32.f32 %r3, %f1;\n"            /* 10: interpreter (from a float) */
		"\tsetp.ltu.f32 %p1, %f1, %f2;\n"          /* 11: inline */
		"\tsetp.lt.and.f32 %p2, %f1, %f2, %p1;\n"  /* 12: interpreter (a combiner) */
		"\tdiv.rn.f32 %f7, %f1, %f2;\n"            /* 13: inline */
		"\tdiv.rz.f32 %f7, %f1, %f2;\n"            /* 14: interpreter (directed rounding) */
		"\t@%p1 st.global.f32 [%rd1+8], %f7;\n"    /* 15: inline, guarded */
		"\tret;\n}\n";
	int native = 0;
	char *src = generated(text, "forms.ptx", &native);
	if (src) {
		static const int interp[] = {4, 6, 9, 10, 12, 14, 16};
		static const int inl[] = {3, 5, 7, 8, 11, 13};
		static const int mem[] = {0, 1, 2, 15};
		for (size_t i = 0; i < sizeof interp / sizeof *interp; i++)
			CHECK(calls(src, "W->exec", interp[i]));
		for (size_t i = 0; i < sizeof inl / sizeof *inl; i++)
			CHECK(!calls(src, "W->exec", inl[i]));
		for (size_t i = 0; i < sizeof mem / sizeof *mem; i++)
			CHECK(calls_mem(src, mem[i]) && !calls(src, "W->exec", mem[i]));
		CHECK(calls(src, "W->param", 0)); /* a parameter at a constant address: one translation */
		CHECK(!calls(src, "W->param", 1));
		CHECK_EQ(native, 17 - 7);
		free(src);
	}
}

/* The compiled function runs full warps only (a partial one goes back to the interpreter at once), so its
 * unguarded ALU instructions are SIMD alone (VALL with the vector helper, no lane expression beside it);
 * a guarded one keeps the scalar LANES loop, and a form without a vector twin (shr.s64, bfi with a
 * register position) the scalar ALL loop. */
static void simd_forms(void)
{
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 p)\n{\n"
		"\t.reg .f32 %f<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<4>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tld.global.f32 %f1, [%rd1];\n"
		"\tld.global.u32 %r1, [%rd1+4];\n"
		"\tadd.f32 %f2, %f1, 0f3F800000;\n"
		"\tfma.rn.f32 %f3, %f1, %f2, %f1;\n"
		"\tadd.s32 %r2, %r1, -7;\n"
		"\tshr.s32 %r3, %r2, %r1;\n"
		"\tmul.wide.s32 %rd2, %r3, 4;\n"
		"\tcvt.s64.s32 %rd3, %r2;\n"
		"\tsetp.ge.s32 %p1, %r2, %r3;\n"
		"\tselp.b32 %r4, %r2, %r3, !%p1;\n"
		"\tmin.s32 %r5, %r2, %r4;\n"
		"\tmax.u64 %rd2, %rd2, %rd3;\n"
		"\tbfi.b32 %r6, %r4, %r5, 8, 4;\n"
		"\tbfi.b32 %r7, %r4, %r5, %r1, 4;\n"
		"\t@%p1 add.f32 %f4, %f3, %f2;\n"
		"\tshr.s64 %rd3, %rd3, 3;\n"
		"\tret;\n}\n";
	int native = 0;
	char *src = generated(text, "simd.ptx", &native);
	if (src) {
		static const char *const want[] = {
			"if (*W->active != 0xffffffffu || *W->live != 0xffffffffu) return",
			"VALL(VFADD(VR(", "), VK(0x3f800000ull)), ", "\tWFMA(r + ",
			"VALL(VADD32(", "VALL(VSHR32S(", "VALL(VMULWS(", "VALL(VSX32(", "VALL(VSETP((VI)", "LANES(FADD(",
			"\tALL((uint64_t)(uint64_t)((int64_t)", "VALL((VSEL(VR(", "VALL(VPICK32S(VR(", "VALL(VPICK64U(VR(",
			" & VK(0xfffffffffffff0ffull)) | ((VR(", "\tALL((uint32_t)(BFI("};
		for (size_t i = 0; i < sizeof want / sizeof *want; i++)
			if (!strstr(src, want[i])) {
				fprintf(stderr, "generated C lacks %s\n", want[i]);
				CHECK(false);
			}
		const char *lane = strstr(src, "FADD(r["); /* the scalar form: only the guarded add's, no partial copy */
		CHECK(lane && strstr(lane + 1, "FADD(r[") == NULL && strstr(src, "LANES(FADD(r[") != NULL);
		CHECK(strstr(src, "#include <immintrin.h>") == NULL ||
		      strstr(src, "#if defined(GL_BUILTINS)") != NULL); /* builtins first */
		free(src);
	}
}

/* jit_oob on the compiled engine: the out-of-bounds shared and global accesses and the misaligned load
 * are found through the inline memory path, and the launch goes on as the interpreter's does. */
static void oob_findings(void)
{
	struct ptx_module *m = fx_fixture("jit");
	if (!m)
		return;
	struct gl_launch l = {0};
	fx_geometry(&l, "jit_oob", 2, 1, 96, 1);
	unsigned *in = fx_buffer(&l, "in", GL_U32, 4096);
	fx_buffer(&l, "out", GL_U32, 4096);
	for (int k = 0; k < 4096; k++)
		in[k] = (unsigned)k;
	gl_launch_arg_scalar(&l, 64, 4);
	struct gl_sim_opts o = {.threads = 1, .engine = GL_ENGINE_COMPILED};
	struct gl_sim_result res;
	if (fx_run_opts(m, &l, &res, &o) == GL_OK) {
		CHECK(strcmp(res.engine, "compiled") == 0);
		const struct gl_finding *oob = fx_finding(&res, "out-of-bounds");
		const struct gl_finding *mis = fx_finding(&res, "misaligned");
		CHECK(oob != NULL);
		CHECK(mis != NULL);
		int shared = 0, global = 0;
		for (int i = 0; i < res.nfindings; i++)
			if (strcmp(res.findings[i].kind, "out-of-bounds") == 0) {
				shared += strcmp(res.findings[i].space, "shared") == 0;
				global += strcmp(res.findings[i].space, "global") == 0;
			}
		CHECK(shared >= 2); /* the store past the array and the loads past it */
		CHECK(global >= 1);
		CHECK(!res.aborted);
		gl_sim_result_free(&res);
	}
	gl_launch_free(&l);
	ptx_module_free(m);
}

/* ld.param at a constant address on the compiled engine (W->param): lanes of a partial guard take the
 * parameter's value, the others keep theirs; a read past the parameters reports, for every lane, the
 * finding the interpreter reports (the lanes' own way). */
static void param_loads(void)
{
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry k(.param .u64 p, .param .u32 v, .param .u32 far)\n{\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
		"\tld.param.u64 %rd1, [p];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tmov.u32 %r2, 7;\n"
		"\tsetp.lt.u32 %p1, %r1, 12;\n"
		"\t@%p1 ld.param.u32 %r2, [v];\n"
		"\tld.param.u32 %r3, [far];\n"
		"\tsetp.ne.u32 %p1, %r3, 0;\n"
		"\t@%p1 ld.param.u32 %r2, [v+70000];\n"
		"\tmul.wide.u32 %rd2, %r1, 4;\n"
		"\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tst.global.u32 [%rd3], %r2;\n"
		"\tret;\n}\n";
	struct ptx_module *m = fx_parse(text, "param.ptx");
	if (!m)
		return;
	for (unsigned far = 0; far < 2; far++) {
		struct gl_sim_result res[2];
		uint32_t out[2][32];
		for (int e = 0; e < 2; e++) {
			struct gl_launch l = {0};
			fx_geometry(&l, "k", 1, 1, 32, 1);
			uint32_t *o = fx_buffer(&l, "out", GL_U32, 32);
			gl_launch_arg_scalar(&l, 41, 4);
			gl_launch_arg_scalar(&l, far, 4);
			struct gl_sim_opts opts = {.threads = 1, .engine = e ? GL_ENGINE_COMPILED : GL_ENGINE_INTERP};
			CHECK_EQ(fx_run_opts(m, &l, &res[e], &opts), GL_OK);
			memcpy(out[e], o, sizeof out[e]);
			gl_launch_free(&l);
		}
		CHECK(strcmp(res[1].engine, "compiled") == 0);
		for (int t = 0; t < 32; t++)
			CHECK_EQ(out[1][t], far ? 0u : t < 12 ? 41u : 7u); /* a refused read leaves 0 */
		CHECK_EQ(memcmp(out[0], out[1], sizeof out[0]), 0);
		fx_same_result_findings(&res[0], &res[1]);
		CHECK_EQ(res[1].nerrors, far ? 32 : 0);
		gl_sim_result_free(&res[0]);
		gl_sim_result_free(&res[1]);
	}
	ptx_module_free(m);
}

int main(void)
{
	fixture_forms();
	interpreter_forms();
	simd_forms();
	if (!fx_have_cc()) {
		fprintf(stderr, "no C compiler: the compiled engine's run is not tested here\n");
		CHECK_DONE();
	}
	char cache[512];
	snprintf(cache, sizeof cache, "%s/gpulab-test-jit-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (long)getuid());
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("GPULAB_JIT_CFLAGS", "-O0", 1);
	oob_findings();
	param_loads();
	CHECK_DONE();
}
