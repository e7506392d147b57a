/* derived.h — the numbers gpulab derives from a launch's counts: its FLOPs by precision and the bytes
 * it moves at each level of the memory hierarchy.  One function each, which every printer calls
 * (compare, report --details, the plots and the roofline, the estimate, JSON and CSV), so no two
 * printers can disagree.  Definitions and sources: docs/insights.md ("Derived figures"). */
#ifndef GL_DERIVED_H
#define GL_DERIVED_H

#include <stdbool.h>

#include "common/metrics.h"

/* What a FLOP was executed on, and in which precision.  The tensor kinds are the tensor path's math
 * ops, two per multiply-add (an m16n8k16 is 4096); INT8 counts integer operations the same way. */
enum gl_flop_kind {
	GL_FLOP_FP32,    /* CUDA cores: 2 FFMA + FADD + FMUL thread instructions */
	GL_FLOP_FP64,    /* CUDA cores: 2 DFMA + DADD + DMUL */
	GL_FLOP_FP16,    /* CUDA cores, half and bfloat16: 2 HFMA + HADD + HMUL */
	GL_FLOP_TC_FP16, /* tensor cores, fp16 inputs (fp32 or fp16 accumulators) */
	GL_FLOP_TC_BF16,
	GL_FLOP_TC_TF32,
	GL_FLOP_TC_FP64,
	GL_FLOP_TC_INT8,
	GL_FLOP_KINDS
};

struct gl_flops {
	double kind[GL_FLOP_KINDS];
	double cuda_core; /* FP32 + FP64 + FP16 */
	double tensor;    /* the tensor kinds */
	double total;
	/* no per-precision tensor counter (a GPU run that collected only the HMMA instruction count): the
	 * HMMA instructions were taken as fp16 m16n8k16, 4096 FLOP each */
	bool tensor_assumed;
};

void gl_flops_of(const struct gl_metrics *m, struct gl_flops *out);
/* "FP32", "FP16 tensor", ...: the label every printer uses; the key JSON and CSV use ("fp32",
 * "tensor_fp16", ...). */
const char *gl_flop_kind_label(enum gl_flop_kind k);
const char *gl_flop_kind_key(enum gl_flop_kind k);
bool gl_flop_kind_is_tensor(enum gl_flop_kind k);

/* Bytes at each level.  Sectors are 32 bytes, shared wavefronts 128 (a pass over the 32 banks). */
struct gl_traffic {
	double ld_sectors;      /* global loads and cp.async (LDGSTS) global reads */
	double ldgsts_sectors;  /* of which cp.async */
	double st_sectors;      /* global stores */
	double atom_sectors;    /* global atomics and reductions */
	double local_sectors;   /* local loads and stores (spills, local arrays) */
	double shared_wavefronts; /* shared loads (LDS, LDSM), stores and cp.async's shared writes */
	double l1_bytes;        /* what the L1/shared data path moves: every sector above and every shared
				 * wavefront */
	double l2_bytes;        /* between L1 and L2: the load sectors that miss in L1 (the simulator's L1
				 * model, else every load sector), stores, atomics, local traffic */
	bool l1_modelled;       /* l2_bytes used the L1 model's misses */
	double footprint_ld, footprint_st; /* distinct sectors loaded / stored; NAN when not counted */
	double global_bytes;    /* 32 x (loads + stores + atomics): what compare's FLOP/byte divides by */
};

void gl_traffic_of(const struct gl_metrics *m, struct gl_traffic *out);

#endif
