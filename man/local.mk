# man: filled in as the module lands.
