"""web subsystem."""
