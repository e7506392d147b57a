/* metrics.h — a named list of metric values under Nsight Compute's names, as both backends report them. */
#ifndef GL_METRICS_H
#define GL_METRICS_H

#include <stddef.h>

struct gl_metric {
	char name[96];
	double value;
	char unit[16];
};

struct gl_metrics {
	struct gl_metric *items;
	size_t n, cap;
};

/* Set (or overwrite) a metric. */
void gl_metrics_set(struct gl_metrics *m, const char *name, double value, const char *unit);
/* Pointer to the value, or NULL when absent. */
const double *gl_metrics_get(const struct gl_metrics *m, const char *name);
/* Shared-load requests as Nsight Compute's SharedMemoryConflicts rule counts them: LDS instructions plus
 * LDSM (ldmatrix), whose wavefronts are in the same ..._shared_op_ld metric.  NAN when neither is there. */
double gl_metrics_shared_ld_requests(const struct gl_metrics *m);
/* The value of `name`, or `fallback` when the launch has no such count. */
double gl_metrics_value_or(const struct gl_metrics *m, const char *name, double fallback);
/* FP32 FLOPs executed: 2 per FFMA, 1 per FADD and FMUL thread instruction (a missing count adds 0). */
double gl_metrics_fp32_flops(const struct gl_metrics *m);
void gl_metrics_free(struct gl_metrics *m);

/* A multi-launch variant's total: add one launch's values into `total`, by the roll-up each name ends
 * with (Nsight Compute's names): ".sum" adds, ".max" and ".min" keep the extreme, anything else (".avg",
 * ".pct_of_peak_...", ".ratio") is weighted by the launch's duration `weight_ns`, and dropped from the
 * total when a launch has no duration (NAN) to weight it by.  `launch_index` is 0 for the first launch.
 * gl_metrics_total_finish divides the weighted ones by the summed weight. */
void gl_metrics_total_add(struct gl_metrics *total, const struct gl_metrics *launch, int launch_index,
			  double weight_ns);
void gl_metrics_total_finish(struct gl_metrics *total, double total_weight_ns);

/* The metric names gpulab's simulator reports; CUPTI collects the same ones on a GPU. */
#define GL_M_GLD_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_GLD_SECT "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_GST_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
#define GL_M_GST_SECT "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GL_M_SLD_INST "smsp__inst_executed_op_shared_ld.sum"
#define GL_M_SST_INST "smsp__inst_executed_op_shared_st.sum"
#define GL_M_SLD_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define GL_M_SST_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define GL_M_SLD_CONF "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define GL_M_SST_CONF "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define GL_M_INST "smsp__inst_executed.sum"
#define GL_M_THREAD_INST "smsp__thread_inst_executed.sum"
/* Tensor cores and their feeds (reported only when a kernel uses them) */
#define GL_M_HMMA_INST "smsp__inst_executed_pipe_tensor_op_hmma.sum"
#define GL_M_LDSM_INST "smsp__inst_executed_op_ldsm.sum"
#define GL_M_LDGSTS_REQ "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum"
#define GL_M_LDGSTS_SECT "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"
#define GL_M_TENSOR_OPS_F16_F32 "gpulab__ptx_ops_path_tensor_src_fp16_dst_fp32.sum"

/* gpulab's own metrics, not Nsight Compute's: the simulator's counts once per PTX instruction, before
 * ptxas merges, splits or removes accesses (docs/sim.md).  The names above follow the SASS. */
#define GL_M_PTX_PREFIX "gpulab__ptx_"
/* Every metric of gpulab's own (the PTX-level counts, the ideal sectors, the footprint) starts so: CUPTI
 * has no such metric and never collects one. */
