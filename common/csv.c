/* csv.c — CSV fields with RFC 4180 quoting. */
#include "common/csv.h"

#include <math.h>
#include <string.h>

void gl_csv_field(FILE *out, const char *text)
{
	if (!text)
		return;
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out); /* quotes double inside a quoted field */
		fputc(*p, out);
	}
	fputc('"', out);
}

void gl_csv_number(FILE *out, double v)
{
	if (!isnan(v))
		fprintf(out, "%.15g", v);
}
