/*
 * Byte-level journal format: headers, record framing, file names, durable
 * file creation and the record scanner shared by every reader.  Kept free of
 * policy: it says what a byte range is (a record, a torn one, a bad one) and
 * leaves "cut it or refuse" to recovery.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/crc32c.h"
#include "util/error.h"
#include "journal/format.h"

#define WINDOW_SIZE (1u << 20)

void
bs_put32(guint8 *p, guint32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (guint8)(v >> (8 * i));
}

void
bs_put64(guint8 *p, guint64 v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (guint8)(v >> (8 * i));
}

guint32
bs_get32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 |
	    (guint32)p[3] << 24;
}

guint64
bs_get64(const guint8 *p)
{
	return (guint64)bs_get32(p) | (guint64)bs_get32(p + 4) << 32;
}

void
bs_header_encode(const BsLogHeader *h, guint8 out[BS_EVLOG_HEADER_SIZE])
{
	memset(out, 0, BS_EVLOG_HEADER_SIZE);
	memcpy(out, BS_EVLOG_MAGIC, sizeof BS_EVLOG_MAGIC);
	bs_put32(out + 8, h->version);
	bs_put32(out + 12, h->kind);
	bs_put64(out + 16, h->generation);
	bs_put64(out + 24, h->first_seq);
	bs_put32(out + 32, h->flags);
	bs_put32(out + 36, bs_crc32c(0, out, 36));
}

/*
 * The version is looked at before the CRC: a newer format may lay its
 * header out differently, so "newer" must win over "damaged" or an upgrade
 * followed by a downgrade would be reported as corruption.
 */
BsHdrResult
bs_header_decode(const guint8 *p, gsize len, BsLogHeader *h)
{
	if (len < BS_EVLOG_HEADER_SIZE)
		return BS_HDR_SHORT;
	if (memcmp(p, BS_EVLOG_MAGIC, sizeof BS_EVLOG_MAGIC) != 0)
		return BS_HDR_BAD;
	h->version = bs_get32(p + 8);
	/* Segments and checkpoints have their own versions. */
	h->kind = bs_get32(p + 12);
	if (h->version > (h->kind == BS_KIND_CHECKPOINT ? BS_CKPT_VERSION :
	    BS_EVLOG_VERSION))
		return BS_HDR_NEWER;
	if (h->version == 0 || bs_get32(p + 36) != bs_crc32c(0, p, 36))
		return BS_HDR_BAD;
	h->generation = bs_get64(p + 16);
	h->first_seq = bs_get64(p + 24);
	h->flags = bs_get32(p + 32);
	if (h->kind != BS_KIND_SEGMENT && h->kind != BS_KIND_CHECKPOINT)
		return BS_HDR_BAD;
	return BS_HDR_OK;
}

void
bs_record_head(guint8 out[BS_EVLOG_RECORD_HEAD], const guint8 *payload,
    guint32 len)
{
	bs_put32(out, len);
	bs_put32(out + 4, bs_crc32c(0, payload, len));
}

gboolean
bs_record_append(GByteArray *buf, const Basalt__Event *ev, guint32 *framed_len)
{
	gsize len = basalt__event__get_packed_size(ev);
	guint old = buf->len;
	guint8 *p;

	if (len == 0 || len > BS_EVLOG_MAX_RECORD)
		return FALSE;
	g_byte_array_set_size(buf, old + BS_EVLOG_RECORD_HEAD + (guint)len);
	p = buf->data + old;
	basalt__event__pack(ev, p + BS_EVLOG_RECORD_HEAD);
	bs_record_head(p, p + BS_EVLOG_RECORD_HEAD, (guint32)len);
	if (framed_len != NULL)
		*framed_len = BS_EVLOG_RECORD_HEAD + (guint32)len;
	return TRUE;
}

char *
bs_file_name(const char *dir, const char *prefix, guint64 seq)
{
	return g_strdup_printf("%s/%s.%020" G_GUINT64_FORMAT, dir, prefix, seq);
}

gboolean
bs_fsync_dir(const char *dir, GError **err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e;

	if (fd < 0 || fsync(fd) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot sync directory %s: %s",
		    dir, g_strerror(e));
		return FALSE;
	}
	close(fd);
	return TRUE;
}

