/*
 * lib/resreq: canonical forms (every one parsed back must print the same),
 * the exact error messages, the accessors, and select[] over a small fake
 * host table.
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "resreq/resreq.h"
#include "util/error.h"

/* ------------------------------------------------------------------ */
/* Helpers */

/* Parses in, checks it prints as want, and that want parses to itself. */
static void
check_canon(const char *in, const char *want)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse(in, &err), *again;
	char *s, *s2;

	ck_assert_msg(rr != NULL, "\"%s\": %s", in, err ? err->message : "?");
	s = bs_resreq_to_string(rr);
	ck_assert_str_eq(s, want);
	again = bs_resreq_parse(s, &err);
	ck_assert_msg(again != NULL, "\"%s\": %s", s, err ? err->message : "?");
	s2 = bs_resreq_to_string(again);
	ck_assert_str_eq(s2, want);
	g_free(s);
	g_free(s2);
	bs_resreq_free(rr);
	bs_resreq_free(again);
}

/* in must fail with `bad resource requirement "in": detail`. */
static void
check_fails(const char *in, const char *detail)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse(in, &err);
	char *want = g_strdup_printf("bad resource requirement \"%s\": %s",
	    in, detail);

	ck_assert_msg(rr == NULL, "\"%s\" parsed", in);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_FAILED));
	ck_assert_str_eq(err->message, want);
	g_error_free(err);
	g_free(want);
}

typedef struct {
	const char *hname, *type;
	double mem, maxmem, r15s, ncpus; /* < 0: not defined */
	gboolean bigmem;
} FakeHost;

static const FakeHost hosts[] = {
	{ "hostA", "LINUX", 2000, 4000, 0.5, 8, TRUE },
	{ "hostB", "SOLARIS", 500, 1000, 2.0, 2, FALSE },
	{ "hostC", "LINUX", -1, 8000, -1, 4, FALSE },
};

static BsResValue
num_or_undef(double v)
{
	return (BsResValue){ v < 0 ? BS_RES_UNDEFINED : BS_RES_NUMBER, v, NULL };
}

static BsResValue
fake_lookup(const char *name, void *data)
{
	const FakeHost *h = data;

	if (strcmp(name, "hname") == 0)
		return (BsResValue){ BS_RES_STRING, 0, h->hname };
	if (strcmp(name, "type") == 0)
		return (BsResValue){ BS_RES_STRING, 0, h->type };
	if (strcmp(name, BS_RESREQ_LOCAL_TYPE) == 0)
		return (BsResValue){ BS_RES_STRING, 0, "LINUX" };
	if (strcmp(name, "mem") == 0)
		return num_or_undef(h->mem);
	if (strcmp(name, "maxmem") == 0)
		return num_or_undef(h->maxmem);
	if (strcmp(name, "r15s") == 0)
		return num_or_undef(h->r15s);
	if (strcmp(name, "ncpus") == 0)
		return num_or_undef(h->ncpus);
	if (strcmp(name, "bigmem") == 0 && h->bigmem)
		return (BsResValue){ BS_RES_BOOLEAN, 1, NULL };
	return (BsResValue){ BS_RES_UNDEFINED, 0, NULL };
}

/* want: one 'T' or 'F' per host in hosts[]. */
static void
check_select(const char *in, const char *want)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse(in, &err);

	ck_assert_msg(rr != NULL, "\"%s\": %s", in, err ? err->message : "?");
	for (gsize i = 0; i < G_N_ELEMENTS(hosts); i++) {
		gboolean got = bs_resreq_select_eval(rr, fake_lookup,
		    (void *)&hosts[i], &err);

		ck_assert_msg(err == NULL, "\"%s\" on %s: %s", in,
		    hosts[i].hname, err ? err->message : "");
		ck_assert_msg(got == (want[i] == 'T'), "\"%s\" on %s: got %d",
		    in, hosts[i].hname, got);
	}
	bs_resreq_free(rr);
}

