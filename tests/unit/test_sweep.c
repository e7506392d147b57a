/* test_sweep.c — a sweep's spec and its expansion (sweep/sweep_spec.c, sweep/sweep_plan.c): the TOML
 * subset (strings, integers, one-line arrays, comments, [params] and [slurm]; anything else refused with
 * its line), --param NAME=V1,V2, and the cartesian product with each variant's size rules. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sweep/sweep.h"

static char path[] = "/tmp/gl_test_cli_sweep_XXXXXX";

static int read_spec(const char *text, struct gl_sweep_spec *s, struct gl_err *err)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(text, f);
	fclose(f);
	memset(s, 0, sizeof *s);
	gl_err_clear(err);
	return gl_sweep_spec_read(path, s, err);
}

static void test_toml_subset(void)
{
	struct gl_sweep_spec s;
	struct gl_err err = {0};
	CHECK_EQ(read_spec("# sweep\ntopic = \"gemm\"  # the topic\nvariants = [\"smem\", \"naive\"]\n"
			   "shard_ctas = 4\n\n[params]\nm = [64, 1_024]\nn = 32\n[slurm]\npartition = \"gpu\"\n"
			   "gres = \"gpu:1\"\ntime = \"00:10:00\"\narray_limit = 3\n",
			   &s, &err),
		 GL_OK);
	CHECK(strcmp(s.topic, "gemm") == 0);
	CHECK(strcmp(s.variants, "smem,naive") == 0);
	CHECK_EQ(s.shard_ctas, 4);
	CHECK_EQ(s.nparams, 2);
	CHECK(strcmp(s.param_names[0], "m") == 0 && s.nvalues[0] == 2);
	CHECK(strcmp(s.param_values[0][1], "1024") == 0);
	CHECK(strcmp(s.param_names[1], "n") == 0 && s.nvalues[1] == 1);
	CHECK(strcmp(s.partition, "gpu") == 0 && strcmp(s.gres, "gpu:1") == 0 && strcmp(s.time, "00:10:00") == 0);
	CHECK_EQ(s.array_limit, 3);
	const char *bad[][2] = {
		{"topic = \"gemm\"\nm = [1,\n 2]\n", ":2: cannot read this line"},
		{"topic = gemm\n", ":1: cannot read this line"},
		{"[params]\nm = 1.5\n", ":2: cannot read this line"},
		{"[other]\n", ":1: cannot read this line"},
		{"colour = \"red\"\n", ":1: unknown key 'colour'"},
		{"[slurm]\nqos = \"x\"\n", ":2: unknown key 'qos' in [slurm]"},
		{"[params]\nm = [\"a b\"]\n", ":2: parameter m: value 'a b' is not a number or a name"},
		{"topic = \"a\\qb\"\n", ":1: cannot read this line"},
		{"shard_ctas = 0\n", ":1: cannot read this line"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_EQ(read_spec(bad[i][0], &s, &err), GL_EUSAGE);
		CHECK(strstr(err.msg, bad[i][1]) != NULL);
	}
}

static void test_param_option(void)
{
	struct gl_sweep_spec s = {0};
	struct gl_err err = {0};
	CHECK_EQ(gl_sweep_spec_param(&s, "size=256,512,1024", &err), GL_OK);
	CHECK_EQ(gl_sweep_spec_param(&s, "causal=0,1", &err), GL_OK);
	CHECK_EQ(gl_sweep_spec_param(&s, "size=8", &err), GL_OK); /* replaces */
	CHECK_EQ(s.nparams, 2);
	CHECK_EQ(s.nvalues[0], 1);
	CHECK(strcmp(s.param_values[0][0], "8") == 0);
	CHECK_EQ(gl_sweep_spec_param(&s, "size", &err), GL_EUSAGE);
	gl_err_clear(&err);
	CHECK_EQ(gl_sweep_spec_param(&s, "=3", &err), GL_EUSAGE);
	gl_err_clear(&err);
	CHECK_EQ(gl_sweep_spec_param(&s, "size=a/b", &err), GL_EUSAGE);
	gl_err_clear(&err);
	CHECK_EQ(gl_sweep_spec_param(&s, "layout=nchw,nhwc", &err), GL_OK); /* a choice, by name */
	CHECK(strcmp(s.param_values[2][1], "nhwc") == 0);
}

static void test_expand(void)
{
	struct gl_sweep_spec s = {0};
	struct gl_sweep_plan plan;
	struct gl_err err = {0};
	char line[512];
	snprintf(s.topic, sizeof s.topic, "gemm");
	snprintf(s.variants, sizeof s.variants, "naive,vectorized");
	snprintf(s.backend, sizeof s.backend, "sim");
	CHECK_EQ(gl_sweep_spec_param(&s, "n=32,30", &err), GL_OK);
	CHECK_EQ(gl_sweep_spec_param(&s, "m=16", &err), GL_OK);
	CHECK_EQ(gl_sweep_expand(&s, &plan, &err), GL_OK);
	CHECK_EQ(plan.combinations, 2);
	CHECK_EQ(plan.njobs, 2);
	gl_sweep_job_line(&plan.jobs[0], line, sizeof line);
	CHECK(strcmp(line, "run gemm --backend sim --n 32 --m 16 --variant naive,vectorized") == 0);
	gl_sweep_job_line(&plan.jobs[1], line, sizeof line);
	CHECK(strcmp(line, "run gemm --backend sim --n 30 --m 16 --variant naive") == 0);
	CHECK_EQ(plan.nrefused, 1);
	CHECK(strncmp(plan.refused[0], "n=30 m=16 variant vectorized: ", 30) == 0);
	gl_sweep_plan_free(&plan);
	/* --shard-ctas: one job per variant and range; a grid smaller than K gives one range per CTA */
	snprintf(s.variants, sizeof s.variants, "naive");
	s.shard_ctas = 3;
	s.nparams = 0;
	CHECK_EQ(gl_sweep_spec_param(&s, "size=64", &err), GL_OK);
	CHECK_EQ(gl_sweep_expand(&s, &plan, &err), GL_OK);
	CHECK(plan.njobs >= 1 && plan.njobs <= 3);
	long next = 0, first, end;
	for (int i = 0; i < plan.njobs; i++) {
		gl_sweep_job_line(&plan.jobs[i], line, sizeof line);
		const char *r = strstr(line, "--cta-range ");
		CHECK(r != NULL && sscanf(r, "--cta-range %ld:%ld", &first, &end) == 2);
		CHECK_EQ(first, next);
		CHECK(end > first);
		next = end;
	}
	gl_sweep_plan_free(&plan);
	snprintf(s.topic, sizeof s.topic, "gemmm");
	CHECK_EQ(gl_sweep_expand(&s, &plan, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "gemm") != NULL);
	gl_sweep_plan_free(&plan);
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	test_toml_subset();
	test_param_option();
	test_expand();
	unlink(path);
	CHECK_DONE();
}
