/* test_common_launch_filter.c — ncu's launch selection: an exact name, regex:, --launch-skip and
 * --launch-count counted over matching launches only, and the errors a user can make. */
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "common/launch_filter.h"

/* Which of the launches `names` (in order) the filter selects, as a string of 0s and 1s. */
static void pattern(const char *kernel, long skip, long count, const char *const *names, int n, char *out)
{
	struct gl_launch_filter f;
	struct gl_err err = {0};
	CHECK_EQ(gl_launch_filter_init(&f, kernel, skip, count, &err), GL_OK);
	for (int i = 0; i < n; i++)
		out[i] = gl_launch_filter_take(&f, names[i], NULL) ? '1' : '0';
	out[n] = '\0';
	gl_launch_filter_free(&f);
}

static void selects_like_ncu(void)
{
	const char *names[] = {"add", "scale", "add", "add_bias", "scale", "add", "add"};
	char got[16];
	pattern(NULL, 0, -1, names, 7, got);
	CHECK_STR(got, "1111111");
	pattern("add", 0, -1, names, 7, got); /* exact: add_bias is not add */
	CHECK_STR(got, "1010011");
	pattern("regex:^add", 0, -1, names, 7, got);
	CHECK_STR(got, "1011011");
	pattern("regex:c", 0, -1, names, 7, got); /* found anywhere in the name */
	CHECK_STR(got, "0100100");
	pattern("add", 1, 2, names, 7, got); /* skip and count count matching launches only */
	CHECK_STR(got, "0010010");
	pattern(NULL, 2, 3, names, 7, got);
	CHECK_STR(got, "0011100");
	pattern("scale", 5, -1, names, 7, got);
	CHECK_STR(got, "0000000");
	pattern(NULL, 0, 0, names, 7, got);
	CHECK_STR(got, "0000000");
}

/* A name with or without its namespaces, or the mangled symbol, as ncu's -k reads it. */
static void namespaces_and_symbols(void)
{
	struct gl_launch_filter f;
	struct gl_err err = {0};
	CHECK_EQ(gl_launch_filter_init(&f, "scale", 0, -1, &err), GL_OK);
	CHECK(gl_launch_filter_take(&f, "lab::scale", "_ZN3lab5scaleEPfi"));
	CHECK(!gl_launch_filter_take(&f, "lab::rescale", "_ZN3lab7rescaleEPfi"));
	gl_launch_filter_free(&f);
	CHECK_EQ(gl_launch_filter_init(&f, "_ZN3lab5scaleEPfi", 0, -1, &err), GL_OK);
	CHECK(gl_launch_filter_take(&f, "lab::scale", "_ZN3lab5scaleEPfi"));
	CHECK(!gl_launch_filter_take(&f, "scale", NULL));
	gl_launch_filter_free(&f);
	CHECK_EQ(gl_launch_filter_init(&f, "lab::scale", 0, -1, &err), GL_OK);
	CHECK(gl_launch_filter_take(&f, "lab::scale", NULL));
	CHECK(!gl_launch_filter_take(&f, "other::scale", NULL));
	gl_launch_filter_free(&f);
}

static void done_after_count(void)
{
	struct gl_launch_filter f;
	struct gl_err err = {0};
	CHECK_EQ(gl_launch_filter_init(&f, "regex:k[0-9]", 0, 2, &err), GL_OK);
	CHECK(!gl_launch_filter_done(&f));
	CHECK(!gl_launch_filter_take(&f, "other", NULL));
	CHECK(gl_launch_filter_take(&f, "k1", NULL));
	CHECK(!gl_launch_filter_done(&f));
	CHECK(gl_launch_filter_take(&f, "k2", NULL));
	CHECK(gl_launch_filter_done(&f));
	CHECK(!gl_launch_filter_take(&f, "k3", NULL));
	CHECK_EQ(f.matched, 3);
	gl_launch_filter_free(&f);
}

static void bad_input(void)
{
	struct gl_launch_filter f;
	struct gl_err err = {0};
	CHECK_EQ(gl_launch_filter_init(&f, "regex:(unclosed", 0, -1, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "regex:(unclosed") && strstr(err.msg, "does not compile"));
	gl_err_clear(&err);
	CHECK_EQ(gl_launch_filter_init(&f, "add", -1, -1, &err), GL_EUSAGE);
	CHECK(strstr(err.msg, "--launch-skip -1") != NULL);
	gl_launch_filter_free(&f);
}

int main(void)
{
	selects_like_ncu();
	namespaces_and_symbols();
	done_after_count();
	bad_input();
	CHECK_DONE();
}
