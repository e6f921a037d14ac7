"""vision subsystem."""
