/*
 * The journal as the history commands see it (see hist-io.h): read only,
 * without mbatchd, with the reader of lib/journal, which stops quietly at
 * a record being written right now.
 */
#include "config.h"

#include "api/api.h"
#include "cmd-util.h"
#include "hist-io.h"
#include "journal/readback.h"

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

HistModel *
hist_load(const char *dir, guint nfiles, char **warning, GError **err)
{
	BsJournalReader *rd = bs_journal_reader_open(dir, nfiles, err);
	HistModel *m;
	Basalt__Event *ev;
	GError *rerr = NULL;

	*warning = NULL;
	if (rd == NULL)
		return NULL;
	m = hist_model_new();
	while (bs_journal_reader_next(rd, &ev, &rerr)) {
		/* Names in the journal came from users: no forged rows. */
		lsb_escape_message(&ev->base);
		hist_model_feed(m, ev);
		basalt__event__free_unpacked(ev, NULL);
	}
	if (rerr != NULL) {
		*warning = g_strdup_printf("The history stops at damage in the "
		    "journal: %s (see badmin journal check)", rerr->message);
		g_error_free(rerr);
	}
	bs_journal_reader_free(rd);
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
