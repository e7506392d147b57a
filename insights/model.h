/* model.h — the one performance model behind every estimate: what it reads from a launch (its counts,
 * derived once), and the time it gives on a GPU model.  A guidance rule's speedup is this model run
 * again with the rule's fix applied to the counts (guidance_rules.c), so a rule and the estimate can
 * never disagree.  What the model assumes and how it was checked: docs/insights.md ("The model"). */
#ifndef GL_MODEL_H
#define GL_MODEL_H

#include <stdbool.h>

#include "common/derived.h"
#include "insights/gpu_models.h"
#include "insights/occupancy.h"
#include "common/record.h"

/* What the model reads of one kernel launch.  A fix changes these and runs the model again. */
struct gl_model_in {
	struct gl_flops flops;
	struct gl_traffic traffic;
	double gld_requests;      /* global and local load requests: what the latency bound waits on */
	double gld_req, gst_req, gld_sect, gst_sect, gld_lines, gst_lines; /* ld/st.global alone */
	double local_req;         /* local loads and stores */
	double sld_requests;      /* shared load instructions (LDS, LDSM) */
	double gld_sectors_ideal; /* NAN when unknown (a GPU run) */
	double gst_sectors_ideal;
	double tag_lookups;       /* the L1's per-line work for global and local requests */
	double shared_wf_ld, shared_wf_st; /* shared wavefronts of loads (with LDSM) and stores (with LDGSTS) */
	double shared_conf_ld, shared_conf_st;
	double inst, thread_inst;
	double dram_bytes_measured; /* dram__bytes_* on a GPU; NAN on the simulator */
	struct gl_occ_input occ;
	double grid;              /* blocks */
	double occ_warps_override;  /* > 0: resident warps per SM instead of the calculator's (a fix) */
	bool no_tail;             /* a fix: the grid fills whole waves */
};

void gl_model_in_of(const struct gl_launch_record *l, struct gl_model_in *in);

enum gl_bound { GL_BOUND_DRAM, GL_BOUND_L2, GL_BOUND_L1, GL_BOUND_FP32, GL_BOUND_TENSOR, GL_BOUND_ISSUE, GL_BOUND_LATENCY,
		GL_BOUND_N };

struct gl_estimate {
	const struct gl_gpu_model *gpu;
	struct gl_occupancy occ;
	double bound_us[GL_BOUND_N];  /* each resource's time; NAN when the GPU's rate is unknown */
	enum gl_bound bound;          /* the largest */
	double waves, wave_factor;    /* grid / (blocks per SM * SMs); ceil(waves) / waves */
	double warps_in_flight;       /* per SM, what the latency bound divides by */
	double load_latency_clk;      /* the average latency of a global load request, by where it hits */
	double time_us;               /* the largest bound (throughput ones times the wave factor); NAN when it cannot run */
	struct gl_flops fl;
	double flops;                 /* fl.total */
	double fp32_flops, tensor_flops; /* fl.kind[GL_FLOP_FP32] + FP16 + FP64 on CUDA cores; fl.tensor */
	double dram_bytes;            /* measured (dram__bytes_*) or modelled (docs/insights.md) */
	bool dram_measured;
	double l1_bytes, l2_bytes;    /* gl_traffic */
	double l1_wavefronts;         /* shared wavefronts and L1 tag lookups */
	double intensity_l1, intensity_l2, intensity; /* FLOP per L1, L2 and DRAM byte (intensity: DRAM) */
	double attainable_gflops;     /* the DRAM roofline at that intensity, under the kernel's compute ceiling */
	double compute_peak_gflops;   /* the ceiling of the kernel's FLOP mix: FLOPs / (time each kind needs) */
};

/* The model on one kernel launch's counts. */
void gl_model_estimate(const struct gl_gpu_model *g, const struct gl_model_in *in, struct gl_estimate *out);
const char *gl_bound_name(enum gl_bound b);
bool gl_bound_is_memory(enum gl_bound b);

#endif
