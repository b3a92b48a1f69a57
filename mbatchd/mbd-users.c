/*
 * User names of the peers mbatchd serves.  Every request names its
 * caller (svc_caller) and asks whether it is an administrator, which is
 * two getpwuid_r calls: with files in nsswitch.conf each opens, reads and
 * parses /etc/passwd, a tenth of what a submission costs mbatchd.  So a
 * uid's name is kept for USER_NAME_TTL_S seconds.
 *
 * Why a short time and not until a reconfig: the name decides whose jobs
 * a caller may touch and whether it is an LSF administrator.  A user
 * renamed or removed in the password database keeps the old name for at
 * most that long, as name-service caches (nscd, sssd) already allow.  A
 * uid with no name is not kept: it is looked up again on its next request.
 * The table holds at most USER_NAME_MAX uids (a peer with a MUNGE
 * credential can claim any uid); past that it is emptied.
 */
#include "config.h"

#include <pwd.h>

#include "mbatchd/mbd.h"

#define USER_NAME_TTL_S 30
#define USER_NAME_MAX 8192

typedef struct {
	gint64 until;             /* monotonic, microseconds */
	char name[];
} UserName;

static gboolean
lookup(uid_t uid, char *buf, gsize len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &res) != 0 || res == NULL)
		return FALSE;
	g_strlcpy(buf, pw.pw_name, len);
	return TRUE;
}

const char *
manager_user_name(Manager *m, uid_t uid, char *buf, gsize len)
{
	gint64 now = g_get_monotonic_time();
	UserName *u;

	if (m->user_names == NULL)
		m->user_names = g_hash_table_new_full(g_direct_hash,
		    g_direct_equal, NULL, g_free);
	u = g_hash_table_lookup(m->user_names, GUINT_TO_POINTER(uid));
	if (u != NULL && u->until > now) {
		g_strlcpy(buf, u->name, len);
		return buf;
	}
	if (!lookup(uid, buf, len)) {
		g_hash_table_remove(m->user_names, GUINT_TO_POINTER(uid));
		g_snprintf(buf, len, "%u", (unsigned)uid);
		return buf;
	}
	if (g_hash_table_size(m->user_names) >= USER_NAME_MAX)
		g_hash_table_remove_all(m->user_names);
	u = g_malloc(sizeof *u + strlen(buf) + 1);
	u->until = now + (gint64)USER_NAME_TTL_S * G_USEC_PER_SEC;
	strcpy(u->name, buf);
	g_hash_table_replace(m->user_names, GUINT_TO_POINTER(uid), u);
	return buf;
}

void
manager_user_names_free(Manager *m)
{
	g_clear_pointer(&m->user_names, g_hash_table_destroy);
}
