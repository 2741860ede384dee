"""``irshape check --show-settings``: the settings a run would use, and where they came from."""

from __future__ import annotations

from collections.abc import Sequence

from irshape import rules
from irshape.config import Settings
from irshape.paths import DEFAULT_EXCLUDE, spelled
from irshape.selection import RuleSelection


def describe(settings: Settings, *, paths: Sequence[str], jobs: int) -> str:
    """The effective configuration, one setting a line, as ``ruff check --show-settings``."""
    where = str(settings.config_path) if settings.config_path else "none (defaults and the command line)"
    lines = [f"configuration file: {where}", "selection (from every code, each layer on the one before):"]
    selection = settings.selection
    for layer in selection.layers:
        lines.append(f"  {layer.origin or 'given'}: {_layer(layer)}")
    if not selection.layers:
        lines.append("  (nothing given: every code)")
    for glob, codes in selection.per_file_ignores:
        lines.append(f"  per-file-ignores: {glob.pattern} = [{', '.join(codes)}] (relative to {glob.base})")
    enabled = sorted(code for code in rules.RULES if code in selection.enabled)
    left_out = sorted(code for code in rules.RULES if code not in selection.enabled)
    lines.append(f"  reported: {len(enabled)} of {len(rules.RULES)} codes: {' '.join(enabled) or 'none'}")
    if left_out:
        lines.append(f"  not reported: {' '.join(left_out)}")
    excludes = [f"{glob.pattern} (relative to {glob.base})" for glob in settings.exclude]
    lines += [
        f"format: {settings.format}",
        f"strict: {str(settings.strict).lower()}",
        f"jobs: {jobs}",
        f"exclude: {', '.join(excludes) or 'none'}",
        f"never walked into: {', '.join(DEFAULT_EXCLUDE)}",
        f"missing-weights: {settings.missing_weights}",
        f"baseline: {settings.baseline or 'none'}",
        f"show-source: {str(settings.show_source).lower()}",
        f"paths: {' '.join(spelled(path) for path in paths) or 'none given'}",
    ]
    return "\n".join(lines)


def _layer(layer: RuleSelection) -> str:
    parts = []
    if layer.select is not None:
        parts.append(f"select = [{', '.join(layer.select)}]")
    if layer.extend_select:
        parts.append(f"extend-select = [{', '.join(layer.extend_select)}]")
    if layer.ignore:
        parts.append(f"ignore = [{', '.join(layer.ignore)}]")
    return ", ".join(parts)
