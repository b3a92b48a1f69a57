# tests/integration: filled in as the module lands.
