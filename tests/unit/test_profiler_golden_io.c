/* test_profiler_golden_io.c — a counter-data image and its metadata survive save and load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profiler/cupti_golden.h"

int main(void)
{
	struct gl_cupti_golden g, back;
	struct gl_err err = {0};
	uint8_t bytes[300];
	char dir[] = "/tmp/gl_golden_XXXXXX", stem[64];
	CHECK(mkdtemp(dir) != NULL);
	memset(&g, 0, sizeof g);
	for (size_t i = 0; i < sizeof bytes; i++)
		bytes[i] = (uint8_t)(i * 7);
	snprintf(g.chip, sizeof g.chip, "GH100");
	snprintf(g.kernel, sizeof g.kernel, "transpose_naive");
	g.ranges = 1;
	g.n = 2;
	snprintf(g.names[0], sizeof g.names[0], "dram__bytes_read.sum");
	snprintf(g.names[1], sizeof g.names[1], "gpu__time_duration.sum");
	g.values[0] = 4194304;
	g.values[1] = 12345.678901234567;
	g.image = bytes;
	g.size = sizeof bytes;
	CHECK_EQ(gl_cupti_golden_save(dir, "k", &g, &err), GL_OK);
	snprintf(stem, sizeof stem, "%s/k", dir);
	CHECK_EQ(gl_cupti_golden_load(stem, &back, &err), GL_OK);
	CHECK_STR(back.chip, "GH100");
	CHECK_STR(back.kernel, "transpose_naive");
	CHECK_EQ(back.n, 2);
	CHECK_STR(back.names[1], "gpu__time_duration.sum");
	CHECK(back.values[1] == g.values[1]); /* %.17g round-trips exactly */
	CHECK(back.size == sizeof bytes && memcmp(back.image, bytes, sizeof bytes) == 0);
	gl_cupti_golden_free(&back);
	CHECK_EQ(gl_cupti_golden_load("/nonexistent/x", &back, &err), GL_EENV);
	char path[96];
	snprintf(path, sizeof path, "%s/k.txt", dir);
	remove(path);
	snprintf(path, sizeof path, "%s/k.counterdata", dir);
	remove(path);
	rmdir(dir);
	CHECK_DONE();
}
