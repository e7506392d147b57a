/* test_sim_shadow_rows.c — the shadow of a warp's whole-row accesses recorded in one pass
 * (sim_shadow_read_rows for ldmatrix, sim_shadow_write_rows and sim_async_copy_warp for cp.async) against
 * the lane-by-lane path they stand in for (sim_shadow_read, or sim_shadow_write then sim_async_copy, for
 * each lane in order): random sequences of ldmatrix-like reads (x1, x2, x4 of 16-byte rows), cp.async-like
 * copies of 4, 8 or 16 bytes, plain stores and loads, commits, waits, barriers and new CTAs by several warps, with
 * initcheck on and off and with reserved shared memory, must leave the same shadow, quiet-read state,
 * cp.async records and findings.  As the callers do, a one-pass call that declines leaves the lanes to the
 * per-lane path. */
#include <stdlib.h>

#include "check.h"
#include "xorshift.h"
#include "sim/sim_trace.h"
#include "tests/unit/sim_fixture.h"

#define WORDS 256 /* 1 KiB of shared memory */
#define WARPS 4

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned next(unsigned n)
{
	return xs_below(&rng, n);
}

static long fast_reads, fast_writes;

static void read_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t lanes,
		      const uint64_t off[32], bool fast)
{
	if (fast && sim_shadow_read_rows(cta, w, ins, lanes, off, 16)) {
		fast_reads++;
		return;
	}
	FOR_LANES(lanes, l) sim_shadow_read(cta, w, ins, (int)l, off[l], 16);
}

static void write_rows(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, const uint64_t off[32],
		       unsigned n, bool fast)
{
	if (fast && sim_shadow_write_rows(cta, w, ins, 0xffffffffu, off, n)) {
		sim_async_copy_warp(cta, w, 0xffffffffu, off, n);
		fast_writes++;
		return;
	}
	for (int l = 0; l < 32; l++) {
		sim_shadow_write(cta, w, ins, l, off[l], n);
		sim_async_copy(cta, w, l, off[l], n);
	}
}

/* Rows of ldmatrix: a stride of whole rows from a base (conflicting or not), or random rows. */
static void row_offsets(uint64_t off[32])
{
	unsigned base = next(WORDS / 4) * 16, stride = 16 * (1 + next(4)), random = next(3) == 0;
	for (unsigned l = 0; l < 32; l++)
		off[l] = (random ? next(WORDS / 4) * 16 : base + l * stride) % (4 * WORDS);
}

/* Destinations of a copy of n bytes per lane: distinct blocks (a shuffled run), or two lanes sharing one. */
static void copy_offsets(uint64_t off[32], unsigned n)
{
	unsigned blocks = 4 * WORDS / n, first = next(blocks - 32);
	for (unsigned l = 0; l < 32; l++)
		off[l] = (first + l) * n;
	for (unsigned l = 31; l > 0; l--) {
		unsigned k = next(l + 1);
		uint64_t t = off[l];
		off[l] = off[k];
		off[k] = t;
	}
	if (next(8) == 0)
		off[1 + next(31)] = off[0];
}

static bool distinct(const uint64_t off[32])
{
	for (int a = 0; a < 32; a++)
		for (int b = 0; b < a; b++)
			if (off[a] == off[b])
				return false;
	return true;
}

static void same_state(const struct sim_cta *a, const struct sim_cta *b)
{
	const struct sim_launch *L = a->L;
	size_t rows = SIM_QUIET_ROWS(L);
	CHECK(memcmp(a->shadow, b->shadow, WORDS * sizeof *a->shadow) == 0);
	CHECK(memcmp(a->shadow_site, b->shadow_site, 2 * WORDS * sizeof *a->shadow_site) == 0);
	CHECK(a->quiet.full_gen == b->quiet.full_gen && a->quiet.wrote_gen == b->quiet.wrote_gen &&
	      a->quiet.wrote_epoch == b->quiet.wrote_epoch && a->quiet.readers == b->quiet.readers &&
	      a->quiet.reads_gen == b->quiet.reads_gen && a->quiet.reads_epoch == b->quiet.reads_epoch);
	CHECK(memcmp(a->quiet.site, b->quiet.site, WARPS * sizeof *a->quiet.site) == 0);
	CHECK(memcmp(a->quiet.full, b->quiet.full, rows * sizeof *a->quiet.full) == 0);
	CHECK(memcmp(a->quiet.reads, b->quiet.reads, rows * WARPS * sizeof *a->quiet.reads) == 0);
	CHECK_EQ(a->async.gen, b->async.gen);
	if (a->async.words && b->async.words) {
		CHECK(memcmp(a->async.words, b->async.words, (WORDS + 1) * sizeof *a->async.words) == 0);
		CHECK(memcmp(a->async.threads, b->async.threads, 32 * WARPS * sizeof *a->async.threads) == 0);
	}
}

