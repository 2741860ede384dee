"""The reporter interface and the summary every format shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from irshape.results import FileReport


class Reporter:
    """Renders check results as one string; the CLI decides where it goes."""

    def render_check(self, reports: Sequence[FileReport]) -> str:
        raise NotImplementedError

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        raise NotImplementedError


def summary(reports: Sequence[FileReport]) -> dict[str, Any]:
    severities = Counter(d.severity.value for r in reports for d in r.diagnostics)
    return {
        "files": len(reports),
        "files_with_errors": sum(1 for r in reports if r.errors),
        "errors": severities["error"],
        "warnings": severities["warning"],
        "infos": severities["info"],
        "layers_checked": sum(r.layers_checked for r in reports),
        "layers_not_checked": sum(r.layers_not_checked for r in reports),
    }
