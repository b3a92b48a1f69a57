/*
 * bjobs over many pages: mbatchd answers a job query in pages that fit a
 * frame; this asks until the last one and presents all jobs as one list,
 * so formatters never know there were pages.  The pages are unpacked into
 * one arena (arena.h), freed with them.
 */
#include "config.h"

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
 * Page k+1 is asked for as soon as page k has arrived, before page k is
 * unpacked and escaped: mbatchd selects and packs the next page on one
 * core while this process unpacks the last on the other.
 */
gboolean
lsb_jobs_all(const Basalt__JobQuery *q, LsbJobPages *out, GError **err)
{
	Basalt__JobQuery page_q = *q;
	GPtrArray *jobs = g_ptr_array_new();
	guint64 id;
	gboolean sent;

	basalt__job_list__init(&out->list);
	out->pages = g_ptr_array_new();
	out->arena = lsb_arena_new();
	sent = lsb_call_send(LSB_JOBS, &page_q.base, &id, err);
	while (sent) {
		ProtobufCMessage *m = NULL;
		GBytes *body = NULL;
		Basalt__JobList *l;
		guint32 skip = page_q.skip, next;

		if (!lsb_call_wait(LSB_JOBS, id, &body, err))
			break;
		/* Ask for the next page first.  Stop on an error, the last
		 * page, or a page that does not move forward (an older
		 * mbatchd without paging). */
		sent = peek_next(body, &next) && next > skip;
		if (sent) {
			page_q.skip = next;
			if (!lsb_call_send(LSB_JOBS, &page_q.base, &id, err)) {
				g_bytes_unref(body);
				break;
			}
		}
		if (!lsb_call_decode(LSB_JOBS, body,
		    lsb_arena_allocator(out->arena), &m, err)) {
			g_bytes_unref(body);
			break;
		}
		g_bytes_unref(body);
		l = (Basalt__JobList *)m;
		g_ptr_array_add(out->pages, l);
		if (out->pages->len == 1)
			out->list.error = l->error;
		for (size_t i = 0; i < l->n_jobs; i++)
			g_ptr_array_add(jobs, l->jobs[i]);
		if (!sent) {
			out->list.n_jobs = jobs->len;
			out->list.jobs = (Basalt__JobInfo **)g_ptr_array_free(jobs,
			    FALSE);
			return TRUE;
		}
	}
	g_ptr_array_free(jobs, TRUE);
	lsb_job_pages_clear(out);
	return FALSE;
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
