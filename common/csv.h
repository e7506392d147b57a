/* csv.h — the one CSV writer (RFC 4180): every command that prints --csv and `gpulab query --csv`
 * write their fields through it, so quoting is the same everywhere. */
#ifndef GL_CSV_H
#define GL_CSV_H

#include <stdio.h>

/* A text field: as is, or in double quotes (inner quotes doubled) when it holds , " CR or LF.
 * NULL writes an empty field. */
void gl_csv_field(FILE *out, const char *text);
/* A number with 15 significant digits; NaN (no value) writes an empty field. */
void gl_csv_number(FILE *out, double v);

#endif