/* Evaluating in on hosts[host] is an error with this message. */
static void
check_eval_error(const char *in, gsize host, const char *msg)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse(in, &err);

	ck_assert_msg(rr != NULL, "\"%s\": %s", in, err ? err->message : "?");
	ck_assert(!bs_resreq_select_eval(rr, fake_lookup, (void *)&hosts[host],
	    &err));
	ck_assert(err != NULL);
	ck_assert_str_eq(err->message, msg);
	g_error_free(err);
	bs_resreq_free(rr);
}

/* ------------------------------------------------------------------ */
/* Canonical forms */

START_TEST(test_select_forms)
{
	check_canon("select[mem>1000]", "select[mem>1000]");
	check_canon("mem>1000", "select[mem>1000]");
	check_canon("  select[ mem > 1000 ]  ", "select[mem>1000]");
	check_canon("select[mem=1000]", "select[mem==1000]");
	check_canon("select[0.5<r15s]", "select[0.5<r15s]");
	check_canon("select[mem>1e3]", "select[mem>1000]");
	check_canon("select[r15s<.25]", "select[r15s<0.25]");
	check_canon("select[-mem<-1]", "select[-mem<-1]");
	check_canon("select[!!bigmem]", "select[!!bigmem]");
	check_canon("select[!(mem>1)]", "select[!(mem>1)]");
	check_canon("select[defined(lic) && lic>=2]",
	    "select[defined(lic) && lic>=2]");
	check_canon("", "");
	check_canon("   ", "");
}
END_TEST

START_TEST(test_select_precedence)
{
	check_canon("select[type==LINUX86 && mem>100 || !bigmem]",
	    "select[type==LINUX86 && mem>100 || !bigmem]");
	check_canon("select[(a || b) && c]", "select[(a || b) && c]");
	check_canon("select[a || (b && c)]", "select[a || b && c]");
	check_canon("select[a && (b && c)]", "select[a && (b && c)]");
	check_canon("select[mem>maxmem/2]", "select[mem>maxmem/2]");
	check_canon("select[mem-(r15s-1)>0]", "select[mem-(r15s-1)>0]");
	check_canon("select[(mem-r15s)-1>0]", "select[mem-r15s-1>0]");
	check_canon("select[(mem+1)*2>=ncpus]", "select[(mem+1)*2>=ncpus]");
	check_canon("select[(mem>1)==(r15s<2)]", "select[(mem>1)==(r15s<2)]");
	/* Right of a comparison a leading site resource would read back as
	 * a bare word ("a-b"), so arithmetic there keeps its parentheses
	 * (found by fuzz-resreq). */
	check_canon("select[x>(a-b)]", "select[x>(a-b)]");
	check_canon("select[x>(a*-b)-1]", "select[x>(a*-b-1)]");
}
END_TEST

START_TEST(test_select_words)
{
	check_canon("select[hname==node-01.example]",
	    "select[hname==node-01.example]");
	check_canon("select[hname==\"my host\"]", "select[hname==\"my host\"]");
	check_canon("select[hname=='say \"hi\"']", "select[hname=='say \"hi\"']");
	/* bare, "mem-1" would read back as arithmetic */
	check_canon("select[hname==\"mem-1\"]", "select[hname==\"mem-1\"]");
	check_canon("select[hname==\"abc\"]", "select[hname==abc]");
	check_canon("select[\"abc\"==hname]", "select[\"abc\"==hname]");
	check_canon("select[x==(y)]", "select[x==(y)]");
	check_canon("type==any order[r15s]", "select[type==any] order[r15s]");
	check_canon("select[type==LINUX&&mem>1]", "select[type==LINUX && mem>1]");
}
END_TEST

START_TEST(test_select_repeated)
{
	check_canon("select[a] select[b]", "select[a && b]");
	check_canon("select[a||b] select[c]", "select[(a || b) && c]");
	check_canon("mem>1 select[b]", "select[mem>1 && b]");
}
END_TEST

/* A shared parse lives until its last holder drops it. */
START_TEST(test_ref_shares_one_parse)
{
	BsResReq *rr = bs_resreq_parse("span[hosts=1] rusage[mem=500]", NULL);
	BsResReq *other;

	ck_assert_ptr_nonnull(rr);
	other = bs_resreq_ref(rr);
	ck_assert_ptr_eq(other, rr);
	bs_resreq_free(rr);
	ck_assert_int_eq(bs_resreq_span_hosts(other), 1);
	ck_assert(bs_resreq_rusage_mem_mb(other) == 500);
	bs_resreq_free(other);
}
END_TEST

