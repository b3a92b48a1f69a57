/*
 * bjobs over many pages: mbatchd answers a job query in pages that fit a
 * frame; this asks until the last one.  lsb_jobs_all presents all jobs as
 * one list, so formatters never know there were pages, unpacked into one
 * arena (arena.h) freed with them; lsb_jobs_each hands over each page as
 * it comes, in an arena of its own freed after it.
 */
#include "config.h"

#include <string.h>

#include "api/api.h"
#include "api/arena.h"

static gboolean
read_varint(const guint8 **p, const guint8 *end, guint64 *v)
{
	*v = 0;
	for (guint shift = 0; *p < end && shift < 64; shift += 7) {
		guint8 b = *(*p)++;

		*v |= (guint64)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return TRUE;
	}
	return FALSE;
}

/*
 * Whether a packed JobList asks for a next page, and from where: its
 * error (1), more (3) and next_skip (4) read straight from the wire,
 * stepping over the jobs, so the next page can be asked for before this
 * one is unpacked.  FALSE when the bytes do not parse (the unpack then
 * says so) or when there is no next page.
 */
static gboolean
peek_next(GBytes *body, guint32 *next_skip)
{
	gsize len;
	const guint8 *p = g_bytes_get_data(body, &len), *end = p + len;
	gboolean more = FALSE, error = FALSE;
	guint64 tag, v;

	*next_skip = 0;
	while (p < end) {
		if (!read_varint(&p, end, &tag))
			return FALSE;
		switch (tag & 7) {
		case 0:
			if (!read_varint(&p, end, &v))
				return FALSE;
			if (tag >> 3 == 3)
				more = v != 0;
			else if (tag >> 3 == 4)
				*next_skip = (guint32)v;
			break;
		case 1:
			if (end - p < 8)
				return FALSE;
			p += 8;
			break;
		case 2:
			if (!read_varint(&p, end, &v) || v > (guint64)(end - p))
				return FALSE;
			if (tag >> 3 == 1)
				error = TRUE;
			p += v;
			break;
		case 5:
			if (end - p < 4)
				return FALSE;
			p += 4;
			break;
		default:
			return FALSE;
		}
	}
	return more && !error;
}

/*
 * Each page to fn as it arrives, unpacked into arena, or when arena is
 * NULL into an arena of its own freed when fn returns.  Page k+1 is asked
 * for as soon as page k has arrived, before page k is unpacked and
 * escaped: mbatchd selects and packs the next page on one core while this
 * process unpacks (and bjobs prints) the last on the other.
 */
static gboolean
each_page(const Basalt__JobQuery *q, LsbArena *arena, LsbJobPageFn fn,
    gpointer data, GError **err)
{
	Basalt__JobQuery page_q = *q;
	guint64 id;
	gboolean sent;

	sent = lsb_call_send(LSB_JOBS, &page_q.base, &id, err);
	while (sent) {
		ProtobufCMessage *m = NULL;
		GBytes *body = NULL;
		LsbArena *own = arena != NULL ? NULL : lsb_arena_new();
		guint32 skip = page_q.skip, next;
		gboolean go_on;

		if (!lsb_call_wait(LSB_JOBS, id, &body, err)) {
			lsb_arena_free(own);
			break;
		}
		/* Ask for the next page first.  Stop on an error, the last
		 * page, or a page that does not move forward (an older
		 * mbatchd without paging). */
		sent = peek_next(body, &next) && next > skip;
		if (sent) {
			page_q.skip = next;
			if (!lsb_call_send(LSB_JOBS, &page_q.base, &id, err)) {
				g_bytes_unref(body);
				lsb_arena_free(own);
				break;
			}
		}
		if (!lsb_call_decode(LSB_JOBS, body,
		    lsb_arena_allocator(own != NULL ? own : arena), &m, err)) {
			g_bytes_unref(body);
			lsb_arena_free(own);
			break;
		}
		g_bytes_unref(body);
		go_on = fn((Basalt__JobList *)m, data);
		lsb_arena_free(own);
		if (!sent || !go_on)
			return TRUE;
	}
	return FALSE;
}

gboolean
lsb_jobs_each(const Basalt__JobQuery *q, LsbJobPageFn fn, gpointer data,
    GError **err)
{
	return each_page(q, NULL, fn, data, err);
}

static gboolean
keep_page(const Basalt__JobList *l, gpointer data)
{
	LsbJobPages *out = data;

	g_ptr_array_add(out->pages, (gpointer)l);
	if (out->pages->len == 1)
		out->list.error = l->error;
	return TRUE;
}

gboolean
lsb_jobs_all(const Basalt__JobQuery *q, LsbJobPages *out, GError **err)
{
	gsize n = 0;

	basalt__job_list__init(&out->list);
	out->pages = g_ptr_array_new();
	out->arena = lsb_arena_new();
	if (!each_page(q, out->arena, keep_page, out, err)) {
		lsb_job_pages_clear(out);
		return FALSE;
	}
	for (guint i = 0; i < out->pages->len; i++)
		n += ((Basalt__JobList *)out->pages->pdata[i])->n_jobs;
	out->list.jobs = g_new(Basalt__JobInfo *, n + 1);
	for (guint i = 0; i < out->pages->len; i++) {
		const Basalt__JobList *l = out->pages->pdata[i];

		/* An empty page has no array (jobs NULL), and memcpy's source
		 * must not be NULL even for no bytes. */
		if (l->n_jobs == 0)
			continue;
		memcpy(out->list.jobs + out->list.n_jobs, l->jobs,
		    l->n_jobs * sizeof(*l->jobs));
		out->list.n_jobs += l->n_jobs;
	}
	return TRUE;
}

void
lsb_job_pages_clear(LsbJobPages *p)
{
	g_free(p->list.jobs);
	p->list.jobs = NULL;
	p->list.n_jobs = 0;
	if (p->pages != NULL)
		g_ptr_array_free(p->pages, TRUE);
	p->pages = NULL;
	g_clear_pointer(&p->arena, lsb_arena_free);
}
