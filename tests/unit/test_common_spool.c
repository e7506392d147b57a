/* test_common_spool.c — the profile hand-off (common/spool.h): a launch written by the program's side is
 * loaded back field for field; the loader takes only whole launch files, in launch order, and rejects
 * with a reason every file that is not a launch this build wrote: truncated at every length, a string
 * longer than its field, values out of range, trailing bytes, a link, another format version, a file over
 * the size limit, another user's or one others may write; a spool others may write is refused whole; a
 * link planted at a launch's name is replaced, never followed; removing a spool removes what the hand-off
 * made and nothing else. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/spool.h"
#include "common/util.h"

static void sample(struct gl_spool_launch *l, long seq)
{
	memset(l, 0, sizeof *l);
	gl_launch_record_init(&l->rec);
	l->seq = seq;
	snprintf(l->kernel, sizeof l->kernel, "void lab::scale<float>(float*, int)");
	snprintf(l->gpu, sizeof l->gpu, "H100");
	l->stream = 3;
	l->estimate_us = 1.5;
	l->error = 700;
	struct gl_launch_record *r = &l->rec;
	snprintf(r->topic, sizeof r->topic, "program");
	snprintf(r->variant, sizeof r->variant, "lab::scale");
	snprintf(r->entry, sizeof r->entry, "_ZN3lab5scaleIfEEvPfi");
	r->params_json = gl_xstrdup("{\"n\":4}");
	r->grid[0] = 4, r->grid[1] = r->grid[2] = 1;
	r->block[0] = 256, r->block[1] = r->block[2] = 1;
	r->dyn_smem = 128;
	r->regs = 10;
	r->static_smem = 0;
	snprintf(r->metric_source, sizeof r->metric_source, "sim");
	gl_metrics_set(&r->metrics, "smsp__sass_inst_executed_op_global_st.sum", 128, "");
	gl_metrics_set(&r->metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 512, "sector");
	r->sanitized = true;
	r->sanitizer_errors = 32;
	r->findings = gl_xcalloc(1, sizeof *r->findings);
	r->nfindings = 1;
	snprintf(r->findings[0].kind, sizeof r->findings[0].kind, "out-of-bounds");
	snprintf(r->findings[0].src_file, sizeof r->findings[0].src_file, "oob.cu");
	r->findings[0].src_line = 10;
	r->findings[0].line = 33;
	r->findings[0].count = 32;
	r->findings[0].nsamples = 1;
	r->trace = gl_xcalloc(1, sizeof *r->trace);
	r->ntrace = 1;
	r->trace[0].space = GL_TRACE_GLOBAL;
	r->trace[0].op = GL_TRACE_ST;
	r->trace[0].bytes = 4;
	r->trace[0].mask = 0xffffffffu;
	r->trace[0].addrs[31] = 0x1234;
}

static void test_round_trip(const char *dir)
{
	struct gl_spool_launch a, b;
	struct gl_err err = {0};
	sample(&a, 2);
	sample(&b, 1);
	CHECK_EQ(gl_spool_write(dir, &a, &err), GL_OK);
	CHECK_EQ(gl_spool_write(dir, &b, &err), GL_OK);
	struct gl_spool_set set;
	CHECK_EQ(gl_spool_load(dir, &set, &err), GL_OK);
	CHECK_EQ(set.n, 2);
	CHECK_EQ(set.rejected, 0);
	if (set.n == 2) {
		const struct gl_spool_launch *l = &set.launches[1]; /* sorted by launch number */
		CHECK_EQ(set.launches[0].seq, 1);
		CHECK_EQ(l->seq, 2);
		CHECK_STR(l->kernel, "void lab::scale<float>(float*, int)");
		CHECK_EQ(l->error, 700);
		CHECK_EQ(l->stream, 3);
		CHECK_STR(l->rec.params_json, "{\"n\":4}");
		CHECK_EQ(l->rec.grid[0], 4);
		CHECK_EQ(l->rec.dyn_smem, 128);
		CHECK_EQ(l->rec.regs, 10);
		CHECK_EQ(l->rec.metrics.n, 2);
		CHECK_EQ(*gl_metrics_get(&l->rec.metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 512);
		CHECK_EQ(l->rec.sanitizer_errors, 32);
		CHECK_EQ(l->rec.nfindings, 1);
		CHECK_EQ(l->rec.findings[0].src_line, 10);
		CHECK_EQ(l->rec.ntrace, 1);
		CHECK_EQ(l->rec.trace[0].addrs[31], 0x1234);
		CHECK(isnan(l->rec.duration_ns));
	}
	gl_spool_set_free(&set);
	gl_spool_launch_free(&a);
	gl_spool_launch_free(&b);
}