START_TEST(test_sections)
{
	check_canon("rusage[mem=500:swp=100:duration=10:decay=1]",
	    "rusage[mem=500:swp=100:duration=10:decay=1]");
	check_canon("rusage[mem=500, lic=1:duration=2]",
	    "rusage[mem=500, lic=1:duration=2]");
	check_canon("rusage[mem=4GB]", "rusage[mem=4096]");
	check_canon("rusage[mem=4g]", "rusage[mem=4096]");
	check_canon("rusage[mem=512KB]", "rusage[mem=0.5]");
	check_canon("rusage[mem=1:duration=2h]", "rusage[mem=1:duration=120]");
	check_canon("order[-slots:r15s]", "order[-slots:r15s]");
	check_canon("span[hosts=1]", "span[hosts=1]");
	check_canon("span[hosts=-1]", "span[hosts=-1]");
	check_canon("span[ptile=4]", "span[ptile=4]");
	check_canon("span[ptile=!]", "span[ptile=!]");
	check_canon("same[type:model]", "same[type:model]");
	check_canon("span[ptile=2] rusage[mem=10] order[ut] select[ncpus>=2] same[model]",
	    "select[ncpus>=2] order[ut] rusage[mem=10] span[ptile=2] same[model]");
	check_canon("mem>100 rusage[mem=100]", "select[mem>100] rusage[mem=100]");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Errors */

START_TEST(test_errors_select)
{
	check_fails("select[mem>]", "expected a value after '>' at column 11");
	check_fails("select[mem>1", "missing ']' for this '[' at column 7");
	check_fails("select[(mem>1]", "missing ')' for this '(' at column 8");
	check_fails("select[]", "expected a value after '[' at column 7");
	check_fails("select[mem>1 foo]", "unexpected 'foo' in select[] at column 14");
	check_fails("select[a<b<c]", "comparisons cannot be chained at column 11");
	check_fails("select[hname==\"abc]", "unterminated string at column 15");
	check_fails("select[a & b]", "unexpected '&' at column 10");
	check_fails("select[mem>1] mem>2", "unexpected 'mem' at column 15");
	check_fails("select[\x01]", "unexpected byte 0x01 at column 8");
	check_fails("select[mem>1e999]", "number out of range at column 12");
	check_fails("select[!]", "expected a value after '!' at column 8");
	check_fails("select[mem>1 &&]", "expected a value after '&&' at column 14");
	check_fails("select[defined(1)]", "expected a resource name in defined() at column 16");
	check_fails("select[defined(a b)]", "expected ')' after defined(a at column 18");
	check_fails("mem>1)", "unexpected ')' at column 6");
}
END_TEST

START_TEST(test_errors_sections)
{
	check_fails("foo[x]", "unknown section 'foo[]' at column 1");
	check_fails("order[r15s] order[ut]", "order[] given twice at column 13");
	check_fails("order[]", "expected a load index name in order[] at column 7");
	check_fails("rusage[mem=1 || mem=2]",
	    "alternative rusage[] requirements (||) are not supported at column 14");
	check_fails("rusage[mem=(1 2)]",
	    "multi-phase rusage[] values are not supported at column 12");
	check_fails("rusage[mem=1:mem=2]", "'mem' is reserved twice in rusage[] at column 14");
	check_fails("rusage[mem=1, mem=2]", "'mem' is reserved twice in rusage[] at column 15");
	check_fails("rusage[duration=1]", "duration= must follow a resource at column 8");
	check_fails("rusage[mem=1:decay=2]", "decay= must be 0 or 1 at column 14");
	check_fails("rusage[mem=1:duration=1:duration=2]",
	    "duration= given twice in one block at column 25");
	check_fails("rusage[mem=5XB]", "unknown unit 'XB' at column 13");
	check_fails("rusage[mem=abc]", "expected a number after 'mem=' at column 12");
	check_fails("rusage[mem==1]", "expected '=' after 'mem' at column 11");
	check_fails("span[ptile=0]", "expected a positive whole number in span[] at column 12");
	check_fails("span[hosts=2.5]", "expected a positive whole number in span[] at column 12");
	check_fails("span[hosts=-2]", "expected a positive whole number in span[] at column 13");
	check_fails("span[foo=1]", "span[] takes hosts=, ptile= or block=, not 'foo' at column 6");
	check_fails("span[hosts=1:ptile=2]", "unexpected ':' in span[] at column 13");
	check_fails("same[]", "expected a resource name in same[] at column 6");
	check_fails("span[hosts=1] span[hosts=1]", "span[] given twice at column 15");
}
END_TEST

START_TEST(test_errors_limits)
{
	GError *err = NULL;
	char *s = g_strnfill(BS_RESREQ_MAX_LEN + 1, 'a');
	GString *deep = g_string_new("select[");

	ck_assert(bs_resreq_parse(s, &err) == NULL);
	ck_assert_str_eq(err->message,
	    "Resource requirement string too long (513 bytes, at most 512)");
	g_clear_error(&err);
	/* exactly the limit is fine (the canonical form may be longer) */
	s[BS_RESREQ_MAX_LEN] = '\0';
	bs_resreq_free(bs_resreq_parse(s, &err));
	ck_assert(err == NULL);
	g_free(s);

	for (int i = 0; i < 40; i++)
		g_string_append_c(deep, '(');
	g_string_append_c(deep, 'a');
	for (int i = 0; i < 40; i++)
		g_string_append_c(deep, ')');
	g_string_append_c(deep, ']');
	/* the 33rd '(' is at column 8 + 32 */
	check_fails(deep->str,
	    "expression nested too deeply (more than 32 levels) at column 40");
	g_string_free(deep, TRUE);
	check_fails("select[!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a]",
	    "expression nested too deeply (more than 32 levels) at column 40");
	/* A comparison's right side is a level whether or not it is in
	 * parentheses, since the printer adds them around arithmetic there:
	 * what is accepted at the limit reprints as accepted (found by
	 * fuzz-resreq).  31 '!' right of "x>(l)-": refused, as its reprint
	 * "x>(l--!!...)" would be; 30: accepted, and round-trips. */
	check_fails("select[x>(l)--!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a]",
	    "expression nested too deeply (more than 32 levels) at column 45");
	check_canon("select[x>(l)--!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a]",
	    "select[x>(l--!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a)]");
	check_canon("select[x>(l--!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a)]",
	    "select[x>(l--!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!a)]");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Accessors */

/* ------------------------------------------------------------------ */
/* Units, several strings, LSF 10.1 sections */

/* texts merged with bare sizes in unit: prints as want. */
static void
check_many(const char *const *texts, guint n, BsMemUnit unit,
    const char *want)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse_many(texts, n, unit, &err), *again;
	char *s, *s2;

	ck_assert_msg(rr != NULL, "\"%s\": %s", texts[0],
	    err ? err->message : "?");
	s = bs_resreq_to_string(rr);
	ck_assert_str_eq(s, want);
	/* What bsub sends: any reader parses it back to the same. */
	again = bs_resreq_parse(s, &err);
	ck_assert_msg(again != NULL, "\"%s\": %s", s, err ? err->message : "?");
	s2 = bs_resreq_to_string(again);
	g_free(s);
	bs_resreq_free(again);
	bs_resreq_free(rr);
	g_free(s2);
}

static void
check_many_fails(const char *const *texts, guint n, const char *detail)
{
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse_many(texts, n, BS_MEM_MB, &err);

	ck_assert(rr == NULL);
	ck_assert_msg(strstr(err->message, detail) != NULL, "%s", err->message);
	g_error_free(err);
}

START_TEST(test_units)
{
	GError *err = NULL;
	BsResReq *rr;

	/* The string workflow engines write most. */
	check_canon("select[mem>=2048MB] rusage[mem=2048MB]",
	    "select[mem>=2048] rusage[mem=2048]");
	check_canon("select[mem>2g]", "select[mem>2048]");
	check_canon("select[mem>512KB]", "select[mem>0.5]");
	check_canon("select[maxmem>=1Tb]", "select[maxmem>=1048576]");
	check_canon("select[swp>1PB]", "select[swp>1073741824]");
	check_canon("rusage[mem=1.5G]", "rusage[mem=1536]");
	check_canon("rusage[mem=10:duration=30s]", "rusage[mem=10:duration=1]");
	check_fails("select[mem>2QB]", "unexpected 'QB' in select[] at column 13");
	check_fails("rusage[mem=2QB]", "unknown unit 'QB' at column 13");
	/* The bound is on the size as held (MB), so what prints parses. */
	check_fails("rusage[mem=5000000000000GB]",
	    "'mem=' value out of range at column 12");
	/* A size the short form would round prints in full. */
	rr = bs_resreq_parse_units("rusage[mem=0.1234567890123456789]", BS_MEM_GB, &err);
	ck_assert_msg(rr != NULL, "%s", err ? err->message : "");
	{
		char *s = bs_resreq_to_string(rr);
		BsResReq *again = bs_resreq_parse(s, &err);

		ck_assert_msg(again != NULL, "%s: %s", s, err ? err->message : "");
		ck_assert(bs_resreq_rusage(again, "mem") == bs_resreq_rusage(rr, "mem"));
		bs_resreq_free(again);
		g_free(s);
	}
	bs_resreq_free(rr);
	/* LSF_UNIT_FOR_LIMITS=GB: bare mem/swp/tmp are GB, others plain. */
	rr = bs_resreq_parse_units("select[mem>2 && ncpus>2 && maxswp<4] "
	    "rusage[mem=1, lic=2, tmp=512MB]", BS_MEM_GB, &err);
	ck_assert_msg(rr != NULL, "%s", err ? err->message : "");
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 1024);
	ck_assert(bs_resreq_rusage(rr, "lic") == 2);
	ck_assert(bs_resreq_rusage(rr, "tmp") == 512);
	{
		char *s = bs_resreq_to_string(rr);

		ck_assert_str_eq(s, "select[mem>2048MB && ncpus>2 && "
		    "maxswp<4096MB] rusage[mem=1024MB, lic=2, tmp=512MB]");
		g_free(s);
	}
	bs_resreq_free(rr);
	/* KB (LSF's default for limits) leaves resources in MB. */
	rr = bs_resreq_parse_units("rusage[mem=100]", BS_MEM_KB, &err);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 100);
	bs_resreq_free(rr);
}
END_TEST

