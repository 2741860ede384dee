"""Checks: one layer against its schema and shape arithmetic, and a whole document."""
