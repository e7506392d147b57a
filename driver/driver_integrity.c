/* driver_integrity.c — the integrity handshake cudart 13 makes with its driver before it uses it (slot 1 of
 * export table d4082055-bde6-704b-8d34-ba123c66e1f2): given a "version" and a time it expects a 128-bit
 * value it computes the same way itself, and refuses the driver otherwise ("integrity checks failed").
 * For versions ending in 0 and 1 the value is a constant; for the others it is HMAC-MD2 (RFC 2104 over
 * RFC 1319's MD2, 16-byte blocks) under a fixed key, of the driver's version, the version asked, the
 * process and thread ids, the addresses of the runtime-interface table, of this table and of the check
 * function, the time, and each device's UUID and PCI domain, bus and device ids.  The scheme, the key
 * and the constants were learned from ZLUDA's reverse engineering of it (docs/driver.md, "Export
 * tables"); the code is MD2 and HMAC as their RFCs describe them. */
#include "driver_integrity.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* RFC 1319's S table: a permutation of 0..255 from the digits of pi. */
static const uint8_t md2_s[256] = {
    41,  46,  67,  201, 162, 216, 124, 1,   61,  54,  84,  161, 236, 240, 6,   19,  98,  167, 5,   243, 192, 199,
    115, 140, 152, 147, 43,  217, 188, 76,  130, 202, 30,  155, 87,  60,  253, 212, 224, 22,  103, 66,  111, 24,
    138, 23,  229, 18,  190, 78,  196, 214, 218, 158, 222, 73,  160, 251, 245, 142, 187, 47,  238, 122, 169, 104,
    121, 145, 21,  178, 7,   63,  148, 194, 16,  137, 11,  34,  95,  33,  128, 127, 93,  154, 90,  144, 50,  39,
    53,  62,  204, 231, 191, 247, 151, 3,   255, 25,  48,  179, 72,  165, 181, 209, 215, 94,  146, 42,  172, 86,
    170, 198, 79,  184, 56,  210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4,   241, 69,  157, 112, 89,
    100, 113, 135, 32,  134, 91,  207, 101, 230, 45,  168, 2,   27,  96,  37,  173, 174, 176, 185, 246, 28,  70,
    97,  105, 52,  64,  126, 15,  85,  71,  163, 35,  221, 81,  175, 58,  195, 92,  249, 206, 186, 197, 234, 38,
    44,  83,  13,  110, 133, 40,  132, 9,   211, 223, 205, 244, 65,  129, 77,  82,  106, 220, 55,  200, 108, 193,
    171, 250, 36,  225, 123, 8,   12,  189, 177, 74,  120, 136, 149, 139, 227, 99,  232, 109, 233, 203, 213, 254,
    59,  0,   29,  57,  242, 239, 183, 14,  102, 88,  208, 228, 166, 119, 114, 248, 235, 117, 75,  10,  49,  68,
    80,  180, 143, 237, 31,  26,  219, 153, 141, 51,  159, 17,  131, 20};

struct md2 {
	uint8_t x[48], c[16], block[16];
	uint8_t l;
	unsigned n;
};

static void md2_byte(struct md2 *h, uint8_t b)
{
	h->block[h->n] = b;
	h->c[h->n] ^= md2_s[b ^ h->l];
	h->l = h->c[h->n];
	if (++h->n < 16)
		return;
	h->n = 0;
	for (int j = 0; j < 16; j++) {
		h->x[16 + j] = h->block[j];
		h->x[32 + j] = h->x[16 + j] ^ h->x[j];
	}
	uint8_t t = 0;
	for (int j = 0; j < 18; j++) {
		for (int k = 0; k < 48; k++)
			t = h->x[k] ^= md2_s[t];
		t = (uint8_t)(t + j);
	}
}

static void md2_bytes(struct md2 *h, const void *data, size_t n)
{
	for (size_t i = 0; i < n; i++)
		md2_byte(h, ((const uint8_t *)data)[i]);
}

static void md2_final(struct md2 *h, uint8_t out[16])
{
	uint8_t pad = (uint8_t)(16 - h->n);
	for (unsigned i = 0; i < pad; i++)
		md2_byte(h, pad);
	uint8_t c[16];
	memcpy(c, h->c, 16);
	md2_bytes(h, c, 16);
	memcpy(out, h->x, 16);
}

/* The key, as derived from the table ZLUDA found in cudart. */
static const uint8_t key[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
				0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};

void drv_integrity_hash(const struct drv_hash_input *in, const struct drv_hash_device *devs, int ndevs,
			uint64_t out[2])
{
	struct md2 h = {0};
	uint8_t inner[16], digest[16];
	for (int i = 0; i < 16; i++)
		md2_byte(&h, key[i] ^ 0x36);
	md2_bytes(&h, in, sizeof *in);
	for (int d = 0; d < ndevs; d++)
		md2_bytes(&h, &devs[d], sizeof devs[d]);
	md2_final(&h, inner);
	h = (struct md2){0};
	for (int i = 0; i < 16; i++)
		md2_byte(&h, key[i] ^ 0x5c);
	md2_bytes(&h, inner, 16);
	md2_final(&h, digest);
	memcpy(out, digest, 16);
}

CUresult drv_integrity(uint32_t version, uint64_t seconds, uint64_t out[2], const void *cudart_table,
		       const void *integrity_table, const void *fn)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (version % 10 < 2) { /* the constant answers; version ...1 differs in one byte */
		out[0] = version % 10 ? 0x1841181c03cb675cull : 0x3341181c03cb675cull;
		out[1] = 0x8ed383aa1f4cd1e8ull;
		return CUDA_SUCCESS;
	}
	struct drv_hash_input in = {.driver_version = (uint32_t)drv.version, .version = version,
				.process = (uint32_t)getpid(), .thread = (uint32_t)(uintptr_t)pthread_self(),
				.cudart_table = cudart_table, .integrity_table = integrity_table, .fn = fn,
				.seconds = seconds};
	struct drv_hash_device devs[DRV_MAX_DEVICES];
	int n = drv.ndevices > 0 ? drv.ndevices : 0;
	for (int d = 0; d < n; d++) {
		int domain = 0, bus = 0, device = 0;
		memset(&devs[d], 0, sizeof devs[d]);
		cuDeviceGetUuid_v2(&devs[d].uuid, d);
		cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
		cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
		cuDeviceGetAttribute(&device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
		devs[d].pci_domain = (uint32_t)domain;
		devs[d].pci_bus = (uint32_t)bus;
		devs[d].pci_device = (uint32_t)device;
	}
	drv_integrity_hash(&in, devs, n, out);
	return CUDA_SUCCESS;
}