START_TEST(test_merge)
{
	const char *a[] = { "span[hosts=1]", "rusage[mem=10]" };
	const char *b[] = { "select[mem>100] order[ut]",
	    "select[type==LINUX] order[-mem:ut] same[model]", "same[type:model]" };
	const char *c[] = { "rusage[mem=10:swp=5:duration=2, lic=1]",
	    "rusage[mem=20]" };
	const char *d[] = { "mem>1 span[ptile=2]", "span[ptile=2]" };
	const char *e[] = { "rusage[mem=2]", "rusage[mem=3]" };
	const char *g[] = { "rusage[mem=1]", "rusage[mem=2GB]" };
	const char *bad_span[] = { "span[hosts=1]", "span[ptile=2]" };
	const char *bad_cu[] = { "cu[maxcus=1]", "cu[maxcus=2]" };
	const char *twice[] = { "rusage[mem=1, mem=2]", "" };
	GError *err = NULL;
	BsResReq *rr = bs_resreq_parse_many(a, 2, BS_MEM_MB, &err);

	/* The engines' -n 6 -R span[hosts=1] -R rusage[mem=10]. */
	ck_assert(rr != NULL);
	ck_assert_int_eq(bs_resreq_span_hosts(rr), 1);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 10);
	bs_resreq_free(rr);
	check_many(a, 2, BS_MEM_MB, "rusage[mem=10] span[hosts=1]");
	check_many(b, 3, BS_MEM_MB, "select[mem>100 && type==LINUX] "
	    "order[ut:-mem] same[model:type]");
	/* A resource reserved again: the later string's value. */
	check_many(c, 2, BS_MEM_MB,
	    "rusage[swp=5:duration=2, lic=1, mem=20]");
	check_many(d, 2, BS_MEM_MB, "select[mem>1] span[ptile=2]");
	check_many(e, 2, BS_MEM_MB, "rusage[mem=3]");
	check_many(g, 2, BS_MEM_GB, "rusage[mem=2048MB]");
	check_many_fails(bad_span, 2, "span[] conflicts with the span[] of an "
	    "earlier -R string; a job has one span at column 6");
	check_many_fails(bad_cu, 2, "cu[] conflicts");
	/* Within one string a resource is still reserved once. */
	check_many_fails(twice, 2, "'mem' is reserved twice in rusage[]");
}
END_TEST

