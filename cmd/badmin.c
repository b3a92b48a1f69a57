/*
 * badmin: the administrator's commands.  mbatchd checks that the caller
 * is a cluster administrator; this program only shapes the request and
 * prints the reply: AdminReply.messages on stdout, config_errors
 * (file:line: message) on stderr.
 *
 * reconfig first asks for a check, as LSF does, so that errors are shown
 * before anything happens.  LSF then offers to go on regardless; Basalt
 * never applies an invalid configuration, so the question is kept for
 * scripts that answer it, and either answer leaves the running
 * configuration as it is.  reconfig -preview applies nothing: mbatchd
 * loads the files and shows what a pass with them would change
 * (consumers-preview.c).  ckconfig works without mbatchd too: it then
 * loads the configuration here, with the daemon's own loader.
 *
 * `journal check` and `journal salvage` never talk to mbatchd: they are
 * what an operator runs when mbatchd refuses to start on a damaged
 * journal, so they work on the files, with lib/journal's own check (the
 * same walk recovery does, so its verdict is the next start's).  Salvage
 * rewrites files, so it wants an administrator and a stopped mbatchd: a
 * live daemon appending to a segment being rewritten would lose events.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "conf/conf.h"
#include "consumers-preview.h"
#include "badmin-hist.h"
#include "badmin-hstartup.h"
#include "hist-io.h"
#include "journal/evlog.h"
#include "journal/readback.h"
#include "showconf.h"

#define BADMIN_USAGE \
	"badmin [-h] [-V] subcommand\n" \
	"Subcommands:\n" \
	"  reconfig [-v] [-f] | reconfig -preview\n" \
	"  ckconfig [-v]\n" \
	"  mbdrestart [-C comment] [-v] [-f]\n" \
	"  qopen | qclose | qact | qinact [-C comment] [queue_name ... | all]\n" \
	"  hopen | hclose [-C comment] [host_name ... | host_group ... | all]\n" \
	"  hclose -reclaim [-C comment] [host_name ... | host_group ... | all]\n" \
	"  hrestart | hshutdown | hstartup [-f] [host_name ... | all]\n" \
	"  showstatus\n" \
	"  showconf mbd\n" \
	"  mbdhist [-t time0,time1] [-f journal_dir]\n" \
	"  hhist [-t time0,time1] [-f journal_dir] [host_name ...]\n" \
	"  qhist [-t time0,time1] [-f journal_dir] [queue_name ...]\n" \
	"  journal check | salvage [directory]"

static const struct {
	const char *name;
	Basalt__AdminAction action;
} subcommands[] = {
	{ "reconfig", BASALT__ADMIN_ACTION__ADMIN_ACTION_RECONFIG },
	{ "ckconfig", BASALT__ADMIN_ACTION__ADMIN_ACTION_CKCONFIG },
	{ "mbdrestart", BASALT__ADMIN_ACTION__ADMIN_ACTION_MBDRESTART },
	{ "qopen", BASALT__ADMIN_ACTION__ADMIN_ACTION_QOPEN },
	{ "qclose", BASALT__ADMIN_ACTION__ADMIN_ACTION_QCLOSE },
	{ "qact", BASALT__ADMIN_ACTION__ADMIN_ACTION_QACT },
	{ "qinact", BASALT__ADMIN_ACTION__ADMIN_ACTION_QINACT },
	{ "hopen", BASALT__ADMIN_ACTION__ADMIN_ACTION_HOPEN },
	{ "hclose", BASALT__ADMIN_ACTION__ADMIN_ACTION_HCLOSE },
	{ "showstatus", BASALT__ADMIN_ACTION__ADMIN_ACTION_SHOWSTATUS },
	{ "hrestart", BASALT__ADMIN_ACTION__ADMIN_ACTION_HRESTART },
	{ "hshutdown", BASALT__ADMIN_ACTION__ADMIN_ACTION_HSHUTDOWN },
};

typedef struct {
	Basalt__AdminAction action;
	gboolean force;          /* -f */
	GPtrArray *names;
	char *comment;           /* -C */
	gboolean preview;        /* reconfig -preview */
	gboolean reclaim;        /* hclose -reclaim */
} AdminArgs;

