/* test_render_stream.c — the run table in pieces, as `run` prints it while variants run: the variant
 * column is as wide as the longest name known up front (at least 12), so a row printed before the others
 * exist lines up with the header and with every later row. */
#include <math.h>
#include <stdlib.h>

#include "render/render.h"
#include "common/metrics.h"
#include "tests/unit/check.h"

static void launch(struct gl_launch_record *l, const char *variant)
{
	memset(l, 0, sizeof *l);
	snprintf(l->topic, sizeof l->topic, "conv2d");
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	snprintf(l->metric_source, sizeof l->metric_source, "sim");
	l->verified = 1;
	l->duration_ns = NAN;
	gl_metrics_set(&l->metrics, GL_M_GLD_SECT, 64, "sector");
	gl_metrics_set(&l->metrics, GL_M_GLD_REQ, 16, "request");
}

/* The column where the second field of `line` (after the first run of blanks) starts. */
static long second_column(const char *line)
{
	const char *p = strchr(line, ' ');
	while (p && *p == ' ')
		p++;
	return p ? p - line : -1;
}

int main(void)
{
	const char *names[] = {"direct", "implicit_gemm_mma"};
	CHECK_EQ(gl_render_variant_width(names, 1), GL_RENDER_VARIANT_MIN); /* short names: the usual 12 */
	int w = gl_render_variant_width(names, 2);
	CHECK_EQ(w, 17);

	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct gl_launch_record a, b;
	launch(&a, "direct");
	launch(&b, "implicit_gemm_mma");
	gl_render_table_head(f, "conv2d  {}  backend sim  simulator", w);
	gl_render_table_row(f, &a, w); /* printed before b has run */
	gl_render_table_row(f, &b, w);
	fclose(f);

	char *line[4] = {0};
	int k = 0;
	for (char *s = strtok(buf, "\n"); s && k < 4; s = strtok(NULL, "\n"))
		line[k++] = s;
	CHECK_EQ(k, 4);
	CHECK_STR(line[0], "conv2d  {}  backend sim  simulator");
	CHECK(strncmp(line[1], "variant           verified", 26) == 0);
	CHECK_EQ(second_column(line[1]), 18);
	CHECK_EQ(second_column(line[2]), 18); /* "yes" under "verified" */
	CHECK_EQ(second_column(line[3]), 18);
	CHECK(strstr(line[2], "      4.00") != NULL); /* 64 sectors / 16 requests */
	CHECK_EQ(strlen(line[2]), strlen(line[3]));
	free(buf);
	gl_launch_record_free(&a);
	gl_launch_record_free(&b);
	CHECK_DONE();
}