int
bs_pwrite_all(int fd, const void *p, gsize len, guint64 off)
{
	const guint8 *q = p;

	while (len > 0) {
		ssize_t n = pwrite(fd, q, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		q += n;
		len -= (gsize)n;
		off += (guint64)n;
	}
	return 0;
}

gboolean
bs_write_file_atomic(const char *dir, const char *path, const guint8 *data,
    gsize len, GError **err)
{
	g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int r;

	if (fd < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", tmp,
		    g_strerror(errno));
		return FALSE;
	}
	r = bs_pwrite_all(fd, data, len, 0);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot write %s: %s", path,
		    g_strerror(-r));
		return FALSE;
	}
	return bs_fsync_dir(dir, err);
}

/*
 * Returns n bytes at off from the window, refilling it from the file when
 * needed.  NULL when the file does not hold them (r->err_no = 0: it is
 * shorter, perhaps truncated under us) or a read failed (r->err_no set).
 */
const guint8 *
bs_seg_peek(BsSegReader *r, guint64 off, gsize n)
{
	gsize want;
	ssize_t got;

	r->err_no = 0;
	if (off + n > r->size)
		return NULL;
	if (off >= r->buf_off && off + n <= r->buf_off + r->buf_len)
		return r->buf + (off - r->buf_off);
	want = MAX(n, WINDOW_SIZE);
	want = (gsize)MIN((guint64)want, r->size - off);
	if (want > r->buf_cap) {
		r->buf = g_realloc(r->buf, want);
		r->buf_cap = want;
	}
	r->buf_off = off;
	r->buf_len = 0;
	while (r->buf_len < want) {
		got = pread(r->fd, r->buf + r->buf_len, want - r->buf_len,
		    (off_t)(off + r->buf_len));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r->err_no = errno;
			return NULL;
		}
		if (got == 0)
			break;
		r->buf_len += (gsize)got;
	}
	return r->buf_len >= n ? r->buf : NULL;
}

static BsHdrResult
seg_read_header(BsSegReader *r)
{
	const guint8 *p = bs_seg_peek(r, 0, MIN(r->size, BS_EVLOG_HEADER_SIZE));

	if (p == NULL && r->err_no != 0)
		return BS_HDR_OK;  /* caller sees err_no */
	return bs_header_decode(p, MIN(r->size, BS_EVLOG_HEADER_SIZE), &r->hdr);
}

gboolean
bs_seg_open(BsSegReader *r, const char *path, gboolean writable,
    BsHdrResult *hres, GError **err)
{
	struct stat st;

	memset(r, 0, sizeof *r);
	*hres = BS_HDR_OK;
	r->path = g_strdup(path);
	r->fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (r->fd < 0 || fstat(r->fd, &st) < 0) {
		r->err_no = errno;
		goto io_error;
	}
	r->size = (guint64)st.st_size;
	r->off = BS_EVLOG_HEADER_SIZE;
	*hres = seg_read_header(r);
	if (r->err_no != 0)
		goto io_error;
	switch (*hres) {
	case BS_HDR_OK:
		return TRUE;
	case BS_HDR_SHORT:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: torn header (%" G_GUINT64_FORMAT " of %u bytes)", path,
		    r->size, BS_EVLOG_HEADER_SIZE);
		return FALSE;
	case BS_HDR_NEWER:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: journal format version %u is newer than this program's "
		    "version %u; refusing to read it (use the newer Basalt)", path,
		    r->hdr.version, r->hdr.kind == BS_KIND_CHECKPOINT ?
		    BS_CKPT_VERSION : BS_EVLOG_VERSION);
		return FALSE;
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset 0: bad file header (magic, kind or checksum)", path);
		return FALSE;
	}
io_error:
	g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s", path,
	    g_strerror(r->err_no));
	return FALSE;
}

void
bs_seg_close(BsSegReader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	g_clear_pointer(&r->path, g_free);
	g_clear_pointer(&r->buf, g_free);
	r->buf_cap = r->buf_len = 0;
}