static int
usage(void)
{
	fprintf(stderr, "Usage: %s\n", BADMIN_USAGE);
	return CMD_EXIT_FAIL;
}

static gboolean
parse(AdminArgs *a, int argc, char **argv)
{
	guint k;

	if (argc < 2)
		return FALSE;
	for (k = 0; k < G_N_ELEMENTS(subcommands); k++)
		if (strcmp(argv[1], subcommands[k].name) == 0)
			break;
	if (k == G_N_ELEMENTS(subcommands))
		return FALSE;
	a->action = subcommands[k].action;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-f") == 0)
			a->force = TRUE;
		else if (strcmp(argv[i], "-v") == 0)
			continue;       /* every message is printed anyway */
		else if (strcmp(argv[i], "-preview") == 0 &&
		    a->action == BASALT__ADMIN_ACTION__ADMIN_ACTION_RECONFIG)
			a->preview = TRUE;
		else if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
			a->comment = argv[++i];
		else if (strcmp(argv[i], "-reclaim") == 0 &&
		    a->action == BASALT__ADMIN_ACTION__ADMIN_ACTION_HCLOSE)
			a->reclaim = TRUE;
		else if (argv[i][0] == '-')
			return FALSE;
		else
			g_ptr_array_add(a->names, argv[i]);
	}
	return TRUE;
}

/* Prints the reply; returns the exit code.  diags: print config_errors
 * (reconfig has shown them already while checking). */
static int
print_reply(const Basalt__AdminReply *r, gboolean diags)
{
	gboolean failed = r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK;

	for (size_t i = 0; (diags || failed) && i < r->n_config_errors; i++)
		fprintf(stderr, "%s\n", r->config_errors[i]);
	for (size_t i = 0; i < r->n_messages; i++)
		printf("%s\n", r->messages[i]);
	fflush(stdout);
	if (!failed)
		return CMD_EXIT_OK;
	/* mbatchd repeats a per-name error among the messages already. */
	for (size_t i = 0; i < r->n_messages; i++)
		if (strcmp(r->messages[i], cmd_error_text(r->error)) == 0)
			return CMD_EXIT_FAIL;
	fprintf(stderr, "%s\n", cmd_error_text(r->error));
	return CMD_EXIT_FAIL;
}

static Basalt__AdminReply *
call_quiet(AdminArgs *a, Basalt__AdminAction action, GError **err)
{
	Basalt__AdminRequest req = BASALT__ADMIN_REQUEST__INIT;
	ProtobufCMessage *reply = NULL;

	req.action = action;
	req.names = (char **)a->names->pdata;
	req.n_names = a->names->len;
	req.comment = a->comment != NULL ? a->comment : (char *)"";
	req.preview = a->preview;
	req.reclaim = a->reclaim;
	if (!lsb_call(LSB_ADMIN, &req.base, &reply, err))
		return NULL;
	return (Basalt__AdminReply *)reply;
}

static Basalt__AdminReply *
call(AdminArgs *a, Basalt__AdminAction action)
{
	g_autoptr(GError) err = NULL;
	Basalt__AdminReply *r = call_quiet(a, action, &err);

	if (r == NULL)
		fprintf(stderr, "%s\n", err->message);
	return r;
}

/* ckconfig with no mbatchd: the same check, done here. */
static int
ckconfig_local(void)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	g_autofree char *text = NULL;
	BsConfig *cfg = bs_config_load(NULL, (gint64)time(NULL), d);

	text = bs_diags_to_string(d);
	fputs(text, stderr);
	if (cfg == NULL) {
		fprintf(stderr, "There are fatal errors in the configuration "
		    "(%u error(s)).\n", d->n_errors);
		return CMD_EXIT_FAIL;
	}
	bs_config_free(cfg);
	printf("No errors found.\n");
	return CMD_EXIT_OK;
}

