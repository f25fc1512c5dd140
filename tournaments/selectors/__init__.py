"""Reads of the tournaments app, one module per area (mirrors tournaments/services/)."""
