/* test_sim_ptx_lazy.c — per-function loading: with ptx_parse_lazy a body the simulator cannot decode
 * (an unsupported instruction, a bad operand) stays with its function, the rest of the file runs, and
 * ptx_check_function names the problem for the kernel that has it or calls it; ptx_parse stays strict.
 * Also WARP_SZ, the predefined identifier nvcc emits for warpSize, which is the constant 32; and CUDA
 * places (PTX_PARSE_CUDA_LINES): errors and findings name the .file and .loc line of the instruction. */
#include "tests/unit/sim_fixture.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* good: out[t] = t % WARP_SZ + 100 * (t / WARP_SZ) + 1000 * WARP_SZ.  bad (line 19): an instruction the
 * simulator does not run.  helper (line 25): the same, in a .func; calls_bad reaches it. */
static const char *const text = HEADER                                  /* lines 1-3 */
	".func helper(.param .b64 p);\n"                                /* 4: a declaration first */
	".visible .entry good(.param .u64 pout)\n{\n"                   /* 5, 6 */
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"                     /* 7, 8 */
	"\tld.param.u64 %rd1, [pout];\n\tmov.u32 %r1, %tid.x;\n"       /* 9, 10 */
	"\tmov.u32 %r2, WARP_SZ;\n\trem.u32 %r3, %r1, %r2;\n"          /* 11, 12 */
	"\tdiv.u32 %r4, %r1, WARP_SZ;\n\tmad.lo.s32 %r5, %r4, 100, %r3;\n" /* 13, 14 */
	"\tmad.lo.s32 %r6, %r2, 1000, %r5;\n"                           /* 15 */
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r6;\n\tret;\n}\n"
	".visible .entry bad(.param .u64 p)\n{\n"                       /* 21, 22 */
	"\t.reg .b32 %r<2>;\n"                                          /* 23 */
	"\tfrobnicate.b32 %r1, %r1;\n\t{ ret; }\n}\n"                  /* 24 */
	".func helper(.param .b64 p)\n{\n"                              /* 27, 28 */
	"\t.reg .b32 %r<2>;\n\tfrobnicate.b32 %r1, %r1;\n\tret;\n}\n"  /* 29, 30 */
	".visible .entry calls_bad(.param .u64 p)\n{\n"                 /* 33 */
	"\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n"
	"\t{\n\t.param .b64 a;\n\tst.param.b64 [a], %rd1;\n\tcall.uni helper, (a);\n\t}\n\tret;\n}\n";

static void test_strict_stops_at_first(void)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse(text, "t.ptx", &m, &err), GL_EUSAGE);
	CHECK(m == NULL);
	CHECK(strstr(err.msg, "t.ptx:24:") != NULL);
	CHECK(strstr(err.msg, "frobnicate") != NULL);
}

static void test_lazy(void)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse_lazy(text, "t.ptx", &m, &err), GL_OK);
	if (!m)
		return;
	const struct ptx_function *good = ptx_find_function(m, "good"), *bad = ptx_find_function(m, "bad");
	const struct ptx_function *helper = ptx_find_function(m, "helper"), *calls = ptx_find_function(m, "calls_bad");
	CHECK(good && bad && helper && calls);
	if (!good || !bad || !helper || !calls)
		return;
	CHECK(good->error == NULL && good->code != NULL);
	CHECK(bad->error != NULL && bad->code == NULL);
	CHECK(helper->error != NULL && helper->ncode == 0);
	CHECK(calls->error == NULL);
	CHECK_EQ(ptx_check_function(m, good, &err), GL_OK);
	CHECK_EQ(ptx_check_function(m, bad, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "kernel 'bad' cannot run: t.ptx:24:") != NULL);
	CHECK(strstr(err.msg, "frobnicate") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(ptx_check_function(m, calls, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "kernel 'calls_bad' calls 'helper', which cannot run: t.ptx:30:") != NULL);

	/* the good kernel runs; the bad one is refused by gl_sim_run itself */
	struct gl_launch l = {0};
	fx_geometry(&l, "good", 1, 1, 96, 1);
	uint32_t *out = fx_buffer(&l, "out", GL_U32, 96);
	struct gl_sim_result res;
	fx_run_clean(m, &l, &res);
	for (uint32_t t = 0; t < 96; t++)
		CHECK_EQ(out[t], t % 32 + 100 * (t / 32) + 32000);
	gl_sim_result_free(&res);
	gl_launch_free(&l);
	struct gl_launch lb = {0};
	fx_geometry(&lb, "calls_bad", 1, 1, 32, 1);
	fx_buffer(&lb, "p", GL_U32, 32);
	gl_err_clear(&err);
	CHECK_EQ(gl_sim_run(m, &lb, &(struct gl_sim_opts){.threads = 1}, &res, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "which cannot run") != NULL);
	gl_launch_free(&lb);
	ptx_module_free(m);
}

