/* test_common_svg.c — the SVG writer: a well-formed document with escaped text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/svg.h"

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return 1;
	gl_svg_begin(f, 100, 50, "a <b> & \"c\"");
	gl_svg_line(f, 0, 0, 10, 10, "black", 1, true);
	gl_svg_rect(f, 1, 2, 3, 4, "red");
	gl_svg_circle(f, 5, 5, 2, "blue");
	gl_svg_text(f, 5, 5, 11, "middle", -90, "x < y && z > \"w\"");
	gl_svg_end(f);
	fclose(f);
	CHECK(strncmp(buf, "<?xml version=\"1.0\"", 19) == 0);
	CHECK(strstr(buf, "<title>a &lt;b&gt; &amp; &quot;c&quot;</title>") != NULL);
	CHECK(strstr(buf, "stroke-dasharray=\"4 3\"") != NULL);
	CHECK(strstr(buf, "transform=\"rotate(-90.0 5.00 5.00)\">x &lt; y &amp;&amp; z &gt; &quot;w&quot;</text>") != NULL);
	CHECK(strstr(buf, "<rect x=\"1.00\" y=\"2.00\" width=\"3.00\" height=\"4.00\" fill=\"red\"/>") != NULL);
	CHECK(strcmp(buf + len - 7, "</svg>\n") == 0);
	free(buf);
	CHECK_DONE();
}
