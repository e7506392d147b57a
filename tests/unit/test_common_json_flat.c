/* test_common_json_flat.c — reading back the flat objects gpulab writes (a launch's parameters): numbers
 * and strings by key at the top level only, a key never matched inside a value or a nested object. */
#include <string.h>

#include "check.h"
#include "common/json.h"

int main(void)
{
	char v[32];
	const char *p = "{\"rows\":1024,\"layout\":\"nhwc\",\"seed\":7}";
	CHECK(gl_json_flat_get(p, "rows", v, sizeof v));
	CHECK_STR(v, "1024");
	CHECK(gl_json_flat_get(p, "layout", v, sizeof v));
	CHECK_STR(v, "nhwc");
	CHECK(gl_json_flat_get(p, "seed", v, sizeof v));
	CHECK_STR(v, "7");
	CHECK(!gl_json_flat_get(p, "cols", v, sizeof v));
	CHECK(!gl_json_flat_get(p, "row", v, sizeof v)); /* a prefix of a key is not the key */
	/* spaces as a hand-written object has them; the last value before the brace */
	CHECK(gl_json_flat_get("{ \"cols\" : 7 }", "cols", v, sizeof v));
	CHECK_STR(v, "7");
	/* a string value that spells a key, and keys of nested objects and arrays, are not keys */
	const char *sim = "{\"source\":\"rows\",\"kernel\":\"k\",\"args\":[\"rows\"],\"inner\":{\"rows\":3}}";
	CHECK(!gl_json_flat_get(sim, "rows", v, sizeof v));
	CHECK(!gl_json_flat_get(sim, "args", v, sizeof v));
	CHECK(gl_json_flat_get(sim, "kernel", v, sizeof v));
	CHECK_STR(v, "k");
	/* an escaped quote inside a string does not end it */
	CHECK(gl_json_flat_get("{\"a\":\"x\\\"rows\\\":1\",\"b\":2}", "b", v, sizeof v));
	CHECK_STR(v, "2");
	/* cut to the buffer; nothing found in NULL or malformed text */
	CHECK(gl_json_flat_get(p, "layout", v, 3));
	CHECK_STR(v, "nh");
	CHECK(!gl_json_flat_get(NULL, "rows", v, sizeof v));
	CHECK(!gl_json_flat_get("{\"rows", "rows", v, sizeof v));
	CHECK_DONE();
}
