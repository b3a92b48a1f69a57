# cmd: filled in as the module lands.
