/* backend_sim.h — what the simulator backend offers beyond the gl_backend table. */
#ifndef GL_BACKEND_SIM_H
#define GL_BACKEND_SIM_H

#include "sim/sim.h"

/* The full result of the last simulated launch (findings, printf, trace), or NULL. */
const struct gl_sim_result *gl_backend_sim_last(void *ctx);

#endif
