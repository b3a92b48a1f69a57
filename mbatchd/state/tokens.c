/*
 * Submission tokens: bsub sends a random token with each submission and
 * the same one on every retry, so a submission whose reply was lost (the
 * connection broke, mbatchd crashed after the commit) is answered with the
 * job it already made instead of making a second one.
 *
 * The token is journaled with the job (EvJobNew.submit_token) and indexed
 * here by uid and token while any element of the job is in the state: the
 * retry window is the job's life in mbatchd's memory, until it is cleaned
 * (CLEAN_PERIOD after it finished).  Memory is one entry per job, and a
 * token is at most STATE_TOKEN_MAX bytes (mbatchd refuses longer ones).
 * The uid is part of the key: a user who learns another user's token gets
 * a job of his own, never an answer about someone else's.
 */
#include "config.h"

#include <string.h>

#include "state.h"

struct SubmitToken {
	guint64 job_id;
	const char *queue;        /* interned; the queue it was submitted to */
	guint refs;               /* elements of the job that hold it */
	char key[];               /* "uid:token": one block with the token,
	                           * every job of a client has one */
};

static void
token_free(SubmitToken *t)
{
	g_free(t);
}

void
state_tokens_init(State *st)
{
	st->tokens = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)token_free);
}

void
state_tokens_free(State *st)
{
	g_hash_table_destroy(st->tokens);
}

void
state_token_add(State *st, Job *j, guint32 uid, const char *token)
{
	g_autofree char *key = NULL;
	SubmitToken *t;

	if (token == NULL || *token == '\0')
		return;
	key = g_strdup_printf("%u:%s", uid, token);
	t = g_hash_table_lookup(st->tokens, key);
	if (t == NULL) {
		gsize len = strlen(key) + 1;

		t = g_malloc0(sizeof *t + len);
		memcpy(t->key, key, len);
		t->job_id = j->id;
		t->queue = j->queue;
		g_hash_table_insert(st->tokens, t->key, t);
	} else if (t->job_id != j->id) {
		return;               /* a second job with a used token: no index */
	}
	t->refs++;
	j->token = t;
}

void
state_token_drop(State *st, Job *j)
{
	SubmitToken *t = j->token;

	if (t == NULL)
		return;
	j->token = NULL;
	if (--t->refs == 0)
		g_hash_table_remove(st->tokens, t->key);
}

gboolean
state_token_find(State *st, guint32 uid, const char *token, guint64 *job_id,
    const char **queue)
{
	g_autofree char *key = g_strdup_printf("%u:%s", uid, token);
	SubmitToken *t = g_hash_table_lookup(st->tokens, key);

	if (t == NULL)
		return FALSE;
	*job_id = t->job_id;
	*queue = t->queue;
	return TRUE;
}

const char *
state_token_text(const Job *j)
{
	const char *colon;

	if (j->token == NULL)
		return NULL;
	colon = strchr(j->token->key, ':');
	return colon != NULL ? colon + 1 : NULL;
}
