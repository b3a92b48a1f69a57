/*
 * libFuzzer target for lib/resreq: any input must parse or fail cleanly;
 * what parses must print to a canonical form that parses back to itself,
 * and must evaluate (or fail cleanly) against a host whose values depend
 * on the name asked for.  The input's lines, merged as several -R strings
 * with bare sizes in GB, must print to a text any reader parses back to
 * the same.  Not built by make; by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Ilib \
 *     tests/fuzz/fuzz-resreq.c lib/resreq/resreq.c lib/resreq/resreq-expr.c \
 *     lib/resreq/resreq-eval.c lib/util/error.c lib/util/memunit.c \
 *     $(pkg-config --cflags --libs glib-2.0) -o fuzz-resreq
 *
 * (-I. must reach a config.h: run from a configured tree, or add
 * -I<builddir>.)
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "resreq/resreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A host that has every resource: the kind depends on the name. */
static BsResValue
lookup(const char *name, void *data)
{
	switch (strlen(name) % 4) {
	case 0: return (BsResValue){ BS_RES_UNDEFINED, 0, NULL };
	case 1: return (BsResValue){ BS_RES_NUMBER, (double)strlen(name), NULL };
	case 2: return (BsResValue){ BS_RES_STRING, 0, name };
	default: return (BsResValue){ BS_RES_BOOLEAN, 1, NULL };
	}
}

/* The lines as several -R strings (bsub -R ... -R ...), sizes in GB. */
static void
merged(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", 8);
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse_many((const char *const *)lines,
	    g_strv_length(lines), BS_MEM_GB, &err), *again;
	char *s, *s2;

	if (rr == NULL) {
		if (err == NULL)
			abort();
		g_error_free(err);
		return;
	}
	s = bs_resreq_to_string(rr);
	if (strlen(s) <= BS_RESREQ_MAX_LEN) {
		/* mbatchd reads it with bare sizes in MB: same sizes. */
		again = bs_resreq_parse(s, &err);
		if (again == NULL ||
		    bs_resreq_rusage(again, "mem") != bs_resreq_rusage(rr, "mem"))
			abort();
		s2 = bs_resreq_to_string(again);
		g_free(s2);
		bs_resreq_free(again);
	}
	g_free(s);
	bs_resreq_free(rr);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse(text, &err), *again;
	char *s, *s2;

	merged(text);
	if (rr == NULL) {
		if (err == NULL)
			abort();
		g_error_free(err);
		g_free(text);
		return 0;
	}
	(void)bs_resreq_select_eval(rr, lookup, NULL, &err);
	g_clear_error(&err);
	s = bs_resreq_to_string(rr);
	if (strlen(s) <= BS_RESREQ_MAX_LEN) {
		again = bs_resreq_parse(s, &err);
		if (again == NULL)
			abort();
		s2 = bs_resreq_to_string(again);
		if (strcmp(s, s2) != 0)
			abort();
		g_free(s2);
		bs_resreq_free(again);
	}
	g_free(s);
	bs_resreq_free(rr);
	g_free(text);
	return 0;
}
