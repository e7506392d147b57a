/* test_common_csv.c — the one CSV writer: plain fields as they are, RFC 4180 quoting for , " CR LF,
 * empty fields for NULL text and NaN numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "common/csv.h"

static void expect_field(const char *in, const char *want)
{
	char buf[128] = {0};
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");
	gl_csv_field(f, in);
	fclose(f);
	CHECK_STR(buf, want);
}

static void expect_number(double v, const char *want)
{
	char buf[64] = {0};
	FILE *f = fmemopen(buf, sizeof buf - 1, "w");
	gl_csv_number(f, v);
	fclose(f);
	CHECK_STR(buf, want);
}

int main(void)
{
	expect_field("naive", "naive");
	expect_field("{\"rows\":64,\"cols\":64}", "\"{\"\"rows\"\":64,\"\"cols\"\":64}\"");
	expect_field("a\r\nb", "\"a\r\nb\"");
	expect_field("", "");
	expect_field(NULL, "");
	expect_number(4.0, "4");
	expect_number(0.1, "0.1");
	expect_number(1.0 / 3.0, "0.333333333333333");
	expect_number(NAN, "");
	CHECK_DONE();
}
