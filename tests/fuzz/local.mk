# libFuzzer targets, built with $(FUZZ_CC) only by `make fuzz`, never by
# `make` or `make check` (so a gcc-only machine builds and distchecks fine).
#
#   make fuzz                      build every target into tests/fuzz/
#   make fuzz-run FUZZ_SECONDS=60  run each for that long on its seed corpus
#
# To add a target NAME: append fuzz-NAME to FUZZ_TARGETS, add its sources to
# EXTRA_DIST, give it a two-line link rule like fuzz-frame's below (its own
# sources plus the library sources it exercises, so the sanitizers see them
# all), and put a few seeds in tests/fuzz/corpus-NAME/.
FUZZ_TARGETS = fuzz-frame fuzz-conf fuzz-resreq fuzz-depend
FUZZ_SECONDS = 30
FUZZ_MAX_LEN = 4096
# A fixed seed makes a CI run reproducible (a finding can be replayed);
# FUZZ_SEED=0 lets libFuzzer pick one, for longer hunts by hand.
FUZZ_SEED = 1
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LINK = $(FUZZ_CC) $(FUZZ_FLAGS) -std=c11 -D_GNU_SOURCE \
	$(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(GLIB_CFLAGS) \
	$(PROTOBUF_C_CFLAGS) -o $@
FUZZ_LIBS = $(GLIB_LIBS) $(PROTOBUF_C_LIBS)

EXTRA_DIST += %reldir%/fuzz-frame.c %reldir%/corpus-frame \
	%reldir%/fuzz-conf.c %reldir%/corpus-conf \
	%reldir%/fuzz-resreq.c %reldir%/corpus-resreq \
	%reldir%/fuzz-depend.c %reldir%/corpus-depend
CLEANFILES += $(FUZZ_TARGETS:%=%reldir%/%)

if HAVE_FUZZ_CC
FUZZ_FRAME_SRC = $(srcdir)/%reldir%/fuzz-frame.c $(srcdir)/lib/rpc/frame.c \
	$(srcdir)/lib/util/error.c proto/rpc.pb-c.c
%reldir%/fuzz-frame: $(FUZZ_FRAME_SRC) $(srcdir)/lib/rpc/frame.h
	@$(MKDIR_P) %reldir%
	$(AM_V_GEN)$(FUZZ_LINK) $(FUZZ_FRAME_SRC) $(FUZZ_LIBS)

FUZZ_CONF_SRC = $(srcdir)/%reldir%/fuzz-conf.c \
	$(filter %.c,$(lib_conf_libbsconf_a_SOURCES:%=$(srcdir)/%)) \
	$(srcdir)/lib/util/error.c $(srcdir)/lib/util/log.c \
	$(srcdir)/lib/util/escape.c $(srcdir)/lib/util/memunit.c \
	$(srcdir)/lib/util/warning.c
%reldir%/fuzz-conf: $(FUZZ_CONF_SRC)
	@$(MKDIR_P) %reldir%
	$(AM_V_GEN)$(FUZZ_LINK) $(FUZZ_CONF_SRC) $(FUZZ_LIBS)

FUZZ_RESREQ_SRC = $(srcdir)/%reldir%/fuzz-resreq.c \
	$(filter %.c,$(lib_resreq_libbsresreq_a_SOURCES:%=$(srcdir)/%)) \
	$(srcdir)/lib/util/error.c $(srcdir)/lib/util/memunit.c
%reldir%/fuzz-resreq: $(FUZZ_RESREQ_SRC)
	@$(MKDIR_P) %reldir%
	$(AM_V_GEN)$(FUZZ_LINK) $(FUZZ_RESREQ_SRC) $(FUZZ_LIBS)

FUZZ_DEPEND_SRC = $(srcdir)/%reldir%/fuzz-depend.c \
	$(srcdir)/lib/job/depend.c $(srcdir)/lib/job/array.c $(srcdir)/lib/util/error.c
%reldir%/fuzz-depend: $(FUZZ_DEPEND_SRC)
	@$(MKDIR_P) %reldir%
	$(AM_V_GEN)$(FUZZ_LINK) $(FUZZ_DEPEND_SRC) $(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS:%=%reldir%/%)

# New inputs go to a scratch corpus in the build tree; the seeds in the
# source tree are only read.
fuzz-run: fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t#fuzz-}; \
		$(MKDIR_P) %reldir%/work-$$name; \
		echo "  RUN      $$t for $(FUZZ_SECONDS)s"; \
		ASAN_OPTIONS=detect_leaks=1 %reldir%/$$t \
			-max_total_time=$(FUZZ_SECONDS) \
			-max_len=$(FUZZ_MAX_LEN) -seed=$(FUZZ_SEED) -print_final_stats=1 \
			%reldir%/work-$$name $(srcdir)/%reldir%/corpus-$$name; \
	done
else
fuzz fuzz-run:
	@echo "fuzz targets need clang: configure with FUZZ_CC=clang" >&2; exit 1
endif
.PHONY: fuzz fuzz-run
