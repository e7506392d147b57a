/* ptx_version.c — the PTX ISA to CUDA version table and the `.version` directive. */
#include "common/ptx_version.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* PTX ISA manual, "Release Notes": the CUDA release that brought each PTX ISA version. */
static const struct {
	int isa;  /* major*10 + minor */
	int cuda; /* 1000*major + 10*minor */
} isa_table[] = {
    {60, 9000},  {61, 9010},  {62, 9020},  {63, 10000}, {64, 10010}, {65, 10020}, {70, 11000}, {71, 11010}, {72, 11020},
    {73, 11030}, {74, 11040}, {75, 11050}, {76, 11060}, {77, 11070}, {78, 11080}, {80, 12000}, {81, 12010}, {82, 12020},
    {83, 12030}, {84, 12040}, {85, 12050}, {86, 12070}, {87, 12080}, {88, 12090}, {90, 13000}, {91, 13010},
};

#define NTABLE (sizeof isa_table / sizeof isa_table[0])

int gl_ptx_text_version(const char *ptx, int *major, int *minor)
{
	*major = *minor = 0;
	for (const char *p = ptx ? strstr(ptx, ".version") : NULL; p; p = strstr(p + 1, ".version")) {
		bool line_start = p == ptx || p[-1] == '\n' || p[-1] == ' ' || p[-1] == '\t';
		if (line_start && sscanf(p, ".version %d.%d", major, minor) == 2)
			return 1;
	}
	*major = *minor = 0;
	return 0;
}

int gl_ptx_isa_cuda_version(int major, int minor)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (isa_table[i].isa == major * 10 + minor)
			return isa_table[i].cuda;
	return 0;
}

int gl_ptx_isa_for_driver(int cuda_version)
{
	int isa = 0;
	for (size_t i = 0; i < NTABLE; i++)
		if (isa_table[i].cuda <= cuda_version)
			isa = isa_table[i].isa;
	return isa;
}

static const struct {
	int cuda;
	const char *driver;
} driver_table[] = {
    {12000, "525.60.13"}, {12010, "530.30.02"}, {12020, "535.54.03"}, {12030, "545.23.06"}, {12040, "550.54.14"},
    {12050, "555.42.02"}, {12060, "560.28.03"}, {12080, "570.26"},    {12090, "575.51.03"}, {13000, "580.65.06"},
};

const char *gl_cuda_min_linux_driver(int cuda_version)
{
	for (size_t i = 0; i < sizeof driver_table / sizeof driver_table[0]; i++)
		if (driver_table[i].cuda == cuda_version)
			return driver_table[i].driver;
	return NULL;
}

void gl_cuda_version_text(int cuda_version, char *buf, size_t n)
{
	snprintf(buf, n, "%d.%d", cuda_version / 1000, cuda_version % 1000 / 10);
}