static gboolean
mbd_listening(void)
{
	g_autofree char *path = lsb_mbd_socket(NULL);

	return path != NULL && g_file_test(path, G_FILE_TEST_EXISTS);
}

static int
ckconfig(AdminArgs *a)
{
	g_autoptr(GError) err = NULL;
	Basalt__AdminReply *r;
	int code;

	printf("\nChecking configuration files ...\n\n");
	fflush(stdout);
	if (!mbd_listening())
		return ckconfig_local();
	/* A socket nobody answers on is a dead mbatchd: check here. */
	lsb_set_quiet(TRUE);
	r = call_quiet(a, BASALT__ADMIN_ACTION__ADMIN_ACTION_CKCONFIG, &err);
	lsb_set_quiet(FALSE);
	if (r == NULL && g_error_matches(err, LSB_ERROR, LSB_ERROR_DOWN))
		return ckconfig_local();
	if (r == NULL)
		return cmd_main_fail(err);
	code = print_reply(r, TRUE);
	basalt__admin_reply__free_unpacked(r, NULL);
	return code;
}

/* After a failed check: LSF's question, and why its answer changes
 * nothing here. */
static int
refuse_invalid(const AdminArgs *a)
{
	char answer[64] = "";

	if (!a->force) {
		printf("Do you want to reconfigure? [y/n] ");
		fflush(stdout);
		if (fgets(answer, sizeof answer, stdin) == NULL)
			answer[0] = '\0';
		if (answer[0] != 'y' && answer[0] != 'Y') {
			printf("\n%s aborted.\n", a->action ==
			    BASALT__ADMIN_ACTION__ADMIN_ACTION_MBDRESTART ?
			    "MBD restart" : "Reconfiguration");
			return CMD_EXIT_FAIL;
		}
	}
	fprintf(stderr, "Basalt never applies a configuration with errors; "
	    "the running configuration is unchanged.\n");
	return CMD_EXIT_FAIL;
}

/* reconfig -preview: mbatchd loads the files and runs a pass with them
 * on the live state; the errors, or the quotas and jobs it would change. */
static int
preview(AdminArgs *a)
{
	g_autoptr(GString) out = g_string_new(NULL);
	Basalt__AdminReply *r = call(a, a->action);
	int code;

	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_reply(r, TRUE);
	if (code == CMD_EXIT_OK) {
		consumers_preview_format(out, r->preview_time, r->preview_consumers,
		    r->n_preview_consumers, r->preview_jobs, r->n_preview_jobs);
		fputs(out->str, stdout);
	}
	basalt__admin_reply__free_unpacked(r, NULL);
	return code;
}

static int
reconfig(AdminArgs *a)
{
	Basalt__AdminReply *r;
	int code;

	code = ckconfig(a);
	if (code != CMD_EXIT_OK)
		return refuse_invalid(a);
	r = call(a, a->action);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_reply(r, FALSE);
	if (code == CMD_EXIT_OK && r->n_messages == 0)
		printf("%s initiated\n", a->action ==
		    BASALT__ADMIN_ACTION__ADMIN_ACTION_MBDRESTART ?
		    "MBD restart" : "Reconfiguration");
	basalt__admin_reply__free_unpacked(r, NULL);
	return code;
}

static int
run(AdminArgs *a)
{
	Basalt__AdminReply *r;
	int code;
	char host[256];

	switch (a->action) {
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_CKCONFIG:
		return ckconfig(a);
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_RECONFIG:
		if (a->preview)
			return preview(a);
		return reconfig(a);
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_MBDRESTART:
		return reconfig(a);
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HOPEN:
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HCLOSE:
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HRESTART:
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HSHUTDOWN:
		/* LSF's default is the host the command runs on. */
		if (a->names->len == 0 && gethostname(host, sizeof host) == 0) {
			host[sizeof host - 1] = '\0';
			g_ptr_array_add(a->names, host);
		}
		break;
	default:
		break;
	}
	r = call(a, a->action);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_reply(r, TRUE);
	basalt__admin_reply__free_unpacked(r, NULL);
	return code;
}

