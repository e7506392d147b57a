/* replay.c — a main for a libFuzzer harness where libFuzzer is not available (gcc): feeds every file
 * named on the command line, or every file in a directory named there, to LLVMFuzzerTestOneInput once.
 * Built with ASan/UBSan, it replays the committed corpora as CTest tests (tests/fuzz/CMakeLists.txt).
 * Exit status: 0 when every input ran, 1 when a file could not be read or no input was found; a crash
 * or sanitizer report ends the process as it would under libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	uint8_t *exact = malloc(n ? n : 1); /* an exact-size copy, so ASan sees reads past the input */
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of `dir`, in name order (so a failing run is reproducible). */
static int run_dir(const char *dir, long *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
			return -1;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			rc |= run_file(names[i]);
			++*count;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	long count = 0;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc |= run_dir(argv[i], &count);
		} else {
			rc |= run_file(argv[i]);
			count++;
		}
	}
	printf("replayed %ld inputs\n", count);
	if (count == 0)
		fprintf(stderr, "no inputs: give corpus files or directories\n");
	return rc || count == 0 ? 1 : 0;
}
