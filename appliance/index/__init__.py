"""index subsystem."""
