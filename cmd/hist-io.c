/*
 * The journal as the history commands see it (see hist-io.h).  Whoever can
 * read the journal directory (root on the master host) reads it directly,
 * read only, without mbatchd, with the reader of lib/journal, which stops
 * quietly at a record being written right now.  Everyone else (the
 * directory is private to root; a login host has none) asks mbatchd for
 * the same records a page at a time: mbatchd blanks in them what the
 * caller may not see (lsb.params SECURE_JOB_INFO_LEVEL), and the model is
 * fed the same way, so the output is the same for what the caller may see.
 */
#include "config.h"

#include "api/api.h"
#include "cmd-util.h"
#include "hist-io.h"
#include "journal/format.h"
#include "journal/readback.h"

#include <unistd.h>

static char *
share_file(const char *name, GError **err)
{
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(GHashTable) conf = lsb_read_lsf_conf(envdir, err);
	g_autofree char *share = NULL;

	if (conf == NULL)
		return NULL;
	share = lsb_conf_path(conf, envdir, "LSB_SHAREDIR");
	if (share == NULL)
		share = g_build_filename(envdir, "work", NULL);
	return g_build_filename(share, name, NULL);
}

char *
hist_journal_dir(GError **err)
{
	return share_file("events", err);
}

char *
hist_mbd_socket(GError **err)
{
	return share_file("mbatchd.sock", err);
}

static void
feed(Basalt__Event *ev, gpointer data)
{
	hist_model_feed(data, ev);
}

static void
escaped(HistEventFn fn, gpointer data, Basalt__Event *ev)
{
	/* Names in the journal came from users: no forged rows. */
	lsb_escape_message(&ev->base);
	fn(ev, data);
}

/* The history through mbatchd, page after page until the end. */
static gboolean
each_remote(guint nfiles, HistEventFn fn, gpointer data, char **warning,
    GError **err)
{
	Basalt__HistoryRequest req = BASALT__HISTORY_REQUEST__INIT;

	req.newest_files = nfiles;
	for (;;) {
		ProtobufCMessage *reply = NULL;
		Basalt__HistoryPage *p;
		gboolean done;

		if (!lsb_call(LSB_HISTORY, &req.base, &reply, err))
			return FALSE;
		p = (Basalt__HistoryPage *)reply;
		if (p->error != NULL) {
			g_set_error(err, LSB_ERROR, LSB_ERROR_CALL, "%s",
			    p->error->message);
			protobuf_c_message_free_unpacked(reply, NULL);
			return FALSE;
		}
		for (size_t i = 0; i < p->n_records; i++) {
			Basalt__Event *ev = bs_event_unpack(p->records[i].data,
			    (guint32)p->records[i].len);

			if (ev == NULL)
				continue;
			escaped(fn, data, ev);
			bs_event_free(ev);
		}
		if (p->warning != NULL && *p->warning != '\0' && *warning == NULL)
			*warning = g_strdup(p->warning);
		/* A page that does not move forward ends the reading too. */
		done = p->end || p->next_seq <= req.after_seq;
		req.after_seq = p->next_seq;
		protobuf_c_message_free_unpacked(reply, NULL);
		if (done)
			return TRUE;
	}
}

gboolean
hist_each_event(const char *dir, guint nfiles, HistEventFn fn, gpointer data,
    char **warning, GError **err)
{
	BsJournalReader *rd;
	Basalt__Event *ev;
	GError *rerr = NULL;

	*warning = NULL;
	if (access(dir, R_OK | X_OK) != 0)
		return each_remote(nfiles, fn, data, warning, err);
	rd = bs_journal_reader_open(dir, nfiles, err);
	if (rd == NULL)
		return FALSE;
	while (bs_journal_reader_next(rd, &ev, &rerr)) {
		escaped(fn, data, ev);
		basalt__event__free_unpacked(ev, NULL);
	}
	if (rerr != NULL) {
		*warning = g_strdup_printf("The history stops at damage in the "
		    "journal: %s (see badmin journal check)", rerr->message);
		g_error_free(rerr);
	}
	bs_journal_reader_free(rd);
	return TRUE;
}

HistModel *
hist_load(const char *dir, guint nfiles, char **warning, GError **err)
{
	HistModel *m = hist_model_new();

	if (!hist_each_event(dir, nfiles, feed, m, warning, err)) {
		hist_model_free(m);
		return NULL;
	}
	return m;
}

gboolean
hist_parse_jobs(HistFilter *f, char **ids, int n, GError **err)
{
	for (int i = 0; i < n; i++) {
		HistJobRef r = { 0 };

		if (!cmd_parse_jobid(ids[i], &r.id, &r.index, err))
			return FALSE;
		r.has_index = r.index > 0;
		g_array_append_val(f->jobs, r);
	}
	return TRUE;
}
