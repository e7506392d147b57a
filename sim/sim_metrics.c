/* sim_metrics.c — the simulator's counts under Nsight Compute's metric names.  The base set is always
 * reported; tensor-core, cp.async, atomic and local-memory metrics only when the kernel used them. */
#include "sim.h"

#include <math.h>

static void put(struct gl_metrics *out, const char *name, uint64_t v, double scale, const char *unit)
{
	gl_metrics_set(out, name, scale == 1.0 ? (double)v : round((double)v * scale), unit);
}

static void put_used(struct gl_metrics *out, const char *name, uint64_t v, double scale, const char *unit)
{
	if (v)
		put(out, name, v, scale, unit);
}

void gl_sim_metrics(const struct gl_sim_result *res, struct gl_metrics *out)
{
	const struct gl_sim_counters *c = &res->c;
	double s = res->scale > 0 ? res->scale : 1.0;
	put(out, GL_M_GLD_REQ, c->gld_req, s, "request");
	put(out, GL_M_GLD_SECT, c->gld_sect, s, "sector");
	put(out, GL_M_GST_REQ, c->gst_req, s, "request");
	put(out, GL_M_GST_SECT, c->gst_sect, s, "sector");
	put(out, GL_M_SLD_INST, c->sld_inst, s, "inst");
	put(out, GL_M_SST_INST, c->sst_inst, s, "inst");
	put(out, GL_M_SLD_WF, c->sld_wf, s, "wavefront");
	put(out, GL_M_SST_WF, c->sst_wf, s, "wavefront");
	put(out, GL_M_SLD_CONF, c->sld_conf, s, "conflict");
	put(out, GL_M_SST_CONF, c->sst_conf, s, "conflict");
	/* With a SASS mapping the instruction totals are estimates of the SASS ones (docs/sim.md) */
	uint64_t one = PTX_SASS_WEIGHT_ONE, half = one / 2;
	put(out, GL_M_INST, res->sass_mapped ? (c->sass_inst + half) / one : c->inst, s, "inst");
	put(out, GL_M_THREAD_INST, res->sass_mapped ? (c->sass_thread_inst + half) / one : c->thread_inst, s, "inst");
	/* gpulab's own names (not Nsight Compute metrics): the counts once per PTX instruction */
	put(out, GL_M_PTX_GLD_REQ, c->ptx_gld_req, s, "request");
	put(out, GL_M_PTX_GLD_SECT, c->ptx_gld_sect, s, "sector");
	put(out, GL_M_PTX_GST_REQ, c->ptx_gst_req, s, "request");
	put(out, GL_M_PTX_GST_SECT, c->ptx_gst_sect, s, "sector");
	put(out, GL_M_PTX_SLD_INST, c->ptx_sld_inst, s, "inst");
	put(out, GL_M_PTX_SST_INST, c->ptx_sst_inst, s, "inst");
	put(out, GL_M_PTX_SLD_WF, c->ptx_sld_wf, s, "wavefront");
	put(out, GL_M_PTX_SST_WF, c->ptx_sst_wf, s, "wavefront");
	put(out, GL_M_PTX_SLD_CONF, c->ptx_sld_conf, s, "conflict");
	put(out, GL_M_PTX_SST_CONF, c->ptx_sst_conf, s, "conflict");
	put(out, GL_M_PTX_INST, c->inst, s, "inst");
	put(out, GL_M_PTX_THREAD_INST, c->thread_inst, s, "inst");
	put(out, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", c->ffma, s, "inst");
	put(out, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", c->fadd, s, "inst");
	put(out, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", c->fmul, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", c->dfma, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", c->dadd, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", c->dmul, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", c->hfma, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", c->hadd, s, "inst");
	put_used(out, "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", c->hmul, s, "inst");
	put_used(out, "smsp__inst_executed_pipe_tensor_op_hmma.sum", c->mma_inst, s, "inst");
	put_used(out, "smsp__inst_executed_pipe_tensor_op_imma.sum", c->imma_inst, s, "inst");
	put_used(out, "smsp__inst_executed_pipe_tensor_op_dmma.sum", c->dmma_inst, s, "inst");
	put_used(out, "smsp__inst_executed_op_ldsm.sum", c->ldsm_inst, s, "inst");
	put_used(out, "smsp__inst_executed_op_ldgsts.sum", c->ldgsts_inst, s, "inst");
	/* LDGSTS (cp.async): the l1tex__t_* forms exist only per cache mode; the sass forms cover both */
	put_used(out, "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", c->ldgsts_req, s, "request");
	put_used(out, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", c->ldgsts_sect, s, "sector");
	put_used(out, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", c->ldgsts_sst_wf, s,
		 "wavefront");
	put_used(out, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", c->gatom_req, s, "request");
	put_used(out, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", c->gatom_sect, s, "sector");
	put_used(out, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", c->gred_req, s, "request");
	put_used(out, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", c->gred_sect, s, "sector");
	put_used(out, "smsp__inst_executed_op_shared_atom.sum", c->satom_inst, s, "inst");
	put_used(out, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", c->lld_req, s, "request");
	put_used(out, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", c->lld_sect, s, "sector");
	put_used(out, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", c->lst_req, s, "request");
	put_used(out, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", c->lst_sect, s, "sector");
}
