"""Management commands of the tournaments app (the demo)."""
