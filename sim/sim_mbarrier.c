/* sim_mbarrier.c — mbarrier objects (PTX ISA, "Parallel Synchronization and Communication Instructions:
 * mbarrier") and cp.async.mbarrier.arrive, which cuda::barrier and cuda::memcpy_async compile to.
 *
 * The object is 64 bits of shared memory.  The ISA leaves its encoding opaque; gpulab's encoding keeps
 * every count in the word itself, so copying or inspecting it behaves like any other shared data:
 *   bits  0-19  pending arrivals of the current phase
 *   bits 20-39  expected arrivals per phase (set by init, lowered by arrive_drop)
 *   bits 40-60  tx-count, 21-bit two's complement (expect_tx raises it, complete_tx lowers it)
 *   bits 61-62  0b10 while the object is valid (init sets it, inval clears it)
 *   bit  63     the current phase's parity
 * A phase completes when its pending arrivals and its tx-count are both zero: the parity flips and the
 * pending count is reloaded from the expected count.  The state an arrive returns is the word before
 * it, so test_wait(state) is true once the parity differs from the state's (the state can only name
 * the current or the immediately preceding phase).  try_wait may return false after a time limit
 * (the ISA's words), so here it returns at once like test_wait; the compiled spin loop around it is a
 * backward branch, so waiting warps yield to the warps that will arrive (sim_cta.c).
 *
 * For racecheck, a completed phase orders what every arriving thread did before its arrive with what
 * every thread does after observing the completion: it ends a barrier interval like bar.sync does
 * (threads that did not take part are treated as synchronized too, so a race can be missed there,
 * never invented).  cp.async.mbarrier.arrive makes the object track the thread's earlier copies; they
 * complete at issue in the simulator, so the thread's copies count as waited for from then on. */
#include "sim_exec.h"
#include "sim_trace.h"

#define MB_COUNT_MASK 0xfffffull
#define MB_TX_SHIFT 40
#define MB_TX_BITS 21
#define MB_VALID_SHIFT 61
#define MB_VALID 2ull
#define MB_PHASE (1ull << 63)
#define MB_MAX_COUNT ((1u << 20) - 1)

struct mbar {
	uint32_t pending, expected;
	int32_t tx;
	bool valid, phase;
};

static struct mbar mb_unpack(uint64_t v)
{
	struct mbar b;
	b.pending = (uint32_t)(v & MB_COUNT_MASK);
	b.expected = (uint32_t)(v >> 20 & MB_COUNT_MASK);
	uint32_t tx = (uint32_t)(v >> MB_TX_SHIFT & ((1u << MB_TX_BITS) - 1));
	b.tx = (int32_t)(tx << (32 - MB_TX_BITS)) >> (32 - MB_TX_BITS); /* sign-extend 21 bits */
	b.valid = (v >> MB_VALID_SHIFT & 3) == MB_VALID;
	b.phase = (v & MB_PHASE) != 0;
	return b;
}

static uint64_t mb_pack(struct mbar b)
{
	return (uint64_t)b.pending | (uint64_t)b.expected << 20 |
	       (uint64_t)((uint32_t)b.tx & ((1u << MB_TX_BITS) - 1)) << MB_TX_SHIFT |
	       (b.valid ? MB_VALID << MB_VALID_SHIFT : 0) | (b.phase ? MB_PHASE : 0);
}

uint64_t sim_mbarrier_encode(uint32_t pending, uint32_t expected, int32_t tx, bool phase)
{
	return mb_pack((struct mbar){pending, expected, tx, true, phase});
}

static const char *const mbar_names[] = {
	[MBAR_INIT] = "init", [MBAR_ARRIVE] = "arrive", [MBAR_ARRIVE_DROP] = "arrive_drop",
	[MBAR_EXPECT_TX] = "expect_tx", [MBAR_COMPLETE_TX] = "complete_tx", [MBAR_TEST_WAIT] = "test_wait",
	[MBAR_TRY_WAIT] = "try_wait", [MBAR_PENDING_COUNT] = "pending_count", [MBAR_INVAL] = "inval",
};

