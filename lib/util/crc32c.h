/*
 * CRC32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the
 * checksum of the event journal's records.  Castagnoli rather than the zlib
 * CRC because it detects more error patterns at our record sizes and because
 * x86 computes it in hardware (SSE4.2 crc32 instruction), which keeps the
 * checksum off the replay profile.
 *
 * bs_crc32c() picks the fastest implementation this CPU supports, once; the
 * portable table-driven one (slicing-by-8) is exposed so tests can prove both
 * agree.  Both take and return the finished CRC, so a CRC over several pieces
 * is bs_crc32c(bs_crc32c(0, a, na), b, nb).
 */
#ifndef BS_CRC32C_H
#define BS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t bs_crc32c(uint32_t crc, const void *buf, size_t len);
uint32_t bs_crc32c_portable(uint32_t crc, const void *buf, size_t len);
/* Name of the implementation bs_crc32c() uses ("sse4.2" or "slicing-by-8"). */
const char *bs_crc32c_impl(void);

#endif
