# check suites for lib/rpc
