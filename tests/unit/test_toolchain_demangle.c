/* test_toolchain_demangle.c — the Itanium demangler behind `gpulab sim --kernel`: names nvcc 13 made of
 * templated, namespaced and overloaded kernels, against what c++filt (binutils 2.40) prints for them
 * (return type dropped); spaces are compared loosely, as c++filt writes "Vec<Vec<int> >".  Names
 * outside the subset are refused rather than guessed. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "toolchain/toolchain.h"
#include "tests/unit/check.h"

static const struct {
	const char *mangled, *want;
} cases[] = {
	{"_Z4litsILb1ELj4ELl5ELy6EEvPiPKiPKS0_",
	 "lits<true, 4u, 5l, 6ull>(int*, int const*, int* const*)"},
	{"_Z2vkIfEvP3VecIT_EPKS2_PS0_IiES1_",
	 "vk<float>(Vec<float>*, Vec<float> const*, Vec<int>*, float)"},
	{"_Z2vkI3VecIiEEvPS0_IT_EPKS3_PS1_S2_",
	 "vk<Vec<int> >(Vec<Vec<int> >*, Vec<Vec<int> > const*, Vec<int>*, Vec<int>)"},
	{"_Z5byval1SPS_RKS_P13__nv_bfloat16hax",
	 "byval(S, S*, S const&, __nv_bfloat16*, unsigned char, signed char, long long)"},
	{"_Z4gemmIfLi128ELi64EEviiiT_PKS0_S2_S0_PS0_",
	 "gemm<float, 128, 64>(int, int, int, float, float const*, float const*, float, float*)"},
	{"_Z6noargsILi32EEvv", "noargs<32>()"},
	{"_ZN1a1b2k1IfdLin3EEEvPKT_PT0_S2_PKS5_",
	 "a::b::k1<float, double, -3>(float const*, double*, float, double const*)"},
	{"_ZN1a1b2k1I6__halfS2_Li8EEEvPKT_PT0_S3_PKS6_",
	 "a::b::k1<__half, __half, 8>(__half const*, __half*, __half, __half const*)"},
	{"_ZN35_GLOBAL__N__4450bb79_8_names_cu_use4anonEPi", "(anonymous namespace)::anon(int*)"},
	{"_ZN3lab6reduceIfLi256EEEvPKT_PS1_i", "lab::reduce<float, 256>(float const*, float*, int)"},
	{"_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii", "MatrixMulCUDA<16>(float*, float*, float*, int, int)"},
	{"_Z10store_tilePK6__halfPf", "store_tile(__half const*, float*)"},
	{"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)"},
};

static void squeeze(const char *s, char *out, size_t n)
{
	size_t k = 0;
	for (; *s && k + 1 < n; s++)
		if (!isspace((unsigned char)*s))
			out[k++] = *s;
	out[k] = '\0';
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct gl_demangled d;
		int rc = gl_demangle(cases[i].mangled, &d);
		CHECK_EQ(rc, 0);
		char got[600], want[600];
		squeeze(d.signature, got, sizeof got);
		squeeze(cases[i].want, want, sizeof want);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "%s: got '%s', want '%s'\n", cases[i].mangled, d.signature, cases[i].want);
		CHECK(strcmp(got, want) == 0);
	}
}

static void test_parts(void)
{
	struct gl_demangled d;
	CHECK_EQ(gl_demangle("_ZN3lab6reduceIfLi256EEEvPKT_PS1_i", &d), 0);
	CHECK(strcmp(d.name, "lab::reduce<float, 256>") == 0);
	CHECK(strcmp(d.plain, "lab::reduce") == 0);
	CHECK(strcmp(d.base, "reduce") == 0);
	CHECK(strcmp(d.base_args, "reduce<float, 256>") == 0);
	/* a member of a class template: the class's arguments stay in the qualified name */
	CHECK_EQ(gl_demangle("_ZN2ns5OuterIiE4kernILi4EEEvPi", &d), 0);
	CHECK(strcmp(d.plain, "ns::Outer<int>::kern") == 0);
	CHECK(strcmp(d.base, "kern") == 0);
	CHECK(strcmp(d.base_args, "kern<4>") == 0);
	CHECK(strcmp(d.signature, "ns::Outer<int>::kern<4>(int*)") == 0);
}

/* Every prefix and every one-character change of the valid names: refused or demangled, never a read
 * past the end (the unit tests run under ASan). A strict prefix never demangles to the full signature. */
static void test_damaged(void)
{
	static const char alphabet[] = "_0123456789INELPKRSTvifdS_ZE";
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[128];
		size_t n = strlen(cases[i].mangled);
		struct gl_demangled d;
		for (size_t k = 0; k < n; k++) {
			snprintf(buf, sizeof buf, "%.*s", (int)k, cases[i].mangled);
			if (gl_demangle(buf, &d) == 0)
				CHECK(strcmp(d.signature, cases[i].want) != 0);
			for (size_t a = 0; a < sizeof alphabet - 1; a++) {
				snprintf(buf, sizeof buf, "%s", cases[i].mangled);
				buf[k] = alphabet[a];
				(void)gl_demangle(buf, &d);
			}
		}
	}
}

static void test_variable(void)
{
	struct gl_demangled d;
	CHECK_EQ(gl_demangle("_ZN2ns5tableE", &d), 0); /* a data symbol: no parameter list */
	CHECK(strcmp(d.signature, "ns::table") == 0);
}

static void test_refused(void)
{
	struct gl_demangled d;
	CHECK_EQ(gl_demangle("saxpy", &d), -1);                  /* extern "C": not mangled */
	CHECK_EQ(gl_demangle("_Z", &d), -1);
	CHECK_EQ(gl_demangle("_Z5saxpyI", &d), -1);              /* template arguments never closed */
	CHECK_EQ(gl_demangle("_Z99short", &d), -1);              /* a length past the end */
	CHECK_EQ(gl_demangle("_Z1fIXadL_Z1gvEEEvv", &d), -1);    /* an expression argument: outside the subset */
	CHECK_EQ(gl_demangle("_Z1fPS5_", &d), -1);               /* a substitution that does not exist */
	CHECK_EQ(gl_demangle("_Z1fIT_Evv", &d), -1);             /* T_ before any template argument */
}

int main(void)
{
	test_cases();
	test_parts();
	test_variable();
	test_refused();
	test_damaged();
	CHECK_DONE();
}
