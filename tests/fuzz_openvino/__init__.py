"""Differential fuzzing against OpenVINO's read_model (issue 15): edited IRs, two verdicts."""
