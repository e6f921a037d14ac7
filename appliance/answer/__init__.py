"""answer subsystem."""
