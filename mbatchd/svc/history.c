/*
 * The journal for bhist and bacct when they cannot read it themselves: the
 * journal directory is private to root (it holds every job's command and
 * environment), and a login host has no journal at all.  So mbatchd reads
 * its own journal, read-only with lib/journal's reader, and sends it a page
 * at a time, each record blanked as bjobs would show the job (sight.c):
 * a job the caller may see only in summary loses its command, environment,
 * working directory, paths, pre-execution command and script, and its name
 * when the name is the command, and the text of its bpost messages; a job
 * the caller may not see at all loses its submission, modification and
 * message records, so bhist never learns of it.
 *
 * A page is bounded (PAGE_BYTES of records, PAGE_RECORDS records) so one
 * call costs the main loop a bounded read; the cursor is the seq of the
 * last record sent, and the reading starts at the segment file holding the
 * next one (segment names carry their first seq) and passes over the
 * records before it by their seq alone, without decoding them.  A cursor
 * past the newest record is refused.
 */
#include "config.h"

#include <string.h>

#include "journal/format.h"
#include "journal/readback.h"
#include "mbatchd/svc/svc.h"

#define PAGE_BYTES (1u << 20)
#define PAGE_RECORDS 4096u
/* A reply frame holds 4 MiB: one record past this cannot be sent. */
#define MAX_ONE_RECORD (3u << 20)

/* Which of the kept segments holds seq `after + 1`, as "the newest N". */
static guint
segments_from(const char *dir, guint64 after, guint newest_files)
{
	GPtrArray *segs = NULL, *ckpts = NULL;
	guint start = 0, n = 0;

	if (!bs_journal_list(dir, &segs, &ckpts, NULL))
		goto out;
	n = segs->len;
	for (guint i = 0; i < segs->len; i++) {
		const BsJournalFile *f = g_ptr_array_index(segs, i);

		if (f->seq <= after + 1)
			start = i;
	}
	if (newest_files > 0 && n > newest_files && start < n - newest_files)
		start = n - newest_files;
out:
	if (segs != NULL)
		g_ptr_array_unref(segs);
	if (ckpts != NULL)
		g_ptr_array_unref(ckpts);
	return n > start ? n - start : 0;
}

/* The owner of the job a modify record names, if mbatchd still has it. */
static const char *
modify_owner(Manager *m, const Basalt__EvJobModify *e)
{
	const Job *j = state_job(m->st, e->job_id, e->array_index);

	if (j == NULL && e->array_index != 0)
		j = state_job(m->st, e->job_id, 0);
	return j != NULL ? j->user : NULL;
}

/*
 * The record as the caller may read it, packed into *out; FALSE when the
 * caller may not see the job at all and the record is left out.
 */
/* A bpost record's owner, as the job's now (NULL once it is cleaned). */
static const char *
message_owner(Manager *m, const Basalt__EvJobMessage *e)
{
	const Job *j = state_job(m->st, e->job_id, e->array_index);

	return j != NULL ? j->user : NULL;
}

static gboolean
pack_for(Manager *m, const Sight *s, Basalt__Event *ev,
    ProtobufCBinaryData *out)
{
	static char dash[] = "-";
	Basalt__JobSpec **specp = NULL, *orig = NULL, copy;
	char *orig_name = NULL, *orig_text = NULL;
	static char empty[] = "";
	SightLevel level = SIGHT_DETAIL;

	if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW &&
	    ev->job_new->spec != NULL) {
		level = svc_sight_of_user(s, ev->job_new->user);
		specp = &ev->job_new->spec;
	} else if (ev->body_case == BASALT__EVENT__BODY_JOB_MODIFY &&
	    ev->job_modify->spec != NULL) {
		level = svc_sight_of_user(s, modify_owner(m, ev->job_modify));
		specp = &ev->job_modify->spec;
	} else if (ev->body_case == BASALT__EVENT__BODY_JOB_MESSAGE) {
		/* A message is as private as the command (bread's rule). */
		level = svc_sight_of_user(s, message_owner(m, ev->job_message));
		if (level == SIGHT_SUMMARY) {
			orig_text = ev->job_message->text;
			ev->job_message->text = empty;
		}
	}
	if (level == SIGHT_NONE)
		return FALSE;
	if (level == SIGHT_SUMMARY && specp != NULL) {
		/* Blank a shallow copy, pack, and put the original back, so the
		 * unpacked event is freed as it was allocated. */
		orig = *specp;
		copy = *orig;
		svc_sight_hide_details(&copy);
		*specp = &copy;
		if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW &&
		    (ev->job_new->job_name == NULL || *ev->job_new->job_name == '\0')) {
			orig_name = ev->job_new->job_name;
			ev->job_new->job_name = dash;
		}
	}
	out->len = protobuf_c_message_get_packed_size(&ev->base);
	out->data = g_malloc(out->len > 0 ? out->len : 1);
	protobuf_c_message_pack(&ev->base, out->data);
	if (orig != NULL)
		*specp = orig;
	if (orig_name != NULL)
		ev->job_new->job_name = orig_name;
	if (orig_text != NULL)
		ev->job_message->text = orig_text;
	return TRUE;
}

