/* test_cli_options.c — the one option parser of every command (cli/options.c): repeated options in
 * order, --opt=value and -Xvalue, missing and unwanted values, unknown options with the nearest known
 * one, numbers checked against their range, positional counts, "--" and the common options. */
#include <stdlib.h>

#include "check.h"
#include "cli/cli.h"

enum { C_KERNEL = 1, C_ARG, C_N, C_TRACE, C_INC };

static const struct gl_opt opts[] = {
	GL_STR("kernel", "NAME", C_KERNEL, "the kernel"),
	GL_STR("arg", "SPEC", C_ARG, "an argument"),
	GL_NUM("count", "N", 1, 10, C_N, "a number"),
	GL_FLAG("trace", C_TRACE, "a flag"),
	{.short_name = 'I', .kind = GL_OPT_STRING, .value = "DIR", .help = "include", .code = C_INC},
	{0},
};

static const struct gl_cmd cmd = {
	.name = "demo",
	.usage = "FILE [options]",
	.summary = "a command for the tests",
	.opts = opts,
	.min_args = 1,
	.max_args = 2,
	.args_missing = "demo needs a FILE",
	.args_name = "one or two FILEs",
};

static int parse(struct gl_ctx *ctx, struct gl_args *a, int argc, char **argv)
{
	*ctx = (struct gl_ctx){.format = GL_FMT_TABLE};
	return gl_cmd_parse(ctx, &cmd, argc, argv, a);
}

#define PARSE(ctx, a, ...)                                                   \
	do {                                                                 \
		char *argv_[] = {"demo", __VA_ARGS__};                       \
		rc = parse(ctx, a, (int)(sizeof argv_ / sizeof *argv_), argv_); \
	} while (0)

static struct gl_ctx ctx;
static struct gl_args a;
static int rc;

static void test_repeats_and_forms(void)
{
	PARSE(&ctx, &a, "--arg", "i32:1", "f.ptx", "--arg=buf:x:f32:4", "-I", "inc", "-Iinc2", "--kernel=k",
	      "--trace", "--arg", "f32:2");
	CHECK_EQ(rc, GL_OK);
	const char *vals[8];
	CHECK_EQ(gl_args_list(&a, "arg", vals, 8), 3);
	CHECK(strcmp(vals[0], "i32:1") == 0 && strcmp(vals[1], "buf:x:f32:4") == 0 && strcmp(vals[2], "f32:2") == 0);
	CHECK_EQ(gl_args_list(&a, "I", vals, 8), 2);
	CHECK(strcmp(vals[0], "inc") == 0 && strcmp(vals[1], "inc2") == 0);
	CHECK(strcmp(gl_args_get(&a, "kernel"), "k") == 0);
	CHECK(gl_args_has(&a, "trace"));
	CHECK(!gl_args_has(&a, "count"));
	CHECK_EQ(gl_args_long(&a, "count", 7), 7);
	CHECK_EQ(a.npos, 1);
	CHECK(strcmp(a.pos[0], "f.ptx") == 0);
	/* options in the order given, with their codes, for handlers that switch on them */
	CHECK_EQ(a.nopts, 7);
	CHECK_EQ(a.opts[0].opt->code, C_ARG);
	CHECK_EQ(a.opts[2].opt->code, C_INC);
	/* the last of a repeated single-valued option wins; a unique prefix names its option */
	PARSE(&ctx, &a, "f", "--kernel", "a", "--kern", "b", "--count", "3");
	CHECK_EQ(rc, GL_OK);
	CHECK(strcmp(gl_args_get(&a, "kernel"), "b") == 0);
	CHECK_EQ(gl_args_long(&a, "count", 0), 3);
}

