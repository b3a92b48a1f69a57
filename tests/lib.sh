# Helpers for the integration tests: TAP output, deadlines, and daemons
# started on loopback in a private directory and stopped by PID.
# (Filled in with the working-cluster tests.)