gboolean
bs_all_zero(const guint8 *p, gsize n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

gboolean
bs_seg_zero_from(BsSegReader *r, guint64 from, guint64 *nonzero)
{
	for (guint64 off = from; off < r->size;) {
		gsize n = (gsize)MIN(r->size - off, (guint64)WINDOW_SIZE);
		const guint8 *p = bs_seg_peek(r, off, n);

		if (p == NULL)
			return FALSE;
		if (!bs_all_zero(p, n)) {
			if (nonzero != NULL)
				for (*nonzero = off; p[*nonzero - off] == 0; (*nonzero)++)
					;
			return FALSE;
		}
		off += n;
	}
	return TRUE;
}

/*
 * A crash during a write leaves each block either unwritten (zeros, in
 * preallocated space) or whole.  So the mark of an interrupted write is a
 * block left zero: from the start of a block (or from `from`, inside the
 * first one) to its end, all within [from, to).
 */
gboolean
bs_seg_zero_block(BsSegReader *r, guint64 from, guint64 to)
{
	to = MIN(to, r->size);
	for (guint64 b = from - from % BS_EVLOG_BLOCK; b + BS_EVLOG_BLOCK <= to;
	    b += BS_EVLOG_BLOCK) {
		guint64 lo = MAX(b, from);
		const guint8 *p = bs_seg_peek(r, lo, b + BS_EVLOG_BLOCK - lo);

		if (p != NULL && bs_all_zero(p, b + BS_EVLOG_BLOCK - lo))
			return TRUE;
	}
	return FALSE;
}

guint64
bs_seg_zero_tail(BsSegReader *r, guint64 from)
{
	guint64 run = r->size;  /* start of the zero blocks seen last */

	if (r->size % BS_EVLOG_BLOCK != 0)
		return r->size;
	for (guint64 b = (from + BS_EVLOG_BLOCK - 1) / BS_EVLOG_BLOCK *
	    BS_EVLOG_BLOCK; b < r->size; b += BS_EVLOG_BLOCK) {
		const guint8 *p = bs_seg_peek(r, b, BS_EVLOG_BLOCK);

		if (p == NULL)
			return r->size;
		if (!bs_all_zero(p, BS_EVLOG_BLOCK))
			run = r->size;
		else if (run == r->size)
			run = b;
	}
	return run;
}

BsRecResult
bs_seg_next(BsSegReader *r, const guint8 **payload, guint32 *len)
{
	const guint8 *h, *p;
	guint32 n;

	if (r->off == r->size)
		return BS_REC_END;
	n = (guint32)MIN(r->size - r->off, BS_EVLOG_RECORD_HEAD);
	h = bs_seg_peek(r, r->off, n);
	if (h == NULL)
		return r->err_no ? BS_REC_IO : BS_REC_SHORT_HEAD;
	/* Preallocated space: the written records end here. */
	if (bs_all_zero(h, n))
		return BS_REC_END;
	if (n < BS_EVLOG_RECORD_HEAD)
		return BS_REC_SHORT_HEAD;
	n = bs_get32(h);
	if (n == 0 || n > BS_EVLOG_MAX_RECORD)
		return BS_REC_BAD_LENGTH;
	if (r->size - r->off - BS_EVLOG_RECORD_HEAD < n)
		return BS_REC_SHORT_BODY;
	h = bs_seg_peek(r, r->off, BS_EVLOG_RECORD_HEAD + (gsize)n);
	if (h == NULL)
		return r->err_no ? BS_REC_IO : BS_REC_SHORT_BODY;
	p = h + BS_EVLOG_RECORD_HEAD;
	if (r->off + BS_EVLOG_RECORD_HEAD + n > r->checked_end &&
	    bs_crc32c(0, p, n) != bs_get32(h + 4))
		return BS_REC_BAD_CRC;
	*payload = p;
	*len = n;
	r->off += BS_EVLOG_RECORD_HEAD + (guint64)n;
	return BS_REC_OK;
}

/* Event.seq is field 1, a varint, packed first: tag byte 0x08. */
static gboolean
peek_seq(const guint8 *p, guint32 len, guint64 *seq)
{
	guint64 v = 0;

	if (len < 2 || p[0] != 0x08)
		return FALSE;
	for (guint32 i = 1, shift = 0; i < len && shift < 64; i++, shift += 7) {
		v |= (guint64)(p[i] & 0x7f) << shift;
		if ((p[i] & 0x80) == 0) {
			*seq = v;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean
bs_record_seq(const guint8 *p, guint32 len, guint64 *seq)
{
	return peek_seq(p, len, seq);
}

/*
 * Tries every byte offset: a damaged length field gives no hint where the
 * next record starts.  Cheap tests (length fits, tag byte, seq in range)
 * come before the CRC, so this stays linear in practice.
 */
gboolean
bs_seg_resync(BsSegReader *r, guint64 from, guint64 min_seq, guint64 *found)
{
	for (guint64 pos = from; pos + BS_EVLOG_RECORD_HEAD < r->size; pos++) {
		const guint8 *h = bs_seg_peek(r, pos, BS_EVLOG_RECORD_HEAD + 2);
		guint32 n;
		guint64 seq;
		Basalt__Event *ev;

		if (h == NULL)
			return FALSE;
		n = bs_get32(h);
		if (n < 2 || n > BS_EVLOG_MAX_RECORD ||
		    r->size - pos - BS_EVLOG_RECORD_HEAD < n ||
		    h[BS_EVLOG_RECORD_HEAD] != 0x08)
			continue;
		h = bs_seg_peek(r, pos, BS_EVLOG_RECORD_HEAD + (gsize)n);
		if (h == NULL)
			return FALSE;
		if (!peek_seq(h + BS_EVLOG_RECORD_HEAD, n, &seq) || seq <= min_seq ||
		    bs_crc32c(0, h + BS_EVLOG_RECORD_HEAD, n) != bs_get32(h + 4))
			continue;
		ev = bs_event_unpack(h + BS_EVLOG_RECORD_HEAD, n);
		if (ev == NULL)
			continue;
		bs_event_free(ev);
		*found = pos;
		return TRUE;
	}
	return FALSE;
}

const char *
bs_rec_result_str(BsRecResult res)
{
	switch (res) {
	case BS_REC_OK: return "ok";
	case BS_REC_END: return "end of file";
	case BS_REC_SHORT_HEAD: return "short record header";
	case BS_REC_SHORT_BODY: return "record runs past the end of the file";
	case BS_REC_BAD_LENGTH: return "impossible record length";
	case BS_REC_BAD_CRC: return "record checksum mismatch";
	case BS_REC_IO: return "read error";
	}
	return "?";
}

Basalt__Event *
bs_event_unpack(const guint8 *p, guint32 len)
{
	return basalt__event__unpack(NULL, len, p);
}

void
bs_event_free(Basalt__Event *ev)
{
	if (ev != NULL)
		basalt__event__free_unpacked(ev, NULL);
}

/*
 * A bump allocator: one buffer, handed out front to back and taken back
 * whole before the next record.  What does not fit is allocated apart and
 * the buffer grows at the next reset, so a run of large records settles
 * into the buffer too.  Under AddressSanitizer every event is allocated
 * and freed normally instead, so that a callback keeping a pointer into
 * an event it was lent is still caught.
 */
#define ARENA_MIN ((gsize)64 << 10)
#define ARENA_ALIGN ((gsize)16)

struct BsEventArena {
	ProtobufCAllocator pa;
	guint8 *buf;
	gsize size, used;
	gsize spilled;          /* bytes allocated apart since the reset */
	GSList *apart;
	Basalt__Event *last;    /* sanitizer builds: the event to free */
};

static void *
arena_alloc(void *data, size_t n)
{
	BsEventArena *a = data;
	void *p;

	n = (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	if (n > a->size - a->used) {
		p = g_malloc(n > 0 ? n : 1);
		a->apart = g_slist_prepend(a->apart, p);
		a->spilled += n;
		return p;
	}
	p = a->buf + a->used;
	a->used += n;
	return p;
}

static void
arena_release(void *data, void *p)
{
	/* Everything goes back at once in arena_reset(). */
	(void)data;
	(void)p;
}

static void
arena_reset(BsEventArena *a)
{
	if (a->apart != NULL) {
		g_slist_free_full(a->apart, g_free);
		a->apart = NULL;
		g_free(a->buf);
		a->size = MAX(a->size * 2, a->used + a->spilled);
		a->buf = g_malloc(a->size);
		a->spilled = 0;
	}
	a->used = 0;
}

BsEventArena *
bs_event_arena_new(void)
{
	BsEventArena *a = g_new0(BsEventArena, 1);

	a->pa.alloc = arena_alloc;
	a->pa.free = arena_release;
	a->pa.allocator_data = a;
	a->size = ARENA_MIN;
	a->buf = g_malloc(a->size);
	return a;
}

void
bs_event_arena_free(BsEventArena *a)
{
	if (a == NULL)
		return;
	bs_event_free(a->last);
	g_slist_free_full(a->apart, g_free);
	g_free(a->buf);
	g_free(a);
}

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_BYPASS 1
#endif
#endif

Basalt__Event *
bs_event_arena_unpack(BsEventArena *a, const guint8 *p, guint32 len)
{
	arena_reset(a);
#ifdef ARENA_BYPASS
	bs_event_free(a->last);
	a->last = bs_event_unpack(p, len);
	return a->last;
#else
	return basalt__event__unpack(&a->pa, len, p);
#endif
}