START_TEST(test_lsf10_sections)
{
	BsResReq *rr;

	check_canon("span[block=4]", "span[block=4]");
	check_canon("span[ptile='!']", "span[ptile=!]");
	check_canon("cu[type=enclosure:maxcus=2] affinity[core(1):cpubind=core]",
	    "cu[type=enclosure:maxcus=2] affinity[core(1):cpubind=core]");
	check_canon("affinity[ thread(2) ] select[mem>1]",
	    "select[mem>1] affinity[thread(2)]");
	rr = bs_resreq_parse("span[block=4]", NULL);
	ck_assert_int_eq(bs_resreq_span_block(rr), 4);
	ck_assert_int_eq(bs_resreq_span_ptile(rr), 0);
	bs_resreq_free(rr);
	check_fails("cu[a[b]]", "unexpected '[' in cu[] at column 5");
	check_fails("affinity[core", "missing ']' in affinity[] at column 14");
	check_fails("cu[x] cu[x]", "cu[] given twice at column 7");
	/* A brace in a quoted string is a string. */
	check_canon("select[hname!='a{b}']", "select[hname!=\"a{b}\"]");
}
END_TEST

/* LSF 10.1's alternative and compound forms: the first part is used. */
START_TEST(test_brace_forms)
{
	const char *two[] = { "rusage[mem=5]", "2*{select[a]} + {select[a]}" };
	const char *clash[] = { "2*{select[a]}", "3*{select[a]}" };
	GError *err = NULL;
	BsResReq *rr;

	rr = bs_resreq_parse("{select[mem>=2048MB] rusage[mem=2GB]} || "
	    "{select[mem>=1024] rusage[mem=1024]}", &err);
	ck_assert_msg(rr != NULL, "%s", err ? err->message : "?");
	ck_assert_int_eq(bs_resreq_alternatives(rr), 2);
	ck_assert_int_eq(bs_resreq_compound_slots(rr), 0);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 2048);
	bs_resreq_free(rr);
	check_canon("{select[a] rusage[mem=1]} || {select[b]} || {select[c]}",
	    "select[a] rusage[mem=1]");
	check_canon("{select[a]}", "select[a]");
	check_canon("  { mem>1 }  ||{span[hosts=1]}", "select[mem>1]");

	rr = bs_resreq_parse("2*{select[a] rusage[mem=1]} + 4*{select[b]}", &err);
	ck_assert_msg(rr != NULL, "%s", err ? err->message : "?");
	ck_assert_int_eq(bs_resreq_compound_slots(rr), 6);
	ck_assert_int_eq(bs_resreq_alternatives(rr), 0);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 1);
	bs_resreq_free(rr);
	check_canon("2*{select[a]} + 4*{select[b]}", "select[a]");
	check_canon("3 * {span[hosts=1]} + {span[hosts=1]}", "span[hosts=1]");
	rr = bs_resreq_parse("3*{select[a]}+{select[a]}", NULL);
	ck_assert_int_eq(bs_resreq_compound_slots(rr), 4);
	bs_resreq_free(rr);
	rr = bs_resreq_parse("5*{}", NULL);
	ck_assert_int_eq(bs_resreq_compound_slots(rr), 5);
	ck_assert(!bs_resreq_has_select(rr));
	bs_resreq_free(rr);
	/* A brace quoted in a select[] string is not a form's brace. */
	check_canon("{select[hname!='x}']} || {select[b]}",
	    "select[hname!=\"x}\"]");

	/* Merged -R strings: one compound count; the rest merges as usual. */
	rr = bs_resreq_parse_many(two, 2, BS_MEM_MB, &err);
	ck_assert_msg(rr != NULL, "%s", err ? err->message : "?");
	ck_assert_int_eq(bs_resreq_compound_slots(rr), 3);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 5);
	bs_resreq_free(rr);
	ck_assert(bs_resreq_parse_many(clash, 2, BS_MEM_MB, &err) == NULL);
	ck_assert_str_eq(err->message, "bad resource requirement "
	    "\"3*{select[a]}\": compound requirements for 2 and 3 slots");
	g_clear_error(&err);

	/* Every part must parse, used or not. */
	ck_assert(bs_resreq_parse("{select[a]} || {select[b}", &err) == NULL);
	ck_assert(strstr(err->message, "select[b") != NULL);
	g_clear_error(&err);
	ck_assert(bs_resreq_parse("2*{select[a]} + {rusage[mem=x]}", &err)
	    == NULL);
	g_clear_error(&err);
	check_fails("{select[a]} || 2*{select[b]}", "an alternative ({...} || {...}) "
	    "cannot carry a slot count (n*{...})");
	check_fails("2*{select[a]} || {select[b]}", "an alternative ({...} || {...}) "
	    "cannot carry a slot count (n*{...})");
	check_fails("select[a] {select[b]}", "expected n*{...} + m*{...} "
	    "(compound) or {...} || {...} (alternative), nothing outside the "
	    "braces");
	check_fails("{select[a]} + {select[b]} x", "expected n*{...} + m*{...} "
	    "(compound) or {...} || {...} (alternative), nothing outside the "
	    "braces");
	check_fails("0*{select[a]}", "expected n*{...} + m*{...} "
	    "(compound) or {...} || {...} (alternative), nothing outside the "
	    "braces");
	check_fails("{select[a] || {select[b]}}", "nested {...} are not supported");
	check_fails("{select[a]", "missing '}'");
	check_fails("select[a]}", "expected n*{...} + m*{...} "
	    "(compound) or {...} || {...} (alternative), nothing outside the "
	    "braces");
}
END_TEST