/* The bytes gl_spool_write made for `l`. */
static unsigned char *bytes_of(const char *dir, struct gl_spool_launch *l, size_t *n)
{
	struct gl_err err = {0};
	char path[512];
	CHECK_EQ(gl_spool_write(dir, l, &err), GL_OK);
	snprintf(path, sizeof path, "%s/launch-%06ld", dir, l->seq);
	char *text = NULL;
	CHECK_EQ(gl_read_file(path, &text, n), GL_OK);
	unlink(path);
	return (unsigned char *)text;
}

static void expect_rejected(const unsigned char *buf, size_t n, const char *why)
{
	struct gl_spool_launch out;
	struct gl_err err = {0};
	CHECK_EQ(gl_spool_decode(buf, n, &out, &err), GL_EUSAGE);
	if (!strstr(err.msg, why))
		fprintf(stderr, "expected '%s', got '%s'\n", why, err.msg);
	CHECK(strstr(err.msg, why) != NULL);
}

static void test_checks(const char *dir)
{
	struct gl_spool_launch l;
	size_t n;
	sample(&l, 7);
	unsigned char *good = bytes_of(dir, &l, &n);
	struct gl_spool_launch out;
	struct gl_err err = {0};
	CHECK_EQ(gl_spool_decode(good, n, &out, &err), GL_OK);
	gl_spool_launch_free(&out);
	int bad = 0; /* every truncation is refused, none crashes (ASan watches) */
	for (size_t k = 0; k < n; k++)
		bad += gl_spool_decode(good, k, &out, &err) == GL_EUSAGE;
	CHECK_EQ(bad, (int)n);
	unsigned char *more = gl_xmalloc(n + 1);
	memcpy(more, good, n);
	more[n] = 0;
	expect_rejected(more, n + 1, "bytes after the launch");
	free(more);
	good[8] = 9; /* the version */
	expect_rejected(good, n, "another gpulab version");
	free(good);
	gl_spool_launch_free(&l);

	sample(&l, 7);
	l.rec.block[0] = 2048;
	good = bytes_of(dir, &l, &n);
	expect_rejected(good, n, "more than 1024 threads");
	free(good);
	gl_spool_launch_free(&l);

	sample(&l, 7);
	snprintf(l.rec.topic, sizeof l.rec.topic, "gemm");
	good = bytes_of(dir, &l, &n);
	expect_rejected(good, n, "topic other than 'program'");
	free(good);
	gl_spool_launch_free(&l);

	sample(&l, 7);
	gl_metrics_set(&l.rec.metrics, "x", INFINITY, "");
	good = bytes_of(dir, &l, &n);
	expect_rejected(good, n, "infinite metric");
	free(good);
	gl_spool_launch_free(&l);

	sample(&l, 7);
	l.rec.trace[0].space = 9;
	good = bytes_of(dir, &l, &n);
	expect_rejected(good, n, "trace event out of range");
	free(good);
	gl_spool_launch_free(&l);

	sample(&l, 7);
	l.rec.sanitizer_errors = -1;
	good = bytes_of(dir, &l, &n);
	expect_rejected(good, n, "negative sanitizer count");
	free(good);
	gl_spool_launch_free(&l);

	/* a string length beyond its field: the kernel name's length word made huge */
	sample(&l, 7);
	good = bytes_of(dir, &l, &n);
	uint32_t huge = 100000;
	memcpy(good + 8 + 4 + 8, &huge, 4);
	expect_rejected(good, n, "longer than its field");
	free(good);
	gl_spool_launch_free(&l);
}

static const char *path_in(const char *dir, const char *name)
{
	static char buf[4][512];
	static int k;
	char *p = buf[k++ % 4];
	int len = snprintf(p, 512, "%s/%s", dir, name);
	CHECK(len > 0 && len < 512); /* a cut path would name another file */
	return p;
}

static void test_directory(const char *dir)
{
	struct gl_err err = {0};
	struct gl_spool_set set;
	FILE *f = fopen(path_in(dir, "launch-000009"), "w"); /* a half-written, hostile file */
	fputs("GLSPOOL", f);
	fclose(f);
	CHECK_EQ(symlink("/etc/passwd", path_in(dir, "launch-000010")), 0);
	f = fopen(path_in(dir, "notes.txt"), "w"); /* not a launch file: ignored */
	fclose(f);
	CHECK_EQ(gl_spool_load(dir, &set, &err), GL_OK);
	CHECK_EQ(set.n, 0);
	CHECK_EQ(set.rejected, 2);
	gl_spool_set_free(&set);
	CHECK_EQ(gl_spool_load("/nonexistent/spool", &set, &err), GL_EENV);
	CHECK(strstr(err.msg, "/nonexistent/spool") != NULL);
}

#define NOBODY 65534

static void expect_first_rejected(const char *dir, const char *name, const char *why)
{
	struct gl_err err = {0};
	struct gl_spool_set set;
	char want[64];
	snprintf(want, sizeof want, "%s: ", name);
	CHECK_EQ(gl_spool_load(dir, &set, &err), GL_OK);
	CHECK_EQ(set.n, 0);
	CHECK_EQ(set.rejected, 1);
	if (!strstr(set.first_rejected, why))
		fprintf(stderr, "expected '%s', got '%s'\n", why, set.first_rejected);
	CHECK(strncmp(set.first_rejected, want, strlen(want)) == 0 && strstr(set.first_rejected, why) != NULL);
	gl_spool_set_free(&set);
	unlink(path_in(dir, name));
}

