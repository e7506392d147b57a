/* fatbin.h — the fatbinary reader: the container nvcc embeds in a program (section .nv_fatbin, one per
 * translation unit) and hands to the driver through cudart, holding per target architecture a PTX text
 * and/or a cubin (SASS), each possibly compressed.  Pure: it reads bytes and never trusts them, so it
 * is fuzzed (tests/fuzz/fuzz_fatbin.c).  The layout, as public reverse-engineering work describes it
 * (docs/driver.md, "Fatbinaries", names the sources):
 *
 *   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size (16), u64 bytes of entries after it
 *   entry:     u16 kind (1 PTX, 2 ELF), u16 version 0x0101, u32 header size (64, 80 or 112),
 *              u64 bytes of payload incl. padding, u32 payload bytes when compressed (else 0), u32 -,
 *              u16 minor, u16 major (the PTX ISA version for PTX), u32 sm (75 = sm_75/compute_75),
 *              u32 name offset, u32 name length, u64 flags (0x1 64-bit, 0x2 debug, 0x10 Linux,
 *              0x2000 LZ4-compressed, 0x8000 zstd-compressed), u64 -, u64 uncompressed payload bytes
 *   payload:   right after the entry's header; the next entry follows the padded payload. */
#ifndef GL_FATBIN_H
#define GL_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_WRAPPER_MAGIC 0x466243B1u /* __fatBinC_Wrapper_t, what nvcc's host code registers */
#define FATBIN_HEADER_BYTES 16u
#define FATBIN_MAX_BYTES (1ull << 31)     /* a container larger than this is refused */
#define FATBIN_MAX_UNCOMPRESSED (1ull << 30)
#define FATBIN_MAX_IMAGES 256

enum fatbin_kind { FATBIN_PTX = 1, FATBIN_ELF = 2 };
enum fatbin_codec { FATBIN_PLAIN, FATBIN_LZ4, FATBIN_ZSTD };

struct fatbin_image {
	enum fatbin_kind kind;
	int sm;                      /* 75 for compute_75 (PTX) or sm_75 (ELF) */
	int ptx_major, ptx_minor;    /* the entry header's version fields */
	uint64_t flags;
	enum fatbin_codec codec;
	const uint8_t *payload;      /* inside the container */
	size_t payload_size;         /* bytes at payload (compressed when codec != FATBIN_PLAIN) */
	size_t uncompressed_size;    /* what decompression must give; payload_size when plain */
};

struct fatbin {
	size_t size;                 /* the container's bytes, header included */
	struct fatbin_image images[FATBIN_MAX_IMAGES];
	int n;
};

/* Is there a container at `data` (its magic)?  `avail` bytes may be read (SIZE_MAX: not known). */
bool fatbin_is_container(const void *data, size_t avail);

/* Read the container at `data`, of which `avail` bytes may be read (a size the caller knows: a file, a
 * fuzzer's input; or SIZE_MAX for memory cudart registered, where the header's own size is believed up
 * to FATBIN_MAX_BYTES).  GL_EUSAGE naming the offset and what is wrong for anything malformed. */
int fatbin_parse(const void *data, size_t avail, struct fatbin *out, struct gl_err *err);

/* The PTX image that fits a GPU of compute capability `sm` (90 for 9.0) best: the newest PTX target not
 * newer than the GPU, as the CUDA driver picks what to JIT.  NULL with the reason in `err` (GL_EUSAGE)
 * when there is none: a fatbinary of SASS only names the nvcc flag that embeds PTX; PTX only for newer
 * GPUs names the GPU model to choose. */
const struct fatbin_image *fatbin_pick_ptx(const struct fatbin *fb, int sm, struct gl_err *err);

/* The image's bytes, decompressed, NUL-terminated, malloc'd (*out, *len without the NUL).  GL_EUSAGE
 * when the payload does not decompress to its declared size. */
int fatbin_payload(const struct fatbin_image *im, char **out, size_t *len, struct gl_err *err);

#endif