static struct sim_launch launch_of(int tools, bool reserved)
{
	return (struct sim_launch){.block = {32 * WARPS, 1, 1}, .tools = tools, .reserved_used = reserved,
				   .reserved_smem = 3 * WORDS, .shared_size = 4 * WORDS, .warps_per_cta = WARPS,
				   .threads_per_cta = 32 * WARPS};
}

static void cta_init(struct sim_cta *c, struct sim_launch *L)
{
	*c = (struct sim_cta){.L = L, .shadow = calloc(WORDS, sizeof(struct sim_shadow)), .gen = 1};
	c->quiet.full = calloc(SIM_QUIET_ROWS(L), sizeof(uint64_t));
	c->quiet.reads = calloc(SIM_QUIET_ROWS(L) * WARPS, sizeof(uint64_t));
	c->quiet.site = calloc(WARPS, sizeof *c->quiet.site);
	c->shadow_site = calloc(2 * WORDS, sizeof *c->shadow_site);
	gl_findings_init(&c->findings, 64);
}

static void cta_free(struct sim_cta *c)
{
	gl_findings_free(&c->findings);
	sim_async_free(c);
	free(c->shadow);
	free(c->quiet.full);
	free(c->quiet.reads);
	free(c->quiet.site);
	free(c->shadow_site);
}

/* Random steps on two CTAs: c[0] takes the one-pass calls, c[1] the per-lane path. */
static void run(int tools, bool reserved, int steps, long *races, long *uninit)
{
	struct sim_launch L = launch_of(tools, reserved);
	struct sim_cta c[2];
	struct sim_warp warps[WARPS];
	for (int k = 0; k < 2; k++)
		cta_init(&c[k], &L);
	for (unsigned i = 0; i < WARPS; i++)
		warps[i] = (struct sim_warp){.id = i};
	struct ptx_insn ins[4] = {{.line = 20}, {.line = 21}, {.line = 22}, {.line = 23}};
	for (int step = 0; step < steps; step++) {
		unsigned what = next(24);
		struct sim_warp *w = &warps[next(WARPS)];
		uint64_t off[32];
		c[0].current_warp = c[1].current_warp = w->id;
		if (what <= 1) { /* a barrier */
			c[0].epoch++, c[1].epoch++;
		} else if (what == 2 && next(6) == 0) { /* the next CTA */
			for (int k = 0; k < 2; k++)
				c[k].gen++, c[k].epoch = 0;
		} else if (what <= 4) {
			sim_async_commit(&c[0], w, 0xffffffffu), sim_async_commit(&c[1], w, 0xffffffffu);
		} else if (what <= 6) {
			bool all = next(3) == 0;
			uint64_t n = next(2);
			sim_async_wait(&c[0], w, 0xffffffffu, all, n), sim_async_wait(&c[1], w, 0xffffffffu, all, n);
		} else if (what <= 9) { /* a cp.async, half of them as a pipeline issues them: after a wait and a barrier */
			if (next(2))
				for (unsigned i = 0; i < WARPS; i++) {
					sim_async_wait(&c[0], &warps[i], 0xffffffffu, true, 0);
					sim_async_wait(&c[1], &warps[i], 0xffffffffu, true, 0);
				}
			c[0].epoch += next(2), c[1].epoch = c[0].epoch;
			static uint64_t last[32];
			static unsigned last_n;
			unsigned n = 4u << next(3);
			copy_offsets(off, n);
			if (n == last_n && next(3) == 0) /* each lane the block after its last one (another group,
							    maybe): a row read then spans two copies of one thread */
				for (unsigned l = 0; l < 32; l++)
					off[l] = (last[l] + n) % (4 * WORDS);
			memcpy(last, off, sizeof last);
			last_n = n;
			bool fast = distinct(off);
			write_rows(&c[0], w, &ins[2], off, n, fast);
			write_rows(&c[1], w, &ins[2], off, n, false);
		} else if (what <= 11) { /* plain 4-byte stores */
			unsigned base = next(WORDS) * 4;
			for (unsigned l = 0; l < 32; l++)
				off[l] = (base + 4 * l) % (4 * WORDS);
			sim_shadow_warp(&c[0], w, &ins[1], 0xffffffffu, off, 4, true);
			sim_shadow_warp(&c[1], w, &ins[1], 0xffffffffu, off, 4, true);
		} else if (what <= 13) { /* plain 4-byte loads of scattered words (quiet reads of single words) */
			for (unsigned l = 0; l < 32; l++)
				off[l] = 4 * (uint64_t)next(WORDS);
			sim_shadow_warp(&c[0], w, &ins[1], 0xffffffffu, off, 4, false);
			sim_shadow_warp(&c[1], w, &ins[1], 0xffffffffu, off, 4, false);
		} else { /* an ldmatrix */
			unsigned nmat = 1u << next(3);
			uint32_t lanes = nmat == 4 ? 0xffffffffu : (1u << (8 * nmat)) - 1;
			row_offsets(off);
			const struct ptx_insn *in = &ins[next(2) ? 0 : 3]; /* two ldmatrix sites */
			read_rows(&c[0], w, in, lanes, off, true);
			read_rows(&c[1], w, in, lanes, off, false);
		}
		same_state(&c[0], &c[1]);
		if (check_failures)
			break;
	}
	fx_same_findings(&c[0].findings, &c[1].findings);
	*races = *uninit = 0;
	for (int i = 0; i < c[0].findings.n; i++) {
		*races += strcmp(c[0].findings.items[i].kind, "race") == 0 ? c[0].findings.items[i].count : 0;
		*uninit += strcmp(c[0].findings.items[i].kind, "uninitialized") == 0 ? c[0].findings.items[i].count : 0;
	}
	for (int k = 0; k < 2; k++)
		cta_free(&c[k]);
}