static void test_errors(void)
{
	PARSE(&ctx, &a, "f", "--kernel");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "option '--kernel' needs a value") != NULL);
	PARSE(&ctx, &a, "f", "-I");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "option '-I' needs a value") != NULL);
	PARSE(&ctx, &a, "f", "--kernal", "k");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "unknown option '--kernal' for demo (did you mean '--kernel'?)") != NULL);
	CHECK(strstr(ctx.err.msg, "(see 'gpulab demo --help')") != NULL);
	PARSE(&ctx, &a, "f", "--jsno");
	CHECK(strstr(ctx.err.msg, "did you mean '--json'?") != NULL); /* the common options are suggested too */
	PARSE(&ctx, &a, "f", "--zzzzzzzz");
	CHECK(strstr(ctx.err.msg, "unknown option '--zzzzzzzz' for demo") != NULL);
	CHECK(strstr(ctx.err.msg, "did you mean") == NULL);
	PARSE(&ctx, &a, "f", "-x");
	CHECK(strstr(ctx.err.msg, "unknown option '-x' for demo") != NULL);
	PARSE(&ctx, &a, "f", "--trace=1");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "option '--trace' takes no value") != NULL);
	PARSE(&ctx, &a, "f", "--count", "11");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "--count 11 is out of range (expected 1 to 10)") != NULL);
	PARSE(&ctx, &a, "f", "--count=x");
	CHECK(strstr(ctx.err.msg, "invalid --count 'x'") != NULL);
}

static void test_positional(void)
{
	PARSE(&ctx, &a, "--trace");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "demo needs a FILE") != NULL);
	PARSE(&ctx, &a, "a", "b", "c");
	CHECK_EQ(rc, GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "demo takes one or two FILEs but got 3: unexpected argument 'c'") != NULL);
	/* after "--" everything is positional, "-" alone always is */
	PARSE(&ctx, &a, "--", "--trace", "-");
	CHECK_EQ(rc, GL_OK);
	CHECK_EQ(a.npos, 2);
	CHECK(strcmp(a.pos[0], "--trace") == 0 && strcmp(a.pos[1], "-") == 0);
	CHECK(!gl_args_has(&a, "trace"));
	/* a value that looks like an option is still the value */
	PARSE(&ctx, &a, "f", "--kernel", "--trace");
	CHECK_EQ(rc, GL_OK);
	CHECK(strcmp(gl_args_get(&a, "kernel"), "--trace") == 0);
	CHECK(!gl_args_has(&a, "trace"));
}

static void test_common(void)
{
	PARSE(&ctx, &a, "f", "--db", "x.db", "--json");
	CHECK_EQ(rc, GL_OK);
	CHECK(strcmp(ctx.db_path, "x.db") == 0);
	CHECK_EQ(ctx.format, GL_FMT_JSON);
	CHECK_EQ(a.nopts, 0); /* the common options set the context, the command never sees them */
	PARSE(&ctx, &a, "f", "--db=y.db", "--csv");
	CHECK(strcmp(ctx.db_path, "y.db") == 0);
	CHECK_EQ(ctx.format, GL_FMT_CSV);
}

static void test_extra_and_help(void)
{
	static const struct gl_opt extra[] = {GL_STR("rows", "V", 99, "a topic parameter"), {0}};
	char *argv[] = {"demo", "f", "--rows", "512", "--rwos", "1"};
	ctx = (struct gl_ctx){0};
	CHECK_EQ(gl_cmd_parse_extra(&ctx, &cmd, extra, 4, argv, &a), GL_OK);
	CHECK_EQ(a.opts[0].opt->code, 99);
	CHECK_EQ(gl_optval_long(&a.opts[0]), 512);
	CHECK_EQ(gl_cmd_parse_extra(&ctx, &cmd, extra, 6, argv, &a), GL_EUSAGE);
	CHECK(strstr(ctx.err.msg, "did you mean '--rows'?") != NULL);

	/* the option lines of --help come from the table */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	gl_cmd_print_help(&cmd, f);
	fclose(f);
	CHECK(strstr(buf, "usage: gpulab demo FILE [options]") != NULL);
	CHECK(strstr(buf, "  --count N      a number\n") != NULL);
	CHECK(strstr(buf, "  -I DIR         include\n") != NULL);
	CHECK(strstr(buf, "--json") != NULL);
	free(buf);
}

int main(void)
{
	test_repeats_and_forms();
	test_errors();
	test_positional();
	test_common();
	test_extra_and_help();
	CHECK_DONE();
}
