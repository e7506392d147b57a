/* test_sim_printf.c — the device printf formatter and its buffer: flags, widths, precisions, every
 * conversion CUDA supports with the length modifiers, arguments read from a packed argument buffer,
 * %s through simulated memory, unsupported conversions printed as written, clamped widths, records
 * dropped when the buffer is full and the same records kept whatever the order of merging. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "sim/sim_printf.h"

#define BASE 0x1000u

/* Simulated memory: an argument buffer packed as nvcc packs it, then strings. */
static uint8_t mem[4096];
static size_t mem_len;
static int reads_failed;

static int mem_read(void *ctx, uint64_t addr, unsigned size, void *out)
{
	(void)ctx;
	if (addr < BASE || addr - BASE > sizeof mem - size) {
		reads_failed++;
		return -1;
	}
	memcpy(out, mem + (addr - BASE), size);
	return 0;
}

static const struct sim_printf_reader reader = {mem_read, NULL};

static void reset(void)
{
	memset(mem, 0, sizeof mem);
	mem_len = 0;
	reads_failed = 0;
}

static void put_arg(const void *v, size_t size)
{
	mem_len = (mem_len + size - 1) / size * size;
	memcpy(mem + mem_len, v, size);
	mem_len += size;
}

static void arg_i32(int32_t v) { put_arg(&v, 4); }
static void arg_i64(int64_t v) { put_arg(&v, 8); }
static void arg_f64(double v) { put_arg(&v, 8); }

/* A string placed at offset 2048; returns its simulated address. */
static uint64_t string_at(size_t off, const char *s)
{
	memcpy(mem + off, s, strlen(s) + 1);
	return BASE + off;
}

static char result[1 << 16];
static struct sim_printf_note note;

/* Format with the packed arguments; returns the formatter's status, the text in `result`. */
static int fmt_limit(const char *f, size_t limit)
{
	struct gl_str out = {0};
	int rc = sim_printf_format(f, BASE, &reader, limit, &out, &note);
	snprintf(result, sizeof result, "%s", out.buf ? out.buf : "");
	gl_str_free(&out);
	return rc;
}

static const char *fmt(const char *f)
{
	CHECK_EQ(fmt_limit(f, 60000), 0);
	return result;
}

static void test_integers(void)
{
	reset();
	arg_i32(42);
	arg_i32(-42);
	arg_i32(7);
	arg_i32(-1);
	CHECK_STR(fmt("%d|%i|%5d|%-5d|"), "42|-42|    7|-1   |");
	reset();
	arg_i32(42);
	arg_i32(42);
	arg_i32(-42);
	arg_i32(42);
	CHECK_STR(fmt("%+d|% d|%05d|%.4d"), "+42| 42|-0042|0042");
	reset();
	arg_i32(5);
	arg_i32(0);
	arg_i32(0);
	CHECK_STR(fmt("%08.3d|%.0d|%5.0d|"), "     005||     |");
	reset();
	arg_i32(-1);
	arg_i32(255);
	arg_i32(255);
	arg_i32(255);
	arg_i32(8);
	arg_i32(0);
	CHECK_STR(fmt("%u|%x|%X|%#x|%#o|%#x"), "4294967295|ff|FF|0xff|010|0");
	reset();
	arg_i32(0);
	arg_i32(8);
	CHECK_STR(fmt("%#o|%#.3o"), "0|010");
	reset();
	arg_i32(0x1ff);
	arg_i32(0x1ff);
	arg_i32(0x18000);
	arg_i32(0x18000);
	CHECK_STR(fmt("%hhu|%hhd|%hu|%hd"), "255|-1|32768|-32768");
	reset();
	arg_i32(1);
	arg_i64(-1099511627776ll);
	arg_i64(-1);
	arg_i64(0x123456789abcll);
	CHECK_STR(fmt("%d %lld %lu %lx"), "1 -1099511627776 18446744073709551615 123456789abc");
	reset();
	arg_i64(INT64_MIN);
	CHECK_STR(fmt("%lld"), "-9223372036854775808");
	reset();
	arg_i32('A');
	arg_i32('z');
	CHECK_STR(fmt("[%c][%-3c]"), "[A][z  ]");
	reset();
	arg_i64(0x7f0000000100ll);
	arg_i64(0);
	CHECK_STR(fmt("%p %p"), "0x7f0000000100 (nil)");
	reset();
	arg_i32(6);
	arg_i32(12);
	arg_i32(-4);
	arg_i32(3);
	CHECK_STR(fmt("[%*d][%*d]"), "[    12][3   ]");
	CHECK_STR(fmt("100%%"), "100%");
}