static const char *op_name(const struct ptx_insn *ins)
{
	return ins->op == OP_CP_ASYNC_MBAR_ARRIVE ? "cp.async.mbarrier.arrive" : mbar_names[ins->sub];
}

/* The object one lane names: 8 aligned bytes of this CTA's shared memory, or NULL after a finding. */
static uint8_t *mb_object(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins,
			  const struct ptx_operand *mo, int lane, uint64_t addr)
{
	(void)mo;
	enum ptx_space sp = ins->space == PS_SHARED ? PS_SHARED : PS_GENERIC;
	bool wait = ins->op == OP_MBARRIER && (ins->sub == MBAR_TEST_WAIT || ins->sub == MBAR_TRY_WAIT);
	uint8_t *p = sim_translate(cta, w, lane, &sp, addr, 8, !wait, ins);
	if (p && sp != PS_SHARED) {
		sim_finding(cta, ins, lane, "mbarrier", sp, addr, 8, false, "mbarrier.%s on an address in %s memory: "
			    "mbarrier objects live in shared memory", op_name(ins), sim_space_name(sp));
		return NULL;
	}
	return p;
}

static int mb_error(struct sim_cta *cta, const struct ptx_insn *ins, int lane, uint64_t off, const char *why)
{
	sim_finding(cta, ins, lane, "mbarrier", PS_SHARED, off, 8, false, "mbarrier.%s at shared offset 0x%llx: %s",
		    op_name(ins), (unsigned long long)off, why);
	return -1;
}

/* A completed phase: flip the parity, reload the pending count, and end the race interval. */
static void mb_maybe_complete(struct sim_cta *cta, struct mbar *b)
{
	if (b->pending || b->tx)
		return;
	b->phase = !b->phase;
	b->pending = b->expected;
	cta->epoch++;
}

/* arrive / arrive_drop / expect_tx / complete_tx / cp.async.mbarrier.arrive.noinc on one object. */
static int mb_update(struct sim_cta *cta, const struct ptx_insn *ins, int lane, uint64_t off, struct mbar *b,
		     uint32_t count, int64_t tx)
{
	bool arrive = ins->op == OP_CP_ASYNC_MBAR_ARRIVE || ins->sub == MBAR_ARRIVE || ins->sub == MBAR_ARRIVE_DROP;
	int64_t ntx = (int64_t)b->tx + tx;
	if (ntx >= (1 << 20) || ntx <= -(1 << 20))
		return mb_error(cta, ins, lane, off, "the tx-count leaves the range the ISA allows (+-(2^20-1))");
	b->tx = (int32_t)ntx;
	if (!arrive) {
		if (b->pending == 0 && b->tx == 0) /* complete_tx can finish a phase whose arrivals are in */
			mb_maybe_complete(cta, b);
		return 0;
	}
	if (count == 0 || count > b->pending)
		return mb_error(cta, ins, lane, off, count == 0 ? "an arrival count of 0 (the ISA requires 1 or more)"
						: "more arrivals than the current phase has pending (undefined behaviour)");
	if (ins->op == OP_MBARRIER && ins->sub == MBAR_ARRIVE_DROP) {
		if (count > b->expected)
			return mb_error(cta, ins, lane, off, "arrive_drop below an expected count of 0");
		b->expected -= count;
	}
	b->pending -= count;
	if ((ins->sub2 & MBAR_F_NOCOMPLETE) && b->pending == 0 && b->tx == 0)
		return mb_error(cta, ins, lane, off, ".noComplete arrival completed the phase (undefined behaviour)");
	mb_maybe_complete(cta, b);
	return 0;
}

