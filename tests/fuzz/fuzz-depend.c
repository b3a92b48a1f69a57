/*
 * libFuzzer target for lib/job: the dependency parser and, on the same
 * input, the job array and job ID parsers.  Any input must parse or fail
 * cleanly; a dependency that parses must print to a canonical form that
 * parses back to itself, and must evaluate against jobs whose state
 * depends on the reference; an array spec must print to text that parses
 * to the same count.  Not built by make; by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Ilib \
 *     tests/fuzz/fuzz-depend.c lib/job/depend.c lib/job/array.c \
 *     lib/util/error.c \
 *     $(pkg-config --cflags --libs glib-2.0) -o fuzz-depend
 *
 * (-I. must reach a config.h: run from a configured tree, or add
 * -I<builddir>.)
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job/array.h"
#include "job/depend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Zero to three jobs, their states derived from the reference. */
static void
lookup(const BsDependRef *ref, GArray *jobs, void *data)
{
	guint64 h = ref->job_id + ref->index + (ref->name ? strlen(ref->name) : 0);

	for (guint64 i = 0; i < h % 4; i++) {
		BsDependJob j = {
			(BsDependJobState)((h + i) % 6), (int)((h * 7 + i) % 256),
			(BsDependPost)((h + i) % 3),
		};

		g_array_append_val(jobs, j);
	}
}

static void
fuzz_array(const char *text)
{
	BsArraySpec *spec = NULL, *again = NULL;
	guint max = 1 + (guint)(strlen(text) * 97 % 5000);
	guint64 id;
	char *s;

	if (bs_array_parse(text, max, &spec, NULL) && spec != NULL) {
		s = bs_array_spec_to_string(spec);
		if (!bs_array_parse(s, max, &again, NULL) || again == NULL ||
		    bs_array_spec_count(again) != bs_array_spec_count(spec))
			abort();
		for (guint i = 0; i < bs_array_spec_count(spec); i++)
			if (!bs_array_spec_contains(spec, bs_array_spec_index(spec, i)))
				abort();
		g_free(s);
		bs_array_spec_free(again);
		bs_array_spec_free(spec);
	}
	if (bs_jobid_parse(text, max, &id, &spec, NULL))
		bs_array_spec_free(spec);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	GError *err = NULL;
	BsDepend *d = bs_depend_parse(text, &err), *again;
	GPtrArray *refs;
	char *s, *s2;

	fuzz_array(text);
	if (d == NULL) {
		if (err == NULL)
			abort();
		g_error_free(err);
		g_free(text);
		return 0;
	}
	(void)bs_depend_eval(d, lookup, NULL);
	(void)bs_depend_check_refs(d, lookup, NULL, NULL);
	refs = bs_depend_collect_refs(d);
	if (refs->len == 0)
		abort();
	g_ptr_array_free(refs, TRUE);
	s = bs_depend_to_string(d);
	if (strlen(s) <= BS_DEPEND_MAX_LEN) {
		again = bs_depend_parse(s, &err);
		if (again == NULL)
			abort();
		s2 = bs_depend_to_string(again);
		if (strcmp(s, s2) != 0)
			abort();
		g_free(s2);
		bs_depend_free(again);
	}
	g_free(s);
	bs_depend_free(d);
	g_free(text);
	return 0;
}
