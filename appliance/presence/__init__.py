"""presence subsystem."""