#define GL_M_OWN_PREFIX "gpulab__"
#define GL_M_PTX_GLD_REQ "gpulab__ptx_t_requests_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_PTX_GLD_SECT "gpulab__ptx_t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_PTX_GST_REQ "gpulab__ptx_t_requests_pipe_lsu_mem_global_op_st.sum"
#define GL_M_PTX_GST_SECT "gpulab__ptx_t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GL_M_PTX_SLD_INST "gpulab__ptx_inst_executed_op_shared_ld.sum"
#define GL_M_PTX_SST_INST "gpulab__ptx_inst_executed_op_shared_st.sum"
#define GL_M_PTX_SLD_WF "gpulab__ptx_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
#define GL_M_PTX_SST_WF "gpulab__ptx_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
#define GL_M_PTX_SLD_CONF "gpulab__ptx_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define GL_M_PTX_SST_CONF "gpulab__ptx_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define GL_M_PTX_INST "gpulab__ptx_inst_executed.sum"
#define GL_M_PTX_THREAD_INST "gpulab__ptx_thread_inst_executed.sum"

/* What the guidance rules and the estimate read besides the names above (docs/insights.md).  The ideal
 * sectors are gpulab's own: per global request, ceil(active lanes * access bytes / 32), summed. */
#define GL_M_GLD_IDEAL "gpulab__t_sectors_ideal_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_GST_IDEAL "gpulab__t_sectors_ideal_pipe_lsu_mem_global_op_st.sum"
/* the distinct sectors of the launch's buffers that loads / stores (and atomics) touched: its footprint */
#define GL_M_UNIQ_LD_SECT "gpulab__dram_sectors_unique_op_ld.sum"
#define GL_M_UNIQ_ST_SECT "gpulab__dram_sectors_unique_op_st.sum"
#define GL_M_THREADS_PER_INST "smsp__thread_inst_executed_per_inst_executed.ratio"
#define GL_M_GATOM_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"
#define GL_M_GATOM_SECT "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"
#define GL_M_GRED_REQ "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"
#define GL_M_GRED_SECT "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
#define GL_M_SATOM_INST "smsp__inst_executed_op_shared_atom.sum"
#define GL_M_LLD_SECT "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"
#define GL_M_LST_SECT "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"
#define GL_M_LLD_REQ "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"
#define GL_M_LST_REQ "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"
#define GL_M_FFMA "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
#define GL_M_FADD "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"
#define GL_M_FMUL "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"
#define GL_M_HMMA "smsp__inst_executed_pipe_tensor_op_hmma.sum"
#define GL_M_LDGSTS_SECT "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"
#define GL_M_DRAM_RD "dram__bytes_read.sum"
/* tensor FLOPs by precision (the simulator's; docs/sim.md) */
#define GL_M_TOPS_F16_F16 "gpulab__ptx_ops_path_tensor_src_fp16_dst_fp16.sum"
#define GL_M_TOPS_BF16 "sm__ops_path_tensor_src_bf16_dst_fp32.sum"
#define GL_M_TOPS_TF32 "sm__ops_path_tensor_src_tf32_dst_fp32.sum"
#define GL_M_TOPS_F64 "sm__ops_path_tensor_src_fp64.sum"
#define GL_M_TOPS_I8 "sm__ops_path_tensor_src_int8.sum"
#define GL_M_DFMA "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"
#define GL_M_DADD "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"
#define GL_M_DMUL "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum"
#define GL_M_HFMA "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"
#define GL_M_HADD "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum"
#define GL_M_HMUL "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum"
#define GL_M_SST_LDGSTS_WF "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
/* gpulab's own models of the L1 (docs/sim.md, "The L1 model"): the distinct 128-byte lines each global
 * request touches (the L1's tag lookups, one per clock), and the load sectors that miss in an L1 of
 * GL_SIM_L1_BYTES per CTA */
#define GL_M_GLD_LINES "gpulab__l1tex_t_lines_pipe_lsu_mem_global_op_ld.sum"
#define GL_M_GST_LINES "gpulab__l1tex_t_lines_pipe_lsu_mem_global_op_st.sum"
#define GL_M_L1_MISS_SECT "gpulab__l1tex_t_sectors_lookup_miss_op_ld.sum"
/* where the waste is (docs/sim.md): for KIND gld, gst (global sectors beyond the ideal) and sld, sst
 * (shared bank conflicts), the instruction with the most: GL_M_HOTSPOT_PREFIX KIND "_ptx_line",
 * "_src_line" (0: no .loc) and "_share" (its part of the launch's waste of that kind) */
#define GL_M_HOTSPOT_PREFIX "gpulab__hotspot_"
#define GL_M_DRAM_WR "dram__bytes_write.sum"

#endif
