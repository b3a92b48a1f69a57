/*
 * Job group paths: validation and the few relations between paths the
 * commands and mbatchd need (see jobgroup.h).  Paths come from users and
 * end up in mbatchd's memory, the journal and other users' bjgroup
 * output, so anything but plain printable names is refused here.
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "util/error.h"

static gboolean
bad(GError **error, const char *path, const char *why)
{
	g_autofree char *shown = g_strescape(path, NULL);

	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
	    "Bad job group name <%s>: %s", shown, why);
	return FALSE;
}

gboolean
bs_jobgroup_normalize(const char *path, char **out, GError **error)
{
	g_auto(GStrv) parts = NULL;
	GString *norm;
	guint depth = 0;

	*out = NULL;
	if (path == NULL || *path == '\0')
		return bad(error, "", "the name is empty");
	if (strlen(path) > BS_JOBGROUP_PATH_MAX)
		return bad(error, path, "the name is too long");
	if (path[0] != '/')
		return bad(error, path, "the full path from the root (/) is needed");
	for (const char *c = path; *c; c++)
		if (*c <= ' ' || *c >= 0x7f)
			return bad(error, path,
			    "only printable characters without blanks are allowed");
	parts = g_strsplit(path + 1, "/", -1);
	norm = g_string_new(NULL);
	for (guint i = 0; parts[i] != NULL; i++) {
		/* One trailing slash is allowed: "/a/" is "/a". */
		if (parts[i][0] == '\0' && parts[i + 1] == NULL && i > 0)
			break;
		if (parts[i][0] == '\0' || strcmp(parts[i], ".") == 0 ||
		    strcmp(parts[i], "..") == 0) {
			g_string_free(norm, TRUE);
			return bad(error, path,
			    "a component is empty, \".\" or \"..\"");
		}
		if (++depth > BS_JOBGROUP_DEPTH_MAX) {
			g_string_free(norm, TRUE);
			return bad(error, path, "the hierarchy is too deep");
		}
		g_string_append_c(norm, '/');
		g_string_append(norm, parts[i]);
	}
	/* "/" splits into no component at all. */
	if (depth == 0) {
		g_string_free(norm, TRUE);
		return bad(error, path, "the root group cannot be named");
	}
	*out = g_string_free(norm, FALSE);
	return TRUE;
}

char *
bs_jobgroup_parent(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL || slash == path)
		return NULL;
	return g_strndup(path, (gsize)(slash - path));
}

gboolean
bs_jobgroup_within(const char *path, const char *group)
{
	size_t n = strlen(group);

	if (path == NULL || group == NULL || strncmp(path, group, n) != 0)
		return FALSE;
	return path[n] == '\0' || path[n] == '/';
}

guint
bs_jobgroup_depth(const char *path)
{
	guint n = 0;

	for (const char *c = path; *c; c++)
		n += *c == '/';
	return n;
}

char *
bs_jobgroup_expand(const char *pattern, const char *user, const char *project)
{
	GString *s = g_string_new(NULL);

	for (const char *c = pattern; *c; c++) {
		if (c[0] == '%' && c[1] == 'u') {
			g_string_append(s, user != NULL ? user : "");
			c++;
		} else if (c[0] == '%' && c[1] == 'p') {
			g_string_append(s, project != NULL && *project ?
			    project : "default");
			c++;
		} else {
			g_string_append_c(s, *c);
		}
	}
	return g_string_free(s, FALSE);
}
