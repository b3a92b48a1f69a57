/*
 * CRC32C two ways: slicing-by-8 tables (portable, about 1 byte per cycle)
 * and the SSE4.2 crc32 instruction where the CPU has it (several times
 * faster).  The choice is made once, at the first call, with a runtime CPU
 * check, so one binary runs everywhere.
 *
 * Slicing-by-8: table[0] is the classic byte-at-a-time table; table[k][b]
 * is the CRC of byte b followed by k zero bytes, so eight input bytes are
 * folded with eight independent lookups instead of eight dependent ones.
 */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "util/crc32c.h"

#define CRC32C_POLY 0x82F63B78u   /* reflected 0x1EDC6F41 */

static uint32_t crc_table[8][256];

static gpointer
build_tables(gpointer unused)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t c = b;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1u)));
		crc_table[0][b] = c;
	}
	for (uint32_t b = 0; b < 256; b++)
		for (int t = 1; t < 8; t++)
			crc_table[t][b] = (crc_table[t - 1][b] >> 8) ^
			    crc_table[0][crc_table[t - 1][b] & 0xff];
	return NULL;
}

static uint32_t
load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

uint32_t
bs_crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	static GOnce once = G_ONCE_INIT;
	const uint8_t *p = buf;
	uint32_t c = ~crc;

	g_once(&once, build_tables, NULL);
	while (len >= 8) {
		uint32_t lo = load_le32(p) ^ c;
		uint32_t hi = load_le32(p + 4);

		c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		    crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		    crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
		    crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
	return ~c;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <nmmintrin.h>

__attribute__((target("sse4.2")))
static uint32_t
crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;

	while (len > 0 && ((uintptr_t)p & 7) != 0) {
		c = _mm_crc32_u8((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

static gboolean
have_sse42(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2");
}
#else
static gboolean
have_sse42(void)
{
	return FALSE;
}
#define crc32c_sse42 bs_crc32c_portable
#endif

typedef uint32_t (*CrcFn)(uint32_t, const void *, size_t);

static CrcFn
crc_fn(void)
{
	static gsize chosen;

	if (g_once_init_enter(&chosen)) {
		CrcFn f = have_sse42() ? crc32c_sse42 : bs_crc32c_portable;

		g_once_init_leave(&chosen, (gsize)f);
	}
	return (CrcFn)chosen;
}

uint32_t
bs_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return crc_fn()(crc, buf, len);
}

const char *
bs_crc32c_impl(void)
{
	return crc_fn() == bs_crc32c_portable ? "slicing-by-8" : "sse4.2";
}
