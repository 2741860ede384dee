"""Bodies nested deeper than irshape's parser reads (issue 24 item 5), against OpenVINO's
reader: it builds each body on its thread's stack and crashes (SIGSEGV) past the depth the
stack holds; irshape says which of the two a file is (irshape/ir/depth.py)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

import irshape
from irshape.ir import depth
from tests.differential.test_control_flow import nested_ifs

STACK = 256 * 1024  # a small stack, so that OpenVINO gives out after a second's reading


def _deep(tmp_path: Path, levels: int) -> Path:
    xml = tmp_path / f"deep{levels}.xml"
    xml.write_text(nested_ifs(levels))
    xml.with_suffix(".bin").write_bytes(b"\x01")
    return xml


def _read_with_stack(xml: Path, stack: int) -> int:
    """read_model's exit status in a process whose stack is ``stack`` bytes (-11: SIGSEGV)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (stack, resource.getrlimit(resource.RLIMIT_STACK)[1]))

    code = f"import openvino as ov; ov.Core().read_model({str(xml)!r})"
    return subprocess.run(
        [sys.executable, "-c", code], preexec_fn=limit, capture_output=True, timeout=300
    ).returncode


def test_openvino_reads_as_deep_as_its_stack_holds(tmp_path: Path) -> None:
    """With a 256 KiB stack OpenVINO reads about 80 nested Ifs and crashes on more, as
    depth.openvino_nesting_limit says (measured with 512 KiB too: 166, 167). The exact level
    moves by one or two from run to run (the environment and paths on the stack, its start), so
    the test keeps 4 levels (12 KiB) either side."""
    limit = depth.openvino_nesting_limit(STACK)
    assert limit == 80
    assert _read_with_stack(_deep(tmp_path, limit - 4), STACK) == 0
    assert _read_with_stack(_deep(tmp_path, limit + 4), STACK) == -11


@pytest.mark.parametrize(
    ("stack", "severity"), [(8192 * 1024, "warning"), (None, "warning"), (STACK, "error")]
)
def test_past_the_parsers_depth_openvino_reads_or_crashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stack: int | None, severity: str
) -> None:
    """681 nested Ifs are past libxml2's 2048 levels: irshape does not check the file. OpenVINO
    reads it with the usual 8 MiB stack (a warning) and crashes with 256 KiB (an error)."""
    monkeypatch.setattr(depth, "stack_bytes", lambda: stack)
    (finding,) = irshape.check_file(_deep(tmp_path, 681)).diagnostics
    assert (finding.code, finding.severity.value) == ("IRS001", severity)
    assert "nests bodies 681 deep" in finding.message
    assert ("crashes past about 80 levels" in finding.message) is (severity == "error")


def test_the_nesting_is_counted_by_body_tags() -> None:
    assert depth.body_nesting(nested_ifs(5).encode()) == 5
    assert (
        depth.body_nesting(b"<net><layers><layer><body/><then_body><else_body></else_body></then_body>") == 2
    )


@pytest.mark.parametrize(("levels", "crashes"), [(70, False), (90, True)])
def test_within_the_parsers_depth_a_small_stack_is_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, levels: int, crashes: bool
) -> None:
    """With a 256 KiB stack OpenVINO crashes on 90 nested Ifs, which irshape reads: IRS215 on
    the outermost If; 70 read in both."""
    xml = _deep(tmp_path, levels)
    assert (_read_with_stack(xml, STACK) == -11) is crashes
    monkeypatch.setattr(depth, "stack_bytes", lambda: STACK)
    report = irshape.check_file(xml)
    found = [(d.code, d.layer_id) for d in report.diagnostics]
    assert found == ([("IRS215", "2")] if crashes else []), [d.message for d in report.diagnostics]
    if crashes:
        assert "bodies nest 90 deep" in report.diagnostics[0].message
