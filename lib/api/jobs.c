/*
 * bjobs over many pages: mbatchd answers a job query in pages that fit a
 * frame; this asks until the last one and presents all jobs as one list,
 * so formatters never know there were pages.
 */
#include "config.h"

#include "api/api.h"

static void
free_page(gpointer page)
{
	protobuf_c_message_free_unpacked(page, NULL);
}

gboolean
lsb_jobs_all(const Basalt__JobQuery *q, LsbJobPages *out, GError **err)
{
	Basalt__JobQuery page_q = *q;
	GPtrArray *jobs = g_ptr_array_new();

	basalt__job_list__init(&out->list);
	out->pages = g_ptr_array_new_with_free_func(free_page);
	for (;;) {
		ProtobufCMessage *m = NULL;
		Basalt__JobList *l;

		if (!lsb_call(LSB_JOBS, &page_q.base, &m, err)) {
			g_ptr_array_free(jobs, TRUE);
			lsb_job_pages_clear(out);
			return FALSE;
		}
		l = (Basalt__JobList *)m;
		g_ptr_array_add(out->pages, l);
		if (out->pages->len == 1)
			out->list.error = l->error;
		for (size_t i = 0; i < l->n_jobs; i++)
			g_ptr_array_add(jobs, l->jobs[i]);
		/* Stop on an error, the last page, or a page that does not move
		 * forward (an older mbatchd without paging). */
		if (l->error != NULL || !l->more || l->next_skip <= page_q.skip)
			break;
		page_q.skip = l->next_skip;
	}
	out->list.n_jobs = jobs->len;
	out->list.jobs = (Basalt__JobInfo **)g_ptr_array_free(jobs, FALSE);
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
}
