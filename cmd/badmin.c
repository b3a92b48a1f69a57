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
 * configuration as it is.  ckconfig works without mbatchd too: it then
 * loads the configuration here, with the daemon's own loader.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "conf/conf.h"

#define BADMIN_USAGE \
	"badmin [-h] [-V] subcommand\n" \
	"Subcommands:\n" \
	"  reconfig [-v] [-f]\n" \
	"  ckconfig [-v]\n" \
	"  mbdrestart [-C comment] [-v] [-f]\n" \
	"  qopen | qclose | qact | qinact [-C comment] [queue_name ... | all]\n" \
	"  hopen | hclose [-C comment] [host_name ... | host_group ... | all]\n" \
	"  showstatus"

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
};

typedef struct {
	Basalt__AdminAction action;
	gboolean force;          /* -f */
	GPtrArray *names;
	char *comment;           /* -C */
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
		else if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
			a->comment = argv[++i];
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
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_MBDRESTART:
		return reconfig(a);
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HOPEN:
	case BASALT__ADMIN_ACTION__ADMIN_ACTION_HCLOSE:
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

int
main(int argc, char **argv)
{
	AdminArgs a = { 0 };
	int code;

	if (cmd_main_hv(argc, argv, BADMIN_USAGE, &code))
		return code;
	a.names = g_ptr_array_new();
	code = parse(&a, argc, argv) ? run(&a) : usage();
	g_ptr_array_unref(a.names);
	return code;
}
