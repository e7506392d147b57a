/* test_common_sha256.c — SHA-256 against the FIPS 180-2 / NIST example digests, split at awkward
 * places (the padding's 55/56/64-byte edges), and against python3's hashlib for a long input; a file's
 * digest read through its descriptor (longer than one read buffer) and the errors of a missing file.
 * Each on the portable rounds and, where the CPU has them, on the SHA extensions (sha256_ni.c), which
 * must also agree with the portable rounds on random inputs of every length up to a few blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sha256.h"
#include "common/sha256_internal.h"
#include "tests/unit/xorshift.h"
#include "tests/unit/check.h"

static void digest(const char *s, size_t n, size_t chunk, char out[65])
{
	struct gl_sha256 h;
	gl_sha256_init(&h);
	for (size_t i = 0; i < n; i += chunk)
		gl_sha256_add(&h, s + i, n - i < chunk ? n - i : chunk);
	gl_sha256_hex(&h, out);
}

static void check(const char *s, size_t n, const char *want)
{
	size_t chunks[] = {1, 3, 55, 56, 63, 64, 65, 1000000};
	for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		char got[65];
		digest(s, n, chunks[c], got);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "sha256 of %zu bytes in chunks of %zu: %s, want %s\n", n, chunks[c], got, want);
		CHECK(strcmp(got, want) == 0);
	}
}

/* The million 'a's as a file: gl_sha256_file reads it in several buffers and gives the same digest. */
static void file_digest(const char *a, size_t n)
{
	char path[] = "/tmp/gl-sha256-XXXXXX", got[65];
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, a, n) == (ssize_t)n);
	close(fd);
	CHECK_EQ(gl_sha256_file(path, got), 0);
	CHECK(strcmp(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
	unlink(path);
	CHECK_EQ(gl_sha256_file(path, got), -1); /* gone: an error, not the digest of nothing */
	CHECK_EQ(gl_sha256_fd(-1, got), -1);
}

/* Random inputs of 0..300 bytes, added in random pieces: the SHA extensions' digest is the portable one. */
static void same_digests(void)
{
	uint64_t x = 0x5eed5eedull;
	static char buf[300];
	for (int n = 0; n <= (int)sizeof buf; n++) {
		for (int i = 0; i < n; i++)
			buf[i] = (char)xs_next64(&x);
		size_t chunk = 1 + xs_below(&x, 130);
		char want[65], got[65];
		gl_sha256_ni_allow(false);
		digest(buf, (size_t)n, chunk, want);
		gl_sha256_ni_allow(true);
		digest(buf, (size_t)n, chunk, got);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "sha256 of %d random bytes: %s with the SHA extensions, %s without\n", n, got, want);
		CHECK(strcmp(got, want) == 0);
	}
}

static void known_digests(void)
{
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes */
	check(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	static char a[1000000];
	memset(a, 'a', sizeof a);
	check(a, sizeof a, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	check(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	check(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	file_digest(a, sizeof a);
}

int main(void)
{
	gl_sha256_ni_allow(false);
	known_digests();
	if (gl_sha256_ni_available()) {
		gl_sha256_ni_allow(true);
		known_digests();
		same_digests();
	} else {
		fprintf(stderr, "note: this CPU has no SHA extensions; only the portable rounds were tested\n");
	}
	CHECK_DONE();
}
