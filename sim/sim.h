/* sim.h — the SIMT simulator: runs one kernel launch of a parsed PTX module on the CPU, warp by warp,
 * and counts what Nsight Compute would (memmodel.h), checks what compute-sanitizer would, and can
 * record a trace of warp-level memory events. */
#ifndef GL_SIM_H
#define GL_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/err.h"
#include "common/launch.h"
#include "common/metrics.h"
#include "common/trace.h"
#include "ptx.h"

struct gl_sim_opts {
	int threads;             /* worker threads; 0 = one per core */
	long sample_ctas;        /* simulate this many CTAs spread over the grid and scale; 0 = all */
	uint64_t max_instructions; /* warp-instruction budget per CTA; 0 = GL_SIM_DEFAULT_BUDGET */
	bool trace;              /* record warp-level memory events */
	unsigned trace_ctas;     /* CTAs traced (the first N in grid order); 0 = GL_SIM_TRACE_CTAS */
	uint32_t trace_limit;    /* events kept per traced CTA; 0 = GL_SIM_TRACE_LIMIT */
	bool progress;           /* progress bar on stderr */
	uint64_t printf_buffer;  /* bytes of device printf output kept; 0 = GL_SIM_PRINTF_BUFFER */
};

#define GL_SIM_DEFAULT_BUDGET 20000000ull /* a few seconds of one stuck CTA */
#define GL_SIM_PRINTF_BUFFER 1048576ull /* the device's printf FIFO by default (cudaLimitPrintfFifoSize) */
#define GL_SIM_PRINTF_BUFFER_MAX (1ull << 30)
#define GL_SIM_TRACE_CTAS 2
#define GL_SIM_TRACE_LIMIT 50000
#define GL_SIM_GLOBAL_BASE 0x00007f0000000000ull /* first buffer, like a cudaMalloc address */

/* Raw counts of one launch (sums over simulated CTAs). */
struct gl_sim_counters {
	uint64_t gld_req, gld_sect, gst_req, gst_sect;
	uint64_t sld_inst, sst_inst, sld_wf, sst_wf, sld_conf, sst_conf;
	uint64_t inst, thread_inst;
	uint64_t ffma, fadd, fmul, dfma, dadd, dmul, hfma, hadd, hmul; /* thread-level, predicate on */
	uint64_t mma_inst, ldsm_inst, ldsm_wf;
	uint64_t ldgsts_inst, ldgsts_sect, ldgsts_req, ldgsts_sst_wf;
	uint64_t gatom_req, gatom_sect, gred_req, gred_sect, satom_inst;
	uint64_t lld_req, lld_sect, lst_req, lst_sect;
};

struct gl_sim_finding {
	char kind[24];        /* out-of-bounds, misaligned, race, barrier-divergence, deadlock, budget, uninit ... */
	char space[8];        /* global, shared, local, "" */
	bool warning;         /* warnings do not fail a run */
	uint64_t address;
	unsigned size;
	unsigned block[3], thread[3];
	int line;             /* PTX line */
	int src_line;         /* CUDA line when the PTX has .loc */
	char message[256];
};


struct gl_sim_result {
	struct gl_sim_counters c;
	double scale;             /* counts multiply by this when CTAs were sampled */
	long ctas_total, ctas_run;
	struct gl_sim_finding *findings;
	int nfindings, nerrors;   /* stored (capped) and total errors */
	long findings_total;
	char *printf_out;
	uint64_t printf_buffer;   /* its size in bytes */
	uint64_t printf_dropped;  /* printf records that did not fit in it */
	uint64_t printf_unsupported; /* conversions gpulab does not support, printed as written */
	char printf_first_unsupported[24];
	bool aborted;             /* budget or deadlock stopped the launch */
	long aborted_cta;         /* grid index of the CTA that stopped it (the first in grid order) */
	double wall_seconds;
	int threads;
	struct gl_trace_event *trace;
	uint32_t ntrace;
	uint64_t trace_dropped;
};

/* Run `entry` of `m` with the launch's geometry, buffers and arguments.  Output buffers are written back
 * into the launch.  Sanitizer findings are results, not errors: the return value is GL_OK unless the
 * launch could not start (bad arguments, unknown entry, resources: GL_EUSAGE when the launch would need
 * more host memory than gpulab allows itself, GL_EENV when memory runs out).  CTAs stream through the
 * workers with a bounded window of finished, not yet merged ones, so memory does not grow with the
 * grid.  A CTA that aborts (budget, deadlock, trap) stops the launch there: CTAs before it in grid order
 * complete, later ones are discarded, so counts do not depend on the number of threads. */
int gl_sim_run(const struct ptx_module *m, struct gl_launch *l, const struct gl_sim_opts *opts,
	       struct gl_sim_result *res, struct gl_err *err);
void gl_sim_result_free(struct gl_sim_result *res);

/* Counters -> metrics under Nsight Compute's names (scaled when sampled). */
void gl_sim_metrics(const struct gl_sim_result *res, struct gl_metrics *out);

/* Device address of buffer i as the simulator lays them out (256-byte aligned, guard gaps between). */
uint64_t gl_sim_buffer_address(const struct gl_launch *l, int i);

#endif
