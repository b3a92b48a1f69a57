/*
 * The execution host's part in an interactive job (bsub -I, -Ip, -Is):
 * the setup that bs-jobwrap's relay reads (irelay.h).
 *
 * sbatchd never touches the job's terminal or bsub's socket.  Its only
 * contribution is what the job's owner cannot make: on a MUNGE cluster, a
 * credential encoded as root whose payload names this job, this host and
 * the nonce bsub put in the submission, so bsub can tell the real
 * execution host from any other user who finds its port.  The credential
 * goes to the relay through a pipe, never argv or the environment, where
 * other users could read it before it is spent.
 *
 * Everything in the setup that came from the submission (address, nonce)
 * is checked here: a hostile value is refused with a reason, never passed
 * on to split into extra setup lines.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "iact/iact-wire.h"
#include "procscan.h"
#include "sbd.h"
#include "util/error.h"

static gboolean
printable_word(const char *s, gsize max)
{
	if (s == NULL || *s == '\0' || strlen(s) > max)
		return FALSE;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 127)
			return FALSE;
	return TRUE;
}

/* A bad address or nonce is the job's own fault (it would fail on any
 * host), so it ends the job with 127 rather than sending it back to PEND
 * (start-refusal.c). */
static gboolean
check_spec(const Basalt__JobSpec *s, GError **error)
{
	if (s->interactive > IA_MODE_SHELL ||
	    !printable_word(s->interactive_address, 400) ||
	    (strncmp(s->interactive_address, "tcp:", 4) != 0 &&
	    strncmp(s->interactive_address, "unix:", 5) != 0)) {
		g_set_error(error, SBD_JOB_ERROR, 127,
		    "the interactive job has no valid bsub address");
		return FALSE;
	}
	if (!printable_word(s->interactive_nonce, 64) ||
	    strspn(s->interactive_nonce, "0123456789abcdef") !=
	    strlen(s->interactive_nonce)) {
		g_set_error(error, SBD_JOB_ERROR, 127,
		    "the interactive job has no valid nonce");
		return FALSE;
	}
	return TRUE;
}

static char *
make_credential(Sbd *sbd, const Basalt__StartJobRequest *req, GError **error)
{
	g_autofree char *payload = NULL;
	const char *why = "";
	char *cred = NULL, *out;

	if (!sbd_auth_enabled(sbd) ||
	    strncmp(req->spec->interactive_address, "tcp:", 4) != 0)
		return g_strdup("");
	payload = g_strdup_printf(IA_HELLO_TAG " job=%" G_GUINT64_FORMAT
	    " index=%u nonce=%s host=%s", req->job_id, req->array_index,
	    req->spec->interactive_nonce, sbd->host);
	if (ia_munge_encode(bs_auth_socket(sbd->cfg->lsf->values), payload,
	    &cred, &why) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot get a MUNGE "
		    "credential for the interactive job: %s", why);
		return NULL;
	}
	out = g_strdup(cred);
	free(cred);
	return out;
}

int
sbd_interactive_setup(Sbd *sbd, const Basalt__StartJobRequest *req,
    GError **error)
{
	const Basalt__JobSpec *s = req->spec;
	g_autofree char *cred = NULL;
	g_autoptr(GString) text = NULL;
	int fds[2];
	gboolean tty;

	if (s == NULL || s->interactive == IA_MODE_NONE)
		return 0;
	if (!check_spec(s, error))
		return -1;
	if (strncmp(s->interactive_address, "tcp:", 4) == 0 &&
	    !sbd_auth_enabled(sbd)) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "host %s cannot "
		    "reach bsub over TCP without MUNGE (LSF_AUTH=munge)", sbd->host);
		return -1;
	}
	if ((cred = make_credential(sbd, req, error)) == NULL)
		return -1;
	tty = s->interactive_tty;
	text = g_string_new(NULL);
	g_string_append_printf(text, "mode=%u\naddress=%s\nnonce=%s\njob=%"
	    G_GUINT64_FORMAT "\nindex=%u\nhost=%s\nwinsize=%u\nmunge=%s\n"
	    "keep_out=%d\nkeep_err=%d\ntty=%d\nkeep_in=%d\ncred=%s\n", s->interactive,
	    s->interactive_address, s->interactive_nonce, req->job_id,
	    req->array_index, sbd->host, s->interactive_winsize,
	    sbd_auth_enabled(sbd) ? bs_auth_socket(sbd->cfg->lsf->values) ?
	    bs_auth_socket(sbd->cfg->lsf->values) : "" : "",
	    s->stdout_path != NULL && *s->stdout_path != '\0',
	    s->stderr_path != NULL && *s->stderr_path != '\0', tty,
	    s->stdin_path != NULL && *s->stdin_path != '\0', cred);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create a pipe: %s",
		    g_strerror(errno));
		return -1;
	}
	/* A few hundred bytes: well inside a pipe's buffer, never blocks. */
	if (write(fds[1], text->str, text->len) != (ssize_t)text->len) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot write the "
		    "interactive setup: %s", g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	return fds[0];
}

/*
 * Is the leader of job group pgid an interactive relay ("bs-jobwrap -i")?
 * Read from the process, so a job re-adopted after a restart counts too.
 */
static gboolean
leader_is_relay(pid_t pgid)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/cmdline", (int)pgid);
	g_autofree char *text = NULL;
	gsize len = 0;
	const char *arg1;

	if (!g_file_get_contents(path, &text, &len, NULL) || len == 0)
		return FALSE;
	arg1 = memchr(text, '\0', len);
	if (arg1 == NULL || (gsize)(++arg1 - text) >= len)
		return FALSE;
	return g_str_has_suffix(text, "bs-jobwrap") && strcmp(arg1, "-i") == 0;
}

typedef struct {
	pid_t sid;
	int sig;
} SessionSignal;

static void
signal_one(const BsProcStat *st, gpointer data)
{
	const SessionSignal *s = data;

	if (st->sid == s->sid && st->pgrp != s->sid)
		(void)kill(st->pid, s->sig);
}

void
sbd_interactive_signal_session(pid_t pgid, int sig)
{
	SessionSignal s = { pgid, sig };

	if (pgid > 1 && sig > 0 && leader_is_relay(pgid))
		bs_proc_foreach(signal_one, &s);
}