/* The spool's directory and files under common/safe_dir.h's rules (`dir` holds no launch file). */
static void test_refused(const char *dir)
{
	struct gl_err err = {0};
	struct gl_spool_launch l;
	/* one byte over the limit: refused before a byte is read (a sparse file) */
	int fd = open(path_in(dir, "launch-000011"), O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)GL_SPOOL_MAX_FILE + 1) == 0 && close(fd) == 0);
	expect_first_rejected(dir, "launch-000011", "268435457 bytes, more than the 268435456");
	/* a complete launch that others may write, or (as root) another user's */
	sample(&l, 12);
	CHECK_EQ(gl_spool_write(dir, &l, &err), GL_OK);
	CHECK(chmod(path_in(dir, "launch-000012"), 0666) == 0);
	expect_first_rejected(dir, "launch-000012", "writable by every user");
	if (geteuid() == 0) {
		CHECK_EQ(gl_spool_write(dir, &l, &err), GL_OK);
		CHECK(chown(path_in(dir, "launch-000012"), NOBODY, NOBODY) == 0);
		expect_first_rejected(dir, "launch-000012", "belongs to user 65534");
	}
	gl_spool_launch_free(&l);
	/* a link planted at a launch's name points at a file of the user's: the write replaces the link */
	FILE *f = fopen(path_in(dir, "precious"), "w");
	CHECK(f && fputs("mine\n", f) >= 0 && fclose(f) == 0);
	CHECK(symlink(path_in(dir, "precious"), path_in(dir, "launch-000013")) == 0);
	sample(&l, 13);
	CHECK_EQ(gl_spool_write(dir, &l, &err), GL_OK);
	gl_spool_launch_free(&l);
	size_t n = 0;
	char *text = NULL;
	CHECK_EQ(gl_read_file(path_in(dir, "precious"), &text, &n), GL_OK);
	CHECK_STR(text, "mine\n");
	free(text);
	struct stat st;
	CHECK(lstat(path_in(dir, "launch-000013"), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
	struct gl_spool_set set;
	CHECK_EQ(gl_spool_load(dir, &set, &err), GL_OK);
	CHECK_EQ(set.n, 1);
	CHECK_EQ(set.rejected, 0);
	gl_spool_set_free(&set);
	/* a spool its group may write: refused whole, for reading and for writing */
	CHECK(chmod(dir, 0770) == 0);
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_spool_load(dir, &set, &err), GL_EENV);
	CHECK(strstr(err.msg, dir) && strstr(err.msg, "writable by its group"));
	sample(&l, 14);
	memset(&err, 0, sizeof err);
	CHECK_EQ(gl_spool_write(dir, &l, &err), GL_EENV);
	CHECK(strstr(err.msg, "cannot write launch 14 into the profile spool") && strstr(err.msg, "writable by its group"));
	gl_spool_launch_free(&l);
	CHECK(chmod(dir, 0700) == 0);
	CHECK(access(path_in(dir, "launch-000014"), F_OK) != 0);
}

/* Removing a spool: its launch files and a write's leftover temporary file go; the directory goes only
 * when nothing else is left in it (a --spool DIR of the user's keeps the rest). */
static void test_remove(const char *dir)
{
	FILE *f = fopen(path_in(dir, ".gl-tmp-1-0123456789abcdef"), "w"); /* a write killed half-way */
	CHECK(f && fclose(f) == 0);
	gl_spool_remove(dir);
	CHECK(access(path_in(dir, "launch-000013"), F_OK) != 0);
	CHECK(access(path_in(dir, ".gl-tmp-1-0123456789abcdef"), F_OK) != 0);
	CHECK(access(path_in(dir, "precious"), F_OK) == 0);
	CHECK(access(path_in(dir, "notes.txt"), F_OK) == 0);
	unlink(path_in(dir, "precious"));
	unlink(path_in(dir, "notes.txt"));
	gl_spool_remove(dir);
	CHECK(access(dir, F_OK) != 0);
}

int main(void)
{
	char dir[512];
	struct gl_err err = {0};
	CHECK_EQ(gl_spool_create(dir, sizeof dir, &err), GL_OK);
	struct stat st;
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
	test_round_trip(dir);
	char dir2[512];
	CHECK_EQ(gl_spool_create(dir2, sizeof dir2, &err), GL_OK);
	test_checks(dir2);
	test_directory(dir2);
	gl_spool_remove(dir);
	CHECK(access(dir, F_OK) != 0);
	unlink(path_in(dir2, "launch-000009"));
	unlink(path_in(dir2, "launch-000010"));
	test_refused(dir2);
	test_remove(dir2);
	CHECK_DONE();
}