static int mb_init(struct sim_cta *cta, const struct ptx_insn *ins, int lane, uint64_t off, uint8_t *p, uint64_t n)
{
	if (n < 1 || n > MB_MAX_COUNT)
		return mb_error(cta, ins, lane, off, "the expected count must be in [1, 2^20-1]");
	uint64_t v = mb_pack((struct mbar){(uint32_t)n, (uint32_t)n, 0, true, false});
	memcpy(p, &v, 8);
	sim_shadow_init(cta, off, 8); /* the object has a value: reading it is not an uninitialized read */
	return 0;
}

/* One lane's operation on its object.  `val` is the third operand (count, tx-count, state or parity). */
static int mb_lane(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, int lane, uint64_t addr,
		   uint64_t val, bool has_val, uint64_t *out)
{
	uint8_t *p = mb_object(cta, w, ins, &ins->ops[0], lane, addr);
	if (!p)
		return -1;
	uint64_t off = (uint64_t)(p - cta->shared), word;
	if (ins->op == OP_MBARRIER && ins->sub == MBAR_INIT)
		return mb_init(cta, ins, lane, off, p, val);
	memcpy(&word, p, 8);
	struct mbar b = mb_unpack(word);
	if (!b.valid)
		return mb_error(cta, ins, lane, off, "the object is not initialized (mbarrier.init) or was invalidated");
	if (ins->op == OP_CP_ASYNC_MBAR_ARRIVE) {
		sim_async_wait(cta, w, 1u << lane, true, 0); /* its copies have landed (see the top of the file) */
		/* without .noinc the pending count is raised by one first, so the asynchronous arrival that
		 * follows leaves it where it was */
		if (!(ins->sub2 & MBAR_F_NOINC))
			return 0;
		if (mb_update(cta, ins, lane, off, &b, 1, 0))
			return -1;
	} else {
		switch (ins->sub) {
		case MBAR_INVAL: b.valid = false; break;
		case MBAR_TEST_WAIT: case MBAR_TRY_WAIT: {
			bool parity = (ins->sub2 & MBAR_F_PARITY) ? (val & 1) : (val & MB_PHASE) != 0;
			*out = b.phase != parity;
			return 0;
		}
		case MBAR_EXPECT_TX: case MBAR_COMPLETE_TX:
			if (mb_update(cta, ins, lane, off, &b, 0, ins->sub == MBAR_EXPECT_TX ? (int64_t)val : -(int64_t)val))
				return -1;
			break;
		default: { /* arrive, arrive_drop: count, or with .expect_tx a tx-count and one arrival */
			bool tx = ins->sub2 & MBAR_F_EXPECT_TX;
			*out = word;
			if (mb_update(cta, ins, lane, off, &b, has_val && !tx ? (uint32_t)val : 1,
				      has_val && tx ? (int64_t)(uint32_t)val : 0))
				return -1;
			break;
		}
		}
	}
	word = mb_pack(b);
	memcpy(p, &word, 8);
	return 0;
}

int sim_exec_mbarrier(struct sim_cta *cta, struct sim_warp *w, const struct ptx_insn *ins, uint32_t mask)
{
	if (ins->op == OP_MBARRIER && ins->sub == MBAR_PENDING_COUNT) { /* a field of a state value */
		uint64_t *d = DST(0);
		const uint64_t *s = SRC(1);
		FOR_LANES(mask, l) d[l] = mb_unpack(s[l]).pending;
		return 0;
	}
	bool writes = ins->op == OP_MBARRIER && ins->ops[0].kind != PO_MEM; /* state / waitComplete first */
	int mem = writes ? 1 : 0;
	uint64_t addr[32];
	sim_lane_addresses(cta, w, &ins->ops[mem], mask, addr);
	bool has_val = ins->nops > mem + 1;
	const uint64_t *val = has_val ? SRC(mem + 1) : NULL;
	uint64_t *d = writes && ins->ops[0].slot >= 0 ? DST(0) : NULL;
	FOR_LANES(mask, l) { /* lanes act one after another, in lane order */
		uint64_t out = 0;
		if (mb_lane(cta, w, ins, (int)l, addr[l], val ? val[l] : 0, has_val, &out))
			return -1;
		if (d)
			d[l] = out;
	}
	return 0;
}