/* The end of a fixed case: both CTAs in the same state with the same findings, a race among them. */
static void same_race(struct sim_cta c[2])
{
	same_state(&c[0], &c[1]);
	fx_same_findings(&c[0].findings, &c[1].findings);
	CHECK(c[0].findings.n > 0 && strcmp(c[0].findings.items[0].kind, "race") == 0);
	for (int k = 0; k < 2; k++)
		cta_free(&c[k]);
}

/* One thread's copies into two neighbouring words of a row, in two groups of which only the first is
 * complete (its wait, then a barrier): another warp's read of the row races with the second copy.  The
 * one-pass read declines, and both paths leave the same state and findings. */
static void two_groups_in_a_row(void)
{
	struct sim_launch L = launch_of(GL_TOOL_RACECHECK, false);
	struct sim_cta c[2];
	struct sim_warp w0 = {.id = 0}, w1 = {.id = 1};
	struct ptx_insn copy = {.line = 30}, read = {.line = 31};
	uint64_t first[32], second[32], rows[32];
	for (unsigned l = 0; l < 32; l++)
		first[l] = 16 * l, second[l] = 16 * l + 4, rows[l] = 16 * l;
	for (int k = 0; k < 2; k++) {
		cta_init(&c[k], &L);
		write_rows(&c[k], &w0, &copy, first, 4, k == 0);
		sim_async_commit(&c[k], &w0, 0xffffffffu);
		write_rows(&c[k], &w0, &copy, second, 4, k == 0);
		sim_async_commit(&c[k], &w0, 0xffffffffu);
		sim_async_wait(&c[k], &w0, 0xffffffffu, false, 1);
		c[k].epoch++;
	}
	CHECK(!sim_shadow_read_rows(&c[0], &w1, &read, 0xffffffffu, rows, 16));
	read_rows(&c[0], &w1, &read, 0xffffffffu, rows, false);
	read_rows(&c[1], &w1, &read, 0xffffffffu, rows, false);
	same_race(c);
}

/* A quiet read of the last word of a 16-byte row by one warp, then another warp's copy onto the row
 * (whose four entries are the same): the copy races with the read.  The one-pass write declines, and both
 * paths leave the same state and findings. */
static void quiet_read_then_copy(void)
{
	struct sim_launch L = launch_of(GL_TOOL_RACECHECK, false);
	struct sim_cta c[2];
	struct sim_warp w0 = {.id = 0}, w1 = {.id = 1};
	struct ptx_insn store = {.line = 40}, load = {.line = 41}, copy = {.line = 42};
	uint64_t words[32], last[32] = {12}, rows[32]; /* last: lane 0 reads word 3 */
	for (unsigned l = 0; l < 32; l++)
		words[l] = 4 * l, rows[l] = 16 * l;
	for (int k = 0; k < 2; k++) {
		cta_init(&c[k], &L);
		sim_shadow_warp(&c[k], &w0, &store, 0xffffffffu, words, 4, true);
		c[k].epoch++;
		sim_shadow_warp(&c[k], &w1, &load, 1, last, 4, false);
	}
	CHECK(c[0].quiet.readers == 2); /* the load was a quiet read */
	CHECK(!sim_shadow_write_rows(&c[0], &w0, &copy, 0xffffffffu, rows, 16));
	write_rows(&c[0], &w0, &copy, rows, 16, false);
	write_rows(&c[1], &w0, &copy, rows, 16, false);
	same_race(c);
}

int main(void)
{
	long races, uninit;
	two_groups_in_a_row();
	quiet_read_then_copy();
	run(GL_TOOL_ALL, false, 6000, &races, &uninit);
	CHECK(races > 50); /* the sequences do race (cp.async in flight included) and read uninitialised rows */
	CHECK(uninit > 10);
	run(GL_TOOL_RACECHECK, false, 6000, &races, &uninit);
	CHECK(races > 50);
	CHECK_EQ(uninit, 0);
	run(GL_TOOL_INITCHECK, false, 3000, &races, &uninit); /* no cp.async checks */
	CHECK(uninit > 10);
	run(GL_TOOL_ALL, true, 2000, &races, &uninit); /* reserved shared memory: the per-lane path throughout */
	CHECK(fast_reads > 200); /* both one-pass calls took their lanes often enough to be compared */
	CHECK(fast_writes > 200);
	CHECK_DONE();
}
