/* test_driver_integrity.c — the integrity handshake's hash (driver/driver_integrity.c) on the sample
 * ZLUDA published with its reverse engineering of it (inputs and the value cudart expects), and the two
 * constant answers. */
#include "check.h"
#include "driver/driver_integrity.h"

int main(void)
{
	struct drv_hash_input in = {.driver_version = 12020, .version = 0x2b4a, .process = 0x4d08, .thread = 0x2b78,
				    .cudart_table = (const void *)0x00007ff8c80717f0ull,
				    .integrity_table = (const void *)0x00007ff8c825e4b0ull,
				    .fn = (const void *)0x00007ff8c7dd0ad0ull, .seconds = 0x64a365ee};
	struct drv_hash_device dev = {.uuid = {{0x67, 0x22, (char)0xcb, (char)0xcf, (char)0xc6, 0x61, (char)0xf2,
						(char)0x92, 0x74, (char)0xd6, (char)0xed, 0x23, 0x2a, 0x32, 0x13, 0x1c}},
				      .pci_domain = 0, .pci_bus = 4, .pci_device = 0};
	uint64_t out[2] = {0, 0};
	drv_integrity_hash(&in, &dev, 1, out);
	CHECK_EQ(out[0], 0xa7c34628f214707aull);
	CHECK_EQ(out[1], 0xeaf1313342bfcd84ull);
	CHECK_EQ(drv_integrity(13000, 0, out, NULL, NULL, NULL), CUDA_SUCCESS);
	CHECK_EQ(out[0], 0x3341181c03cb675cull);
	CHECK_EQ(out[1], 0x8ed383aa1f4cd1e8ull);
	CHECK_EQ(drv_integrity(13001, 0, out, NULL, NULL, NULL), CUDA_SUCCESS);
	CHECK_EQ(out[0], 0x1841181c03cb675cull);
	CHECK_DONE();
}
