/* render_verdict.c — a launch's verdict as every printer shows it (render.h): passed, failed, or not
 * checked, which a sampled launch (its outputs are partial) and a program's own launch under `gpulab
 * profile` (only the program knows what its outputs should be) store as -1. */
#include "render/render.h"

const char *gl_render_verdict(int verified)
{
	return verified < 0 ? "n/a" : verified ? "yes" : "NO";
}

void gl_render_json_verdict(struct gl_json *j, const char *key, int verified)
{
	if (verified < 0)
		gl_json_null(j, key);
	else
		gl_json_bool(j, key, verified);
}

const char *gl_render_csv_verdict(int verified)
{
	return verified < 0 ? "" : verified ? "true" : "false"; /* empty, as every unknown in gpulab's CSV */
}
