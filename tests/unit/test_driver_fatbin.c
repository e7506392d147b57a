/* test_driver_fatbin.c — the fatbinary reader (driver/fatbin.c) on containers nvcc 13 wrote (the fuzzer's
 * seeds in tests/fuzz/corpus_fatbin: the PTX of `nvcc -o va va.cu` compressed with zstd, with LZ4
 * (-Xfatbin=-compress-mode=speed), stored (-compress=false), compute_90 beside compute_75, SASS only)
 * and on broken ones: the PTX picked for a GPU, its text, and the message for each malformed field. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/util.h"
#include "driver/fatbin.h"

#define CORPUS "tests/fuzz/corpus_fatbin/"

static struct fatbin fb;

/* Parse a seed; its bytes stay in *data for the images' payload pointers. */
static int parse(const char *name, char **data, struct gl_err *err)
{
	size_t len = 0;
	gl_err_clear(err);
	if (gl_read_file(name, data, &len) != 0) {
		fprintf(stderr, "cannot read %s (run from the source tree)\n", name);
		return -1;
	}
	return fatbin_parse(*data, len, &fb, err);
}

/* The PTX for `sm`'s text, malloc'd, or NULL. */
static char *ptx_for(int sm, struct gl_err *err)
{
	const struct fatbin_image *im = fatbin_pick_ptx(&fb, sm, err);
	char *text = NULL;
	size_t len;
	if (im && fatbin_payload(im, &text, &len, err) != GL_OK)
		return NULL;
	return text;
}

static void test_codecs(void)
{
	struct gl_err err = {0};
	char *data = NULL, *zstd = NULL, *lz4 = NULL, *plain = NULL;
	CHECK_EQ(parse(CORPUS "zstd_ptx", &data, &err), GL_OK);
	CHECK_EQ(fb.n, 2); /* the sm_75 cubin, then the compute_75 PTX */
	CHECK_EQ(fb.images[0].kind, FATBIN_ELF);
	CHECK_EQ(fb.images[1].kind, FATBIN_PTX);
	CHECK_EQ(fb.images[1].sm, 75);
	CHECK_EQ(fb.images[1].codec, FATBIN_ZSTD);
	CHECK_EQ(fb.images[1].ptx_major * 10 + fb.images[1].ptx_minor, 90); /* PTX ISA 9.0 */
	CHECK((zstd = ptx_for(90, &err)) != NULL);
	CHECK(zstd && strstr(zstd, ".entry _Z4vaddPKfS0_Pfi(") && strstr(zstd, ".target sm_75"));
	free(data);
	CHECK_EQ(parse(CORPUS "lz4_ptx", &data, &err), GL_OK);
	CHECK_EQ(fb.images[1].codec, FATBIN_LZ4);
	CHECK((lz4 = ptx_for(90, &err)) != NULL);
	CHECK(zstd && lz4 && strcmp(zstd, lz4) == 0); /* the same PTX, either codec */
	free(data);
	CHECK_EQ(parse(CORPUS "plain", &data, &err), GL_OK);
	CHECK_EQ(fb.images[1].codec, FATBIN_PLAIN);
	CHECK((plain = ptx_for(90, &err)) != NULL);
	CHECK(plain && zstd && strstr(plain, strstr(zstd, ".version")) != NULL);
	free(data);
	free(zstd);
	free(lz4);
	free(plain);
}

static void test_pick(void)
{
	struct gl_err err = {0};
	char *data = NULL;
	CHECK_EQ(parse(CORPUS "two_ptx", &data, &err), GL_OK);
	const struct fatbin_image *im = fatbin_pick_ptx(&fb, 90, &err);
	CHECK(im && im->sm == 90); /* the newest PTX the GPU runs */
	im = fatbin_pick_ptx(&fb, 89, &err);
	CHECK(im && im->sm == 75);
	CHECK(fatbin_pick_ptx(&fb, 70, &err) == NULL);
	CHECK(strstr(err.msg, "PTX targets compute_75 and newer, but the modelled GPU is sm_70") != NULL);
	free(data);
	gl_err_clear(&err);
	CHECK_EQ(parse(CORPUS "sass_only", &data, &err), GL_OK);
	CHECK(fatbin_pick_ptx(&fb, 90, &err) == NULL);
	CHECK(strstr(err.msg, "holds SASS only (sm_90)") && strstr(err.msg, "-gencode arch=compute_90,code=compute_90"));
	free(data);
}

static void expect_bad(const char *name, const char *words)
{
	struct gl_err err = {0};
	char *data = NULL;
	int rc = parse(name, &data, &err);
	if (rc == GL_OK) { /* the container is sound; the payload is not */
		char *text = ptx_for(90, &err);
		CHECK(text == NULL);
		free(text);
	}
	CHECK(strstr(err.msg, words) != NULL);
	if (!strstr(err.msg, words))
		fprintf(stderr, "%s: '%s' not in '%s'\n", name, words, err.msg);
	free(data);
}

static void test_malformed(void)
{
	expect_bad(CORPUS "empty", "not a fatbinary");
	expect_bad(CORPUS "bad_magic", "does not start with the magic number 0xba55ed50");
	expect_bad(CORPUS "bad_truncated", "declares 3784 bytes after its header but 84 bytes are there");
	expect_bad(CORPUS "bad_body_size", "declares 1099511627776 bytes after its header");
	expect_bad(CORPUS "bad_entry_header", "declares a 4294967295-byte header");
	expect_bad(CORPUS "bad_padded_size", "payload bytes");
	expect_bad(CORPUS "bad_uncompressed_size", "does not decompress (zstd, 397 bytes) to the 3 bytes its header declares");
	expect_bad(CORPUS "bad_zstd_payload", "does not decompress (zstd");
	expect_bad(CORPUS "bad_lz4_payload", "does not decompress (LZ4");
}

int main(void)
{
	test_codecs();
	test_pick();
	test_malformed();
	CHECK_DONE();
}
