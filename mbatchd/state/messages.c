/*
 * bpost's job messages kept in a job's state: at most one per index, a
 * new post replacing the old one.  The bounds (BS_JOB_MSG_MAX indexes,
 * BS_JOB_MSG_TEXT_MAX bytes) are checked by the service before anything
 * is journaled, so the state never holds more than that per job.
 */
#include "config.h"

#include "state.h"

static void
msg_free(gpointer p)
{
	JobMsg *m = p;

	g_free(m->text);
	g_free(m->user);
	g_free(m);
}

void
job_msg_put(Job *j, guint32 index, const char *text, const char *user,
    gint64 time)
{
	JobMsg *m = g_new0(JobMsg, 1);
	guint at;

	m->index = index;
	m->text = g_strdup(text != NULL ? text : "");
	m->user = g_strdup(user != NULL ? user : "");
	m->time = time;
	if (j->messages == NULL)
		j->messages = g_ptr_array_new_with_free_func(msg_free);
	for (at = 0; at < j->messages->len; at++) {
		JobMsg *o = g_ptr_array_index(j->messages, at);

		if (o->index == index) {
			msg_free(o);
			j->messages->pdata[at] = m;
			return;
		}
		if (o->index > index)
			break;
	}
	g_ptr_array_insert(j->messages, (gint)at, m);
}

const JobMsg *
job_msg_get(const Job *j, guint32 index)
{
	for (guint i = 0; j->messages != NULL && i < j->messages->len; i++) {
		const JobMsg *m = g_ptr_array_index(j->messages, i);

		if (m->index == index)
			return m;
	}
	return NULL;
}

void
job_msgs_free(Job *j)
{
	if (j->messages != NULL)
		g_ptr_array_free(j->messages, TRUE);
	j->messages = NULL;
}
