"""ingest subsystem."""
