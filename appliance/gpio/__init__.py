"""gpio subsystem."""
