# tests/fuzz: filled in as the module lands.