/* Floating-point digits against the host's printf with the same (literal) format. */
static void test_floats(void)
{
	static const char *const formats[] = {"%f", "%.2f", "%10.3e", "%-12g|", "%+E", "%G", "%a", "%A", "%#.0f",
					      "%08.2f", "% f", "%lf"};
	static const double values[] = {3.14159265358979, -0.000123456, 1e300, -2.5, 0.0, 1.0 / 3.0};
	char want[512];
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		for (size_t k = 0; k < sizeof values / sizeof *values; k++) {
			reset();
			arg_f64(values[k]);
			snprintf(want, sizeof want, formats[i], values[k]);
			CHECK_STR(fmt(formats[i]), want);
		}
	reset();
	arg_i32(1);
	arg_f64(2.5);
	arg_i32(3);
	CHECK_STR(fmt("%d %.1f %d"), "1 2.5 3"); /* the double is aligned to 8 bytes */
	reset();
	arg_i32(4);
	arg_f64(1.0 / 3.0);
	CHECK_STR(fmt("%.*f"), "0.3333");
}

static void test_strings(void)
{
	reset();
	uint64_t s = string_at(2048, "hello");
	arg_i64((int64_t)s);
	arg_i64((int64_t)s);
	arg_i64((int64_t)s);
	arg_i64((int64_t)s);
	CHECK_STR(fmt("[%s][%.3s][%8s][%-8s]"), "[hello][hel][   hello][hello   ]");
	reset();
	arg_i64(0);
	arg_i64(0);
	CHECK_STR(fmt("[%s][%.2s]"), "[(null)][(n]");
	/* a string that runs to the end of simulated memory is a failed read, not host memory */
	reset();
	memset(mem + sizeof mem - 8, 'x', 8);
	arg_i64(BASE + sizeof mem - 8);
	CHECK_EQ(fmt_limit("%s", 60000), -1);
	CHECK(reads_failed > 0);
	/* the precision bounds the read: the same pointer with %.4s is fine */
	reset();
	memset(mem + sizeof mem - 8, 'x', 8);
	arg_i64(BASE + sizeof mem - 8);
	CHECK_STR(fmt("%.4s"), "xxxx");
	/* an argument outside memory */
	reset();
	CHECK_EQ(sim_printf_format("%d", 0x10, &reader, 100, &(struct gl_str){0}, &note), -1);
}

static void test_unsupported(void)
{
	reset();
	memset(&note, 0, sizeof note);
	arg_f64(1.5);
	arg_i32(3);
	CHECK_STR(fmt("%Lf|%f|%n|%zd|%y|%"), "%Lf|1.500000|%n|%zd|%y|%");
	CHECK_EQ(note.unsupported, 5);
	CHECK_STR(note.first, "%Lf");
	/* past 32 arguments, specifiers print as written (CUDA's limit) */
	reset();
	memset(&note, 0, sizeof note);
	for (int i = 0; i < 33; i++)
		arg_i32(i);
	char f[200] = "";
	for (int i = 0; i < 33; i++)
		strcat(f, "%d,");
	fmt(f);
	CHECK(strstr(result, "30,31,%d,") != NULL);
	CHECK_EQ(note.unsupported, 0);
}

static void test_clamping(void)
{
	reset();
	arg_i32(1);
	double t0 = (double)clock() / CLOCKS_PER_SEC;
	CHECK_EQ(fmt_limit("%1000000000d", 1048576), 1); /* cannot fit: reported, nothing huge produced */
	CHECK_EQ(fmt_limit("%.1000000000d", 1048576), 1);
	reset();
	arg_f64(1.0);
	CHECK_EQ(fmt_limit("%.1000000000f", 1048576), 1);
	CHECK_EQ(fmt_limit("%1000000000f", 1048576), 1);
	CHECK((double)clock() / CLOCKS_PER_SEC - t0 < 1.0);
	reset();
	arg_i32(1);
	CHECK_EQ(fmt_limit("%99d", 100), 0); /* exactly fits */
	CHECK_EQ(strlen(result), 99);
	CHECK_EQ(fmt_limit("%99d|", 99), 1);
	CHECK_EQ(fmt_limit("abc", 2), 1);
}

static void test_fifo(void)
{
	struct sim_printf_fifo a = {.size = 10}, b = {.size = 10}, all = {.size = 10};
	sim_printf_record(&a, "abcd", 4);
	sim_printf_record(&a, "", 0);        /* an empty record keeps nothing */
	sim_printf_record(&a, "efghijk", 7); /* does not fit after 4 */
	sim_printf_record(&a, "lm", 2);
	CHECK_EQ(a.used, 6);
	CHECK_EQ(a.dropped, 1);
	sim_printf_record(&b, "nopq", 4);
	sim_printf_record(&b, "r", 1);
	sim_printf_merge(&all, &a);
	sim_printf_merge(&all, &b);
	CHECK_EQ(all.used, 10);
	CHECK_EQ(all.dropped, 2); /* a's dropped record, then "r" */
	char *text = sim_printf_text(&all);
	CHECK_STR(text, "abcdlmnopq");
	free(text);
	sim_printf_free(&a);
	sim_printf_free(&b);
}

int main(void)
{
	test_integers();
	test_floats();
	test_strings();
	test_unsupported();
	test_clamping();
	test_fifo();
	CHECK_DONE();
}
