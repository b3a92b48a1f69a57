/*
 * bsub -v -F -D -S -C -p -T and the umask (see bsub-limits.h).  Each limit
 * is a JobLimit message, so -C 0 (no core file) differs from no -C.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "bsub-limits.h"
#include "cmd-util.h"
#include "util/error.h"

typedef struct {
	const char *opt;
	const char *name;        /* LSF's word for it in the error */
	gboolean size;           /* KB with units, else a count */
	gboolean zero_ok;
	size_t offset;           /* of the Basalt__JobLimit * in JobSpec */
} LimitOpt;

#define F(field) offsetof(Basalt__JobSpec, field)

static const LimitOpt limit_opts[] = {
	{ "-v", "SWAPLIMIT", TRUE, FALSE, F(swaplimit_kb) },
	{ "-F", "FILELIMIT", TRUE, FALSE, F(filelimit_kb) },
	{ "-D", "DATALIMIT", TRUE, FALSE, F(datalimit_kb) },
	{ "-S", "STACKLIMIT", TRUE, FALSE, F(stacklimit_kb) },
	{ "-C", "CORELIMIT", TRUE, TRUE, F(corelimit_kb) },
	{ "-p", "PROCESSLIMIT", FALSE, FALSE, F(processlimit) },
	{ "-T", "THREADLIMIT", FALSE, FALSE, F(threadlimit) },
};

gboolean
bsub_limits_apply(Basalt__JobSpec *s, const char *opt, const char *value,
		  GError **error)
{
	for (gsize i = 0; i < G_N_ELEMENTS(limit_opts); i++) {
		const LimitOpt *o = &limit_opts[i];
		Basalt__JobLimit **field;
		guint64 n;
		gboolean ok;

		if (strcmp(o->opt, opt) != 0)
			continue;
		ok = o->size ? cmd_parse_mem_kb(value, &n) :
		    cmd_parse_uint(value, &n) && n <= G_MAXUINT32;
		if (!ok || (n == 0 && !o->zero_ok)) {
			g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
				    "bsub: Bad %s specification: %s", o->name, value);
			return FALSE;
		}
		field = (Basalt__JobLimit **)((char *)s + o->offset);
		if (*field == NULL) {
			*field = g_new(Basalt__JobLimit, 1);
			basalt__job_limit__init(*field);
		}
		(*field)->value = n;
		return TRUE;
	}
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "bsub: not a limit option: %s", opt);
	return FALSE;
}

/*
 * umask(2) can only be read by setting it, so set it and put it back.
 * bsub is single-threaded and creates no file between the two calls, so
 * nothing sees the passing value.  (/proc/self/status shows it too, but
 * reading that costs an open and the kernel formatting fifty lines on
 * every submission.)
 */
void
bsub_limits_umask(Basalt__JobSpec *s)
{
	mode_t m = umask(022);

	(void)umask(m);
	s->umask = (guint32)(m & 0777);
	s->umask_set = TRUE;
}