START_TEST(test_accessors)
{
	BsResReq *rr = bs_resreq_parse(
	    "rusage[mem=2GB:swp=100:duration=10:decay=1, lic=1] span[ptile=!] "
	    "order[-mem:ut] same[type:model]", NULL);
	const char *const *same;

	ck_assert(rr != NULL);
	ck_assert(!bs_resreq_has_select(rr));
	ck_assert(bs_resreq_select_eval(rr, fake_lookup, (void *)&hosts[0], NULL));
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 2048);
	ck_assert(bs_resreq_rusage(rr, "swp") == 100);
	ck_assert(bs_resreq_rusage(rr, "lic") == 1);
	ck_assert(bs_resreq_rusage(rr, "tmp") == 0);
	ck_assert_int_eq(bs_resreq_rusage_duration(rr, "mem"), 10);
	ck_assert_int_eq(bs_resreq_rusage_duration(rr, "lic"), -1);
	ck_assert(bs_resreq_rusage_decay(rr, "swp"));
	ck_assert(!bs_resreq_rusage_decay(rr, "lic"));
	ck_assert_int_eq(bs_resreq_span_ptile(rr), BS_RESREQ_PTILE_ALL);
	ck_assert_int_eq(bs_resreq_span_hosts(rr), 0);
	ck_assert_uint_eq(bs_resreq_order_len(rr), 2);
	ck_assert_str_eq(bs_resreq_order_key(rr, 0).name, "mem");
	ck_assert(bs_resreq_order_key(rr, 0).descending);
	ck_assert(!bs_resreq_order_key(rr, 1).descending);
	same = bs_resreq_same(rr);
	ck_assert_str_eq(same[0], "type");
	ck_assert_str_eq(same[1], "model");
	ck_assert(same[2] == NULL);
	bs_resreq_free(rr);

	rr = bs_resreq_parse("span[hosts=1]", NULL);
	ck_assert_uint_eq(bs_resreq_order_len(rr), 2);
	ck_assert_str_eq(bs_resreq_order_key(rr, 0).name, "r15s");
	ck_assert_str_eq(bs_resreq_order_key(rr, 1).name, "pg");
	ck_assert_int_eq(bs_resreq_span_hosts(rr), 1);
	ck_assert_int_eq(bs_resreq_span_ptile(rr), 0);
	ck_assert(bs_resreq_same(rr) == NULL);
	ck_assert(bs_resreq_rusage_mem_mb(rr) == 0);
	bs_resreq_free(rr);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Evaluation over hosts A (LINUX, 2000 MB, bigmem), B (SOLARIS, 500 MB)
 * and C (LINUX, no mem or r15s reported) */

