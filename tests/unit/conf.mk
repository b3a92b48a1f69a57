# check suites for lib/conf
