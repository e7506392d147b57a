/* test_kernels_params.c — a launch's parameters written and read back by the one writer and the one reader
 * (gl_problem_json, gl_problem_from_json): numbers, choices by name and a seed other than the default round
 * trip exactly; the default seed is not written (stored parameters stay as they were); a parameter the
 * text lacks keeps its default and says so. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels/registry.h"

int main(void)
{
	const struct gl_topic *t = gl_topic_find("conv2d");
	struct gl_problem p, back;
	CHECK(t != NULL);
	gl_problem_defaults(t, &p);
	char *json = gl_problem_json(t, &p);
	CHECK(strstr(json, "\"seed\"") == NULL);
	CHECK_EQ(gl_problem_from_json(t, json, &back), 0);
	CHECK(memcmp(&p, &back, sizeof p) == 0);
	free(json);

	int layout = gl_param_index(t, "layout");
	CHECK(layout >= 0);
	p.v[layout] = gl_param_choice(&t->params[layout], "nhwc");
	p.v[gl_param_index(t, "k")] = 48;
	p.seed = 5;
	json = gl_problem_json(t, &p);
	CHECK(strstr(json, "\"layout\":\"nhwc\"") != NULL);
	CHECK(strstr(json, "\"seed\":5") != NULL);
	CHECK_EQ(gl_problem_from_json(t, json, &back), 0);
	CHECK(memcmp(&p, &back, sizeof p) == 0);
	free(json);

	const struct gl_topic *tr = gl_topic_find("transpose");
	CHECK_EQ(gl_problem_from_json(tr, "{\"cols\":7}", &back), -1);
	CHECK_EQ(back.v[gl_param_index(tr, "cols")], 7);
	CHECK_EQ(back.v[gl_param_index(tr, "rows")], tr->params[gl_param_index(tr, "rows")].def);
	CHECK_EQ(gl_problem_from_json(tr, "{\"rows\":64,\"cols\":\"wide\"}", &back), -1); /* not a number */
	CHECK_EQ(back.seed, GL_DEFAULT_SEED);
	CHECK_DONE();
}