START_TEST(test_eval_compare)
{
	check_select("mem>1000", "TFF");
	check_select("mem<=500", "FTF");
	check_select("mem!=500", "TFF");
	check_select("mem=2000", "TFF");
	check_select("r15s<1", "TFF");
	check_select("1000<mem", "TFF");
	check_select("type==LINUX", "TFT");
	check_select("type!=LINUX", "FTF");
	check_select("hname==hostB", "FTF");
	check_select("hname>=hostB", "FTT");
	check_select("", "TTT");
}
END_TEST

START_TEST(test_eval_special)
{
	check_select("type==any", "TTT");
	check_select("type!=any", "FFF");
	check_select("type==local", "TFT");
	check_select("type!=local", "FTF");
	check_select("model==any", "TTT");
	check_select("model==local", "FFF"); /* nobody reports a model */
}
END_TEST

START_TEST(test_eval_boolean)
{
	check_select("bigmem", "TFF");
	check_select("!bigmem", "FTT");
	check_select("defined(mem)", "TTF");
	check_select("!defined(mem)", "FFT");
	check_select("defined(mem) && mem<1000", "FTF");
	check_select("!(mem>1000) && defined(mem)", "FTF");
	check_select("hname==hostB || ncpus>=8", "TTF");
	check_select("mem>1000 || type==LINUX && ncpus<=4", "TFT");
	check_select("(mem>1000 || type==LINUX) && ncpus<=4", "FFT");
	check_select("nosuch", "FFF");
	check_select("!nosuch", "TTT");
	check_select("ncpus", "TTT");
	check_select("select[bigmem] select[mem>1000]", "TFF");
}
END_TEST