/* What cannot be skipped still fails: a body that never closes, a bad header. */
static void test_lazy_module_errors(void)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse_lazy(HEADER ".visible .entry k()\n{\n\tfrobnicate;\n", "t.ptx", &m, &err), GL_EUSAGE);
	CHECK(m == NULL);
	CHECK(strstr(err.msg, "t.ptx:6:2: unsupported instruction") != NULL);
	gl_err_clear(&err);
	CHECK_EQ(ptx_parse_lazy(HEADER ".visible .entry k(.param .zz p)\n{\n\tret;\n}\n", "t.ptx", &m, &err),
		 GL_EUSAGE);
	CHECK(m == NULL);
	/* WARP_SZ declared as the file's own symbol is that symbol, not 32 */
	gl_err_clear(&err);
	CHECK_EQ(ptx_parse(HEADER ".global .u32 WARP_SZ;\n.visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
			   "\tmov.u64 %rd1, WARP_SZ;\n\tret;\n}\n", "t.ptx", &m, &err), GL_OK);
	if (m) {
		const struct ptx_function *k = ptx_find_function(m, "k");
		CHECK(k->consts[k->code[0].ops[1].slot - k->nslots] == PTX_MODULE_BASE);
		ptx_module_free(m);
	}
}

/* .file comes after the bodies, as nvcc writes it. */
static const char *const located = HEADER
	".visible .entry k(.param .u64 p)\n{\n"                         /* 4, 5 */
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"                     /* 6, 7 */
	"\t.loc 1 10 3\n\tld.param.u64 %rd1, [p];\n"                    /* 8, 9 */
	"\t.loc 2 5 1, function_name $L__info_string0, inlined_at 1 12 4\n" /* 10 */
	"\tld.global.u32 %r1, [%rd1+64];\n"                              /* 11: past a 16-word buffer */
	"\t.loc 1 14 2\n\tfrobnicate.b32 %r2, %r1;\n\tret;\n}\n"      /* 12, 13 */
	"\t.file 1 \"/src/k.cu\"\n\t.file 2 \"/inc/h.cuh\", 1700000000, 99\n";

static void test_cuda_lines(void)
{
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse_ex(located, "k.cu", PTX_PARSE_CUDA_LINES, &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "/src/k.cu:14: unsupported instruction 'frobnicate.b32' (nvcc's PTX line 13:2)") == err.msg);
	gl_err_clear(&err);
	CHECK_EQ(ptx_parse(located, "k.ptx", &m, &err), GL_EUSAGE); /* PTX input: PTX places */
	CHECK(strstr(err.msg, "k.ptx:13:2: unsupported instruction") == err.msg);
	gl_err_clear(&err);

	/* the inlined load: the call site first, then the header line */
	char *inl = strdup(located);
	char *bad = strstr(inl, "frobnicate.b32 %r2, %r1");
	memcpy(bad, "mov.b32 %r2, %r9       ", strlen("frobnicate.b32 %r2, %r1")); /* %r9 is not declared */
	CHECK_EQ(ptx_parse_ex(inl, "k.cu", PTX_PARSE_CUDA_LINES, &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "/src/k.cu:14: undeclared register '%r9'") == err.msg);
	gl_err_clear(&err);
	memcpy(bad, "mov.b32 %r2, %r1       ", strlen("frobnicate.b32 %r2, %r1"));
	char *ld = strstr(inl, "ld.global.u32 %r1");
	memcpy(ld, "ld.global.u32 %r7", 17);
	CHECK_EQ(ptx_parse_ex(inl, "k.cu", PTX_PARSE_CUDA_LINES, &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "/src/k.cu:12: undeclared register '%r7' (in /inc/h.cuh:5, inlined here; nvcc's PTX "
			      "line 11:16)") == err.msg);
	gl_err_clear(&err);
	memcpy(ld, "ld.global.u32 %r1", 17);

	/* a finding carries the instruction's CUDA file and line */
	m = fx_parse(inl, "k.ptx");
	if (m) {
		CHECK(strcmp(ptx_source_file(m, 2), "/inc/h.cuh") == 0);
		CHECK(ptx_source_file(m, 3) == NULL);
		struct gl_launch l = {0};
		fx_geometry(&l, "k", 1, 1, 1, 1);
		fx_buffer(&l, "p", GL_U32, 16);
		struct gl_sim_result res;
		CHECK_EQ(fx_run(m, &l, &res), GL_OK);
		const struct gl_finding *f = fx_finding(&res, "out-of-bounds");
		CHECK(f != NULL);
		if (f) {
			CHECK_EQ(f->line, 11);
			CHECK_EQ(f->src_line, 5);
			CHECK(strcmp(f->src_file, "/inc/h.cuh") == 0);
		}
		gl_sim_result_free(&res);
		gl_launch_free(&l);
		ptx_module_free(m);
	}
	free(inl);
}

int main(void)
{
	test_strict_stops_at_first();
	test_lazy();
	test_lazy_module_errors();
	test_cuda_lines();
	CHECK_DONE();
}