/* ---- journal check | salvage -------------------------------------------- */

/* The u32 length of the record at off (evlog.h: little-endian). */
static gboolean
record_end(const char *path, guint64 off, guint64 *end)
{
	guint32 len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = pread(fd, &len, sizeof len, (off_t)off) == (ssize_t)sizeof len;
	close(fd);
	*end = off + BS_EVLOG_RECORD_HEAD + GUINT32_FROM_LE(len);
	return ok;
}

/*
 * What recovery would cut from a journal that loads: whatever follows
 * the last whole record of the newest segment (all of it when even the
 * header is torn).  Found with the history reader, which stops there.
 */
static guint64
load_would_drop(const char *dir)
{
	GPtrArray *segs = NULL, *ckpts = NULL;
	BsJournalReader *rd;
	Basalt__Event *ev;
	const BsJournalFile *f;
	guint64 end = BS_EVLOG_HEADER_SIZE, drop = 0;

	if (!bs_journal_list(dir, &segs, &ckpts, NULL) || segs->len == 0)
		goto out;
	f = g_ptr_array_index(segs, segs->len - 1);
	drop = f->size;
	if (f->size < BS_EVLOG_HEADER_SIZE ||
	    (rd = bs_journal_reader_open(dir, 1, NULL)) == NULL)
		goto out;
	while (bs_journal_reader_next(rd, &ev, NULL)) {
		const char *path;
		guint64 off;

		basalt__event__free_unpacked(ev, NULL);
		bs_journal_reader_position(rd, &path, &off);
		if (g_strcmp0(path, f->path) == 0 && !record_end(path, off, &end))
			end = f->size;
	}
	bs_journal_reader_free(rd);
	drop = f->size > end ? f->size - end : 0;
out:
	if (segs != NULL)
		g_ptr_array_unref(segs);
	if (ckpts != NULL)
		g_ptr_array_unref(ckpts);
	return drop;
}

static void
print_report(const BsJournalReport *rep)
{
	printf("Segments:           %u\n", rep->segments);
	if (rep->checkpoint_path != NULL)
		printf("Checkpoint:         %s (state after seq %" G_GUINT64_FORMAT
		    ")\n", rep->checkpoint_path, rep->checkpoint_seq);
	else
		printf("Checkpoint:         none\n");
	if (rep->records > 0)
		printf("Records:            %" G_GUINT64_FORMAT " (seq %"
		    G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT ")\n", rep->records,
		    rep->first_seq, rep->last_seq);
	else
		printf("Records:            0\n");
	printf("Problems:           %u\n", rep->problems->len);
	for (guint i = 0; i < rep->problems->len; i++)
		printf("  %s\n", (const char *)g_ptr_array_index(rep->problems, i));
}