void
svc_history(Basalt__BatchService_Service *svc,
    const Basalt__HistoryRequest *req, Basalt__HistoryPage_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__HistoryPage reply = BASALT__HISTORY_PAGE__INIT;
	GArray *recs = g_array_new(FALSE, FALSE, sizeof(ProtobufCBinaryData));
	BsJournalReader *rd = NULL;
	Sight *sight = NULL;
	Basalt__Event *ev = NULL;
	GError *rerr = NULL;
	char *warning = NULL;
	gsize bytes = 0;
	guint nseg;
	Caller c;

	svc_caller(m, call, &c);
	reply.next_seq = req->after_seq;
	if (req->after_seq > 0 && req->after_seq >= journal_next_seq(m)) {
		reply.error = svc_error(BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST,
		    "history: cursor %" G_GUINT64_FORMAT " is past the newest "
		    "record", req->after_seq);
		goto reply;
	}
	nseg = segments_from(m->journal_dir, req->after_seq, req->newest_files);
	reply.end = TRUE;
	if (nseg == 0)
		goto reply;
	rd = bs_journal_reader_open(m->journal_dir, nseg, &rerr);
	if (rd == NULL) {
		reply.error = svc_error(BASALT__ERROR_CODE__ERROR_CODE_INTERNAL,
		    "history: %s", rerr->message);
		g_clear_error(&rerr);
		goto reply;
	}
	bs_journal_reader_skip_through(rd, req->after_seq);
	sight = svc_sight_new(m, &c);
	while (bs_journal_reader_next(rd, &ev, &rerr)) {
		ProtobufCBinaryData b = { 0, NULL };

		if (ev->seq <= req->after_seq) {
			bs_event_free(ev);
			continue;
		}
		if (recs->len >= PAGE_RECORDS ||
		    (recs->len > 0 && bytes + protobuf_c_message_get_packed_size(
		    &ev->base) > PAGE_BYTES)) {
			/* Left for the next page, which starts right here. */
			bs_event_free(ev);
			reply.end = FALSE;
			break;
		}
		if (pack_for(m, sight, ev, &b) && b.len > MAX_ONE_RECORD) {
			/* It would not fit a reply frame: say so, go on. */
			if (warning == NULL)
				warning = g_strdup_printf("record %" G_GUINT64_FORMAT
				    " is too large to send (%zu bytes); ask an "
				    "administrator to run bhist on the master host",
				    ev->seq, (size_t)b.len);
			g_free(b.data);
		} else if (b.data != NULL) {
			g_array_append_val(recs, b);
			bytes += b.len;
		}
		reply.next_seq = ev->seq;
		bs_event_free(ev);
	}
	if (rerr != NULL) {
		g_free(warning);
		warning = g_strdup_printf("The history stops at damage in the "
		    "journal: %s (see badmin journal check)", rerr->message);
		g_clear_error(&rerr);
	}
	if (warning != NULL)
		reply.warning = warning;
reply:
	reply.n_records = recs->len;
	reply.records = (ProtobufCBinaryData *)(void *)recs->data;
	closure(&reply, call);
	for (guint i = 0; i < recs->len; i++)
		g_free(g_array_index(recs, ProtobufCBinaryData, i).data);
	g_array_free(recs, TRUE);
	g_free(warning);
	svc_error_free(reply.error);
	svc_sight_free(sight);
	if (rd != NULL)
		bs_journal_reader_free(rd);
}
