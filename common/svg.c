/* svg.c — the SVG writer. */
#include "svg.h"

static void escaped(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, out);
		}
}

void gl_svg_begin(FILE *out, int width, int height, const char *title)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		     "font-family=\"sans-serif\">\n",
		width, height, width, height);
	fputs("<title>", out);
	escaped(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height);
}

void gl_svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

void gl_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *color, double width, bool dashed)
{
	fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%.2f\"%s/>\n", x1,
		y1, x2, y2, color, width, dashed ? " stroke-dasharray=\"4 3\"" : "");
}

void gl_svg_rect(FILE *out, double x, double y, double w, double h, const char *fill)
{
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", x, y, w, h, fill);
}

void gl_svg_circle(FILE *out, double cx, double cy, double r, const char *fill)
{
	fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" stroke=\"black\"/>\n", cx, cy, r, fill);
}

void gl_svg_text(FILE *out, double x, double y, double size, const char *anchor, double rotate, const char *text)
{
	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"%s\"", x, y, size, anchor);
	if (rotate != 0)
		fprintf(out, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y);
	fputc('>', out);
	escaped(out, text);
	fputs("</text>\n", out);
}

void gl_svg_shape(FILE *out, const double *xy, int n, const char *fill)
{
	fputs("<polygon points=\"", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%.2f,%.2f", i ? " " : "", xy[2 * i], xy[2 * i + 1]);
	fprintf(out, "\" fill=\"%s\" stroke=\"black\"/>\n", fill);
}

void gl_svg_text_mono(FILE *out, double x, double y, double size, const char *color, const char *text)
{
	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" font-family=\"monospace\" fill=\"%s\">", x, y, size,
		color);
	escaped(out, text);
	fputs("</text>\n", out);
}
