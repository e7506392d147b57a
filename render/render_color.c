/* render_color.c — whether printers paint: one setting per process, decided once by the command line
 * (--color, NO_COLOR, a terminal), so printers without a context follow it too. */
#include "render/render.h"

static bool color_on;

void gl_render_set_color(bool on)
{
	color_on = on;
}

const char *gl_sgr(const char *seq)
{
	return color_on ? seq : "";
}
