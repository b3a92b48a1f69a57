/*
 * The content of a cluster hello, both ways (mc-hello.h says why it is
 * apart from the link state machine).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mc-hello.h"

gboolean
mc_plain_name(const char *s, gsize max, gboolean dots)
{
	if (s == NULL || *s == '\0' || strlen(s) > max)
		return FALSE;
	for (const char *p = s; *p != '\0'; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-' &&
		    !(dots && *p == '.'))
			return FALSE;
	return TRUE;
}

static gboolean
printable_text(const char *s, gsize max)
{
	if (s == NULL || strlen(s) > max)
		return FALSE;
	for (const char *p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return FALSE;
	return TRUE;
}

/* A hello's master name and profiles: why they are refused, or NULL. */
char *
mc_hello_fields_bad(const char *master, Basalt__RemoteApp **apps, size_t n,
    const char *admin)
{
	if (!mc_plain_name(master, MC_MAX_HOST_NAME, TRUE))
		return g_strdup("bad master host name");
	if (admin == NULL || (*admin != '\0' &&
	    !mc_plain_name(admin, MC_MAX_NAME, TRUE)))
		return g_strdup("bad administrator name");
	if (n > MC_MAX_APPS)
		return g_strdup_printf("%zu application profiles, more than %d",
		    n, MC_MAX_APPS);
	for (size_t i = 0; i < n; i++)
		if (!mc_plain_name(apps[i]->name, MC_MAX_NAME, FALSE) ||
		    !printable_text(apps[i]->description, MC_MAX_APP_DESC))
			return g_strdup_printf("bad application profile #%zu", i + 1);
	return NULL;
}

void
mc_our_apps(const BsConfig *cfg, McAppList *out)
{
	GPtrArray *apps = cfg->apps;

	out->n = 0;
	out->items = g_new0(Basalt__RemoteApp, apps->len + 1);
	out->ptrs = g_new0(Basalt__RemoteApp *, apps->len + 1);
	/* Only what the peer accepts (its checks are ours): one odd profile
	 * must not cost the link. */
	for (guint i = 0; i < apps->len && out->n < MC_MAX_APPS; i++) {
		const BsAppConf *a = apps->pdata[i];
		Basalt__RemoteApp *r = &out->items[out->n];

		basalt__remote_app__init(r);
		r->name = a->name;
		r->description = a->description != NULL ? a->description :
		    (char *)"";
		if (!mc_plain_name(r->name, MC_MAX_NAME, FALSE) ||
		    !printable_text(r->description, MC_MAX_APP_DESC))
			continue;
		out->ptrs[out->n++] = r;
	}
}

void
mc_our_apps_clear(McAppList *l)
{
	g_free(l->items);
	g_free(l->ptrs);
}

/* Our administrator and host counts, as lsclusters shows them. */
const char *
mc_our_admin(const BsConfig *cfg)
{
	char **admins = cfg->cluster->admins;
	const char *a = admins != NULL && admins[0] != NULL ? admins[0] : "root";

	/* A name the peer would refuse is not sent (lsclusters shows "-"). */
	return mc_plain_name(a, MC_MAX_NAME, TRUE) ? a : "";
}

void
mc_our_hosts(const BsConfig *cfg, guint *hosts, guint *servers)
{
	GPtrArray *h = cfg->cluster->hosts;

	*hosts = h->len;
	*servers = 0;
	for (guint i = 0; i < h->len; i++)
		*servers += ((const BsClusterHost *)h->pdata[i])->server ? 1 : 0;
}
