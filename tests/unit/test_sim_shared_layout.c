/* test_sim_shared_layout.c — static shared memory per kernel, as ptxas lays it out (values from ptxas -v
 * and nvdisasm on these modules): a kernel's own .shared variables first, then the module-scope ones it
 * names, in declaration order; none of another kernel's.  When a .func body uses shared memory, every
 * function keeps the module-wide layout (module variables first), since the .func's addresses are shared
 * by all its callers. */
#include <string.h>

#include "check.h"
#include "sim/ptx.h"

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

static const char per_kernel[] = HEAD
	".shared .align 4 .b8 ma[12];\n.shared .align 8 .b8 mb[20];\n.shared .align 4 .b8 mc[8];\n"
	".visible .entry k1()\n{\n.shared .align 4 .b8 own[4];\n.reg .b32 %r<4>;\n"
	"mov.u32 %r1, mb;\nst.shared.u32 [%r1], %r1;\nst.shared.u32 [own], %r1;\nret;\n}\n"
	".visible .entry k2()\n{\n.reg .b32 %r<4>;\nst.shared.u32 [mc+4], %r1;\nld.shared.u32 %r2, [ma];\nret;\n}\n"
	".visible .entry k3()\n{\n.shared .align 16 .b8 dyn[];\n.reg .b32 %r<4>;\n"
	"st.shared.u32 [mb], %r1;\nst.shared.u32 [dyn], %r1;\nret;\n}\n";

static const char module_wide[] = HEAD
	".shared .align 4 .b8 ga[100];\n"
	".func (.param .b32 r) f(.param .b32 i)\n{\n.reg .b32 %r<4>;\nld.shared.u32 %r1, [ga];\n"
	"st.param.b32 [r], %r1;\nret;\n}\n"
	".visible .entry k()\n{\n.shared .align 16 .b8 v[32];\n.reg .b32 %r<4>;\nst.shared.u32 [v], %r1;\nret;\n}\n";

/* The offset baked into the first instruction of fn whose memory operand has no register base. */
static long first_offset(const struct ptx_function *fn)
{
	for (int i = 0; i < fn->ncode; i++)
		for (int k = 0; k < fn->code[i].nops; k++)
			if (fn->code[i].ops[k].kind == PO_MEM && fn->code[i].ops[k].slot < 0)
				return (long)fn->code[i].ops[k].offset;
	return -1;
}

/* Alignments as ptxas takes them: any power of two up to 2^31 (ptxas -v: 16400 bytes here). */
static void test_alignment(void)
{
	static const char big[] = HEAD ".visible .entry k()\n{\n.shared .align 4 .b8 t[4];\n.shared .align 16384 .b8 s[16];\n"
				  ".reg .b32 %r<2>;\nst.shared.u32 [s], %r1;\nst.shared.u32 [t], %r1;\nret;\n}\n";
	static const char odd[] = HEAD ".visible .entry k()\n{\n.shared .align 3 .b8 s[16];\nret;\n}\n";
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse(big, "big", &m, &err), GL_OK);
	if (m) {
		CHECK_EQ(ptx_find_function(m, "k")->shared_static, 16400);
		ptx_module_free(m);
	}
	CHECK_EQ(ptx_parse(odd, "odd", &m, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "alignment 3 must be a power of two from 1 to 2^31") != NULL);
}

int main(void)
{
	test_alignment();
	struct ptx_module *m = NULL;
	struct gl_err err = {0};
	CHECK_EQ(ptx_parse(per_kernel, "per_kernel", &m, &err), GL_OK);
	if (m) {
		CHECK_EQ(ptx_find_function(m, "k1")->shared_static, 28); /* own 0..4, mb at 8 (align 8) .. 28 */
		CHECK_EQ(ptx_find_function(m, "k2")->shared_static, 20); /* ma 0..12, mc 12..20 */
		CHECK_EQ(first_offset(ptx_find_function(m, "k2")), 12 + 4); /* st [mc+4] */
		CHECK_EQ(ptx_find_function(m, "k3")->shared_static, 32); /* mb 0..20, the dynamic region at 32 */
		ptx_module_free(m);
	}
	CHECK_EQ(ptx_parse(module_wide, "module_wide", &m, &err), GL_OK);
	if (m) {
		const struct ptx_function *k = ptx_find_function(m, "k");
		CHECK_EQ(k->shared_static, 144); /* ga 0..100 first, v at 112 (align 16) .. 144 */
		CHECK_EQ(first_offset(k), 112);
		CHECK_EQ(first_offset(ptx_find_function(m, "f")), 0); /* ga at 0 for every caller */
		ptx_module_free(m);
	}
	CHECK_DONE();
}
