/* test_common_read_file.c — gl_read_file: every byte of a file larger than its first buffer, NUL bytes
 * counted in the length (so callers can refuse them), an empty file, and errno for a missing one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/util.h"

static void write_bytes(const char *path, const char *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		CHECK(fwrite(bytes, 1, n, f) == n);
		fclose(f);
	}
}

int main(void)
{
	char path[] = "/tmp/gl_read_file_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);

	size_t big = 10000; /* past the first 4096-byte buffer, and past a doubling */
	char *bytes = malloc(big);
	for (size_t i = 0; i < big; i++)
		bytes[i] = (char)('a' + i % 26);
	bytes[5000] = '\0';
	write_bytes(path, bytes, big);
	char *text = NULL;
	size_t len = 0;
	CHECK(gl_read_file(path, &text, &len) == 0);
	CHECK(len == big);
	CHECK(text && memcmp(text, bytes, big) == 0 && text[big] == '\0');
	CHECK(text && strlen(text) == 5000); /* the NUL byte shows as strlen != len */
	free(text);

	write_bytes(path, "", 0);
	CHECK(gl_read_file(path, &text, &len) == 0);
	CHECK(len == 0 && text && text[0] == '\0');
	free(text);

	unlink(path);
	errno = 0;
	text = NULL;
	CHECK(gl_read_file(path, &text, NULL) == -1);
	CHECK(errno == ENOENT && text == NULL);
	free(bytes);
	CHECK_DONE();
}
