# lib/rpc: filled in as the module lands.
