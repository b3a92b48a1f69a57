# sbatchd: filled in as the module lands.
