"""One person, one identity: two player rows of the same person made one (a merge an organizer
can undo), and the players of other peñas who are probably the same person. ``references``
finds what points at a player through Django's model meta and holds what the floors above
registered; ``selectors`` the reads (suggestions, the merges); ``services`` the writes."""
