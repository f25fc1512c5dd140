"""Admin registrations for the clubs app (none yet)."""
