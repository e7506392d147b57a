/* test_common_numba_name.c — Python names out of the kernel names numba-cuda 0.30 mangles (taken from
 * its PTX), the escapes undone, and C++ names left alone. */
#include "check.h"
#include "common/numba_name.h"

static void numba_names(void)
{
	char out[256];
	CHECK(gl_numba_name("_ZN8__main__10vector_addB2v1B39cw51cXTLSUwv1sDUaKthoaNgoKmjgOR3W3CwAkME5ArrayIfLi1E1C7"
			    "mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE",
			    out, sizeof out));
	CHECK_STR(out, "vector_add");
	CHECK(gl_numba_name("_ZN8__main__5scaleB2v1B106cw51cXTLSUwv1sDUaKthqaNgoKmjgMVuW1AiA8rAEg2UjxRKtuAIAMYDWpKAqkSk"
			    "PiQB1BQFk0DyoW21Oizc1a0UoPGnDpQE8oxrNQE_3dE5ArrayIfLi1E1C7mutable7alignedE",
			    out, sizeof out));
	CHECK_STR(out, "scale");
	/* a function of another module, defined inside a function: <locals> escaped as _3clocals_3e */
	CHECK(gl_numba_name("_ZN5mylib5outer12_3clocals_3e5innerB2v3B4abcdEx", out, sizeof out));
	CHECK_STR(out, "mylib.outer.<locals>.inner");
	CHECK(gl_numba_name("_ZN8__main__6my_addB2v1E5ArrayIfLi1E1C7mutable7alignedE", out, sizeof out));
	CHECK_STR(out, "my_add"); /* "_ad" is no escape: 0xad... is not how Numba writes 'd' */
	CHECK(gl_numba_name("_ZN8__main__5sum_3B2v1Ei", out, 4)); /* cut to the buffer */
	CHECK_STR(out, "sum");
}

static void not_numba(void)
{
	char out[64] = "untouched";
	CHECK(!gl_numba_name("_Z6reducePKfPfi", out, sizeof out));
	CHECK(!gl_numba_name("_ZN3lab6reduceILi256EEEvPKfPfi", out, sizeof out)); /* no ABI tag: C++ */
	CHECK(!gl_numba_name("_ZN8__main__10vector_addB2v1", out, sizeof out)); /* no closing E */
	CHECK(!gl_numba_name("_ZN8__main__99toolong", out, sizeof out));
	CHECK(!gl_numba_name("vector_add", out, sizeof out));
	CHECK(!gl_numba_name(NULL, out, sizeof out));
	CHECK_STR(out, "untouched");
}

int main(void)
{
	numba_names();
	not_numba();
	CHECK_DONE();
}
