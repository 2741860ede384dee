"""Differential tests: irshape against the real OpenVINO (issue 2, "How it must be tested")."""
