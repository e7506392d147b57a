/* fuzz_fatbin.c — libFuzzer harness for the fatbinary reader (driver/fatbin.c): any bytes as a container
 * of exactly that size.  One that parses has its PTX picked for an sm_90 GPU, and every image that would
 * decompress to at most 1 MiB is decompressed (the reader allows 1 GiB; the harness keeps runs fast). */
#include <stdint.h>
#include <stdlib.h>

#include "driver/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin *fb = malloc(sizeof *fb);
	struct gl_err err = {0};
	if (!fb)
		return 0;
	if (fatbin_parse(data, size, fb, &err) == GL_OK) {
		gl_err_clear(&err);
		fatbin_pick_ptx(fb, 90, &err);
		for (int i = 0; i < fb->n; i++) {
			char *text = NULL;
			size_t len = 0;
			gl_err_clear(&err);
			if (fb->images[i].uncompressed_size <= (1u << 20) &&
			    fatbin_payload(&fb->images[i], &text, &len, &err) == GL_OK)
				free(text);
		}
	}
	free(fb);
	return 0;
}
