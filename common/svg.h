/* svg.h — a small SVG writer: a self-contained document of lines, rectangles, circles and text, with
 * text escaped for XML.  Coordinates are user units with the origin at the top left. */
#ifndef GL_SVG_H
#define GL_SVG_H

#include <stdbool.h>
#include <stdio.h>

void gl_svg_begin(FILE *out, int width, int height, const char *title);
void gl_svg_end(FILE *out);
void gl_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *color, double width, bool dashed);
void gl_svg_rect(FILE *out, double x, double y, double w, double h, const char *fill);
void gl_svg_circle(FILE *out, double cx, double cy, double r, const char *fill);
/* anchor: "start", "middle" or "end"; rotate: degrees about (x, y), 0 for none */
void gl_svg_text(FILE *out, double x, double y, double size, const char *anchor, double rotate, const char *text);
/* A closed polygon of n points (xy: x0, y0, x1, y1, ...), filled, with a black outline. */
void gl_svg_shape(FILE *out, const double *xy, int n, const char *fill);
/* Monospace text starting at x (baseline y): every glyph advances 0.6 em, so its width is known. */
void gl_svg_text_mono(FILE *out, double x, double y, double size, const char *color, const char *text);

#endif
