"""audio subsystem."""
