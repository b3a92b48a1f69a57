/*
 * Expanding LSF's path patterns for a job on its execution host (see
 * job-paths.h for the patterns and the -o directory rule).
 */
#include "config.h"

#include <string.h>

#include "job-paths.h"

char *
sbd_path_expand(const char *tmpl, const SbdPathVars *v)
{
	GString *out = g_string_sized_new(strlen(tmpl) + 32);

	for (const char *p = tmpl; *p != '\0'; p++) {
		if (p[0] != '%' || p[1] == '\0') {
			g_string_append_c(out, *p);
			continue;
		}
		/* Two-letter patterns first: %EJ is not %E followed by J. */
		if (strncmp(p + 1, "EJ", 2) == 0 || strncmp(p + 1, "EI", 2) == 0 ||
		    strncmp(p + 1, "JG", 2) == 0) {
			if (p[1] == 'J')
				g_string_append(out, v->jobgroup != NULL &&
				    *v->jobgroup ? v->jobgroup : "/");
			else if (p[2] == 'J')
				g_string_append_printf(out, "%" G_GINT64_FORMAT, v->job_id);
			else
				g_string_append_printf(out, "%d", v->index);
			p += 2;
			continue;
		}
		switch (p[1]) {
		case 'J':
			g_string_append_printf(out, "%" G_GINT64_FORMAT, v->job_id);
			break;
		case 'I':
			g_string_append_printf(out, "%d", v->index);
			break;
		case 'U':
			g_string_append(out, v->user ? v->user : "");
			break;
		case 'G':
			g_string_append(out, v->group ? v->group : "");
			break;
		case 'H':
			g_string_append(out, v->host ? v->host : "");
			break;
		case 'P':
			g_string_append(out, v->project ? v->project : "");
			break;
		case '%':
			g_string_append_c(out, '%');
			break;
		default:
			g_string_append_c(out, '%');
			continue;
		}
		p++;
	}
	return g_string_free(out, FALSE);
}

char *
sbd_path_output(const char *tmpl, const SbdPathVars *v, const char *base,
    const char *suffix, SbdIsDirFunc is_dir, gpointer data)
{
	g_autofree char *x = sbd_path_expand(tmpl, v);
	g_autofree char *abs = NULL;
	g_autofree char *name = NULL;
	gsize len = strlen(x);

	abs = g_path_is_absolute(x) || base == NULL ? g_strdup(x) :
	    g_build_filename(base, x, NULL);
	/* /dev/null and other special files are not directories to fill. */
	if (!(len > 0 && x[len - 1] == '/') &&
	    !(is_dir ? is_dir(abs, data) : g_file_test(abs, G_FILE_TEST_IS_DIR)))
		return g_steal_pointer(&abs);
	if (v->index > 0)
		name = g_strdup_printf("%" G_GINT64_FORMAT "_%d.%s", v->job_id,
		    v->index, suffix);
	else
		name = g_strdup_printf("%" G_GINT64_FORMAT ".%s", v->job_id, suffix);
	return g_build_filename(abs, name, NULL);
}

char **
sbd_path_prefixes(const char *dir)
{
	GPtrArray *out = g_ptr_array_new();
	g_autofree char *canon = g_canonicalize_filename(dir, "/");

	for (const char *p = canon + 1; ; p++) {
		if (*p == '/' || *p == '\0')
			g_ptr_array_add(out, g_strndup(canon, (gsize)(p - canon)));
		if (*p == '\0')
			break;
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}