/* Prints the report and the verdict; returns the exit code. */
static int
journal_check(const char *dir)
{
	g_autoptr(GError) err = NULL;
	BsJournalReport rep;
	gboolean ok;

	bs_journal_report_init(&rep);
	ok = bs_journal_check(dir, &rep, &err);
	printf("Journal directory:  %s\n", dir);
	print_report(&rep);
	if (ok)
		printf("Bytes a load would drop: %" G_GUINT64_FORMAT "\n"
		    "The journal loads.\n", load_would_drop(dir));
	else
		printf("The journal does not load: %s\n", err != NULL ?
		    err->message : "unknown error");
	fflush(stdout);
	bs_journal_report_clear(&rep);
	return ok ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static gboolean
caller_is_admin(void)
{
	g_autoptr(BsDiags) d = NULL;
	BsConfig *cfg;
	gboolean admin = FALSE;

	if (geteuid() == 0)
		return TRUE;
	d = bs_diags_new();
	cfg = bs_config_load(NULL, (gint64)time(NULL), d);
	if (cfg == NULL)
		return FALSE;
	for (char **a = cfg->cluster != NULL ? cfg->cluster->admins : NULL;
	    a != NULL && *a != NULL; a++)
		admin |= strcmp(*a, cmd_main_user()) == 0;
	bs_config_free(cfg);
	return admin;
}

/* TRUE when something accepts connections on the socket. */
static gboolean
socket_answers(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;
	gboolean up;

	if (path == NULL || strlen(path) >= sizeof sa.sun_path)
		return FALSE;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return FALSE;
	up = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
	close(fd);
	return up;
}

/* mbatchd's socket from lsf.conf, and next to the journal directory. */
static gboolean
mbd_running(const char *dir)
{
	g_autofree char *conf_sock = hist_mbd_socket(NULL);
	g_autofree char *parent = g_path_get_dirname(dir);
	g_autofree char *near = g_build_filename(parent, "mbatchd.sock", NULL);

	return socket_answers(conf_sock) || socket_answers(near);
}

static int
journal_salvage(const char *dir)
{
	g_autoptr(GError) err = NULL;
	BsJournalReport rep;
	gboolean ok;

	if (!caller_is_admin()) {
		fprintf(stderr, "User permission denied: journal salvage needs "
		    "root or a cluster administrator\n");
		return CMD_EXIT_FAIL;
	}
	if (mbd_running(dir)) {
		fprintf(stderr, "mbatchd is running; stop it before salvaging "
		    "its journal\n");
		return CMD_EXIT_FAIL;
	}
	bs_journal_report_init(&rep);
	ok = bs_journal_salvage(dir, &rep, &err);
	printf("Salvaging journal %s\n", dir);
	for (guint i = 0; i < rep.problems->len; i++)
		printf("  %s\n", (const char *)g_ptr_array_index(rep.problems, i));
	if (rep.problems->len == 0)
		printf("  nothing to repair\n");
	bs_journal_report_clear(&rep);
	if (!ok) {
		fflush(stdout);
		fprintf(stderr, "Salvage failed: %s\n", err->message);
		return CMD_EXIT_FAIL;
	}
	printf("Damaged originals, if any, are kept beside the new files as "
	    "<name>.damaged.\nWhat the journal holds now:\n");
	return journal_check(dir);
}

static int
journal_main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = NULL;

	if (argc < 3 || argc > 4 || (strcmp(argv[2], "check") != 0 &&
	    strcmp(argv[2], "salvage") != 0))
		return usage();
	dir = argc == 4 ? g_strdup(argv[3]) : hist_journal_dir(&err);
	if (dir == NULL)
		return cmd_main_fail(err);
	if (strcmp(argv[2], "check") == 0)
		return journal_check(dir);
	return journal_salvage(dir);
}

int
main(int argc, char **argv)
{
	AdminArgs a = { 0 };
	int code;

	if (cmd_main_hv(argc, argv, BADMIN_USAGE, &code))
		return code;
	if (argc >= 2 && strcmp(argv[1], "journal") == 0)
		return journal_main(argc, argv);
	if (argc >= 2 && (strcmp(argv[1], "mbdhist") == 0 ||
	    strcmp(argv[1], "hhist") == 0 || strcmp(argv[1], "qhist") == 0))
		return badmin_hist_main(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "hstartup") == 0)
		return badmin_hstartup_main(argc, argv, caller_is_admin());
	if (argc >= 2 && strcmp(argv[1], "showconf") == 0) {
		if (argc == 3 && strcmp(argv[2], "mbd") == 0)
			return showconf_mbd();
		if (argc >= 3 && strcmp(argv[2], "sbd") == 0) {
			fprintf(stderr, "badmin: showconf sbd: sbatchd reads the "
			    "lsf.conf of its own host; see it there with "
			    "lsadmin showconf lim\n");
			return CMD_EXIT_FAIL;
		}
		return usage();
	}
	a.names = g_ptr_array_new();
	code = parse(&a, argc, argv) ? run(&a) : usage();
	g_ptr_array_unref(a.names);
	return code;
}
