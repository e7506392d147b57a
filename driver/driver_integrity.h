/* driver_integrity.h — the integrity handshake cudart makes with its driver (driver_integrity.c). */
#ifndef GL_DRIVER_INTEGRITY_H
#define GL_DRIVER_INTEGRITY_H

#include "driver.h"

/* What is hashed: this, then one drv_hash_device per device, byte for byte. */
struct drv_hash_input {
	uint32_t driver_version, version, process, thread;
	const void *cudart_table, *integrity_table, *fn;
	uint64_t seconds;
};

struct __attribute__((packed)) drv_hash_device {
	CUuuid uuid;
	uint32_t pci_domain, pci_bus, pci_device;
};

/* HMAC-MD2 of the input under the handshake's key, as two little-endian 64-bit halves. */
void drv_integrity_hash(const struct drv_hash_input *in, const struct drv_hash_device *devs, int ndevs,
			uint64_t out[2]);

/* The answer to the handshake for `version` at `seconds`: a constant for versions ending in 0 or 1, else
 * the hash of this process, thread, the tables' and the function's addresses and the devices. */
CUresult drv_integrity(uint32_t version, uint64_t seconds, uint64_t out[2], const void *cudart_table,
		       const void *integrity_table, const void *fn);

#endif
