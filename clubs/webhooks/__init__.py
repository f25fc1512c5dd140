"""Webhooks of a peña: an organizer's URL that hears of its events, signed deliveries and their
log. ``signing`` is the pure signature (no Django), ``selectors`` the reads, ``services`` the
writes and the delivery itself."""
