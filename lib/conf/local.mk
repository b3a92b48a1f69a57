# lib/conf: filled in as the module lands.
