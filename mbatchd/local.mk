# mbatchd: filled in as the module lands.