START_TEST(test_eval_arith)
{
	check_select("mem>=maxmem/2", "TTF");
	check_select("(ncpus-2)*2>=4", "TFT");
	check_select("-mem<-1000", "TFF");
	check_select("mem+1>2000", "TFF");
	check_select("mem/ncpus>=250", "TTF");
}
END_TEST

START_TEST(test_eval_errors)
{
	check_eval_error("hname>1", 0,
	    "select[]: cannot compare a number with a string");
	check_eval_error("mem/(ncpus-8)>1", 0, "select[]: division by zero");
	check_eval_error("hname", 1,
	    "select[]: string value \"hostB\" used as a condition");
	check_eval_error("hname+1>0", 0, "select[]: '+' needs numbers, not strings");
	check_eval_error("-hname<0", 0, "select[]: '-' needs numbers, not strings");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("resreq");
	TCase *tc = tcase_create("parse");
	TCase *te = tcase_create("errors");
	TCase *tv = tcase_create("eval");

	tcase_add_test(tc, test_select_forms);
	tcase_add_test(tc, test_select_precedence);
	tcase_add_test(tc, test_select_words);
	tcase_add_test(tc, test_select_repeated);
	tcase_add_test(tc, test_ref_shares_one_parse);
	tcase_add_test(tc, test_sections);
	tcase_add_test(tc, test_accessors);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_lsf10_sections);
	tcase_add_test(tc, test_brace_forms);
	tcase_add_test(te, test_errors_select);
	tcase_add_test(te, test_errors_sections);
	tcase_add_test(te, test_errors_limits);
	tcase_add_test(tv, test_eval_compare);
	tcase_add_test(tv, test_eval_special);
	tcase_add_test(tv, test_eval_boolean);
	tcase_add_test(tv, test_eval_arith);
	tcase_add_test(tv, test_eval_errors);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, te);
	suite_add_tcase(s, tv);
	return bs_run_suite(s);
}
