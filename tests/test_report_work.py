"""What the report does not compute: nothing is located for a finding that is not shown.

Issue 26: the columns of findings are found from the text of their lines, after the check, so a
clean file (or one whose findings are all filtered out) must cost no reading of its text and no
column search. Counted by calls, never by time. Also: the lines the column search reads are those
of the file's text split at its line breaks (as an editor numbers them), and a report that drops
its layers keeps their counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conv_layers import BAD, GOOD, WARN
from hypothesis import given
from hypothesis import strategies as st

from irshape import columns
from irshape.cli import inputs, main
from irshape.results import FileReport, LayerResult


class _Calls:
    def __init__(self) -> None:
        self.count: dict[str, int] = {"read": 0, "source_lines": 0, "column_of": 0}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Calls]:
    """Counts the rereading of a file's text, the lines split out of it and the columns searched."""
    counted = _Calls()

    def counting(name: str, function):  # type: ignore[no-untyped-def]
        def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
            counted.count[name] += 1
            return function(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(inputs.Inputs, "read", counting("read", inputs.Inputs.read))
    monkeypatch.setattr(columns, "source_lines", counting("source_lines", columns.source_lines))
    monkeypatch.setattr(columns, "column_of", counting("column_of", columns.column_of))
    yield counted


def _check(tmp_path: Path, text: str, *options: str) -> str:
    model = tmp_path / "model.xml"
    model.write_text(text)
    result = CliRunner().invoke(main, ["check", "--isolated", *options, str(model)])
    assert result.exit_code in (0, 1), result.output
    return result.output


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "junit"])
def test_a_clean_file_is_never_reread_nor_located(calls: _Calls, tmp_path: Path, output_format: str) -> None:
    _check(tmp_path, GOOD, "--format", output_format, "-v")
    assert calls.count == {"read": 0, "source_lines": 0, "column_of": 0}


def test_findings_filtered_out_are_never_located(calls: _Calls, tmp_path: Path) -> None:
    output = _check(tmp_path, WARN, "--ignore", "IRS101")
    assert "IRS101" not in output
    assert calls.count == {"read": 0, "source_lines": 0, "column_of": 0}


def test_a_shown_finding_is_located_once(calls: _Calls, tmp_path: Path) -> None:
    # The control: the counters do count. WARN has one finding (IRS101, strides missing) on its
    # line 2, "    <data pads_begin=...": no attribute the message names is on it, so its column is
    # that of the element, 5.
    output = _check(tmp_path, WARN)
    assert ":2:5: IRS101" in output
    assert calls.count == {"read": 1, "source_lines": 1, "column_of": 1}


def test_each_finding_of_several_is_located_once(calls: _Calls, tmp_path: Path) -> None:
    output = _check(tmp_path, BAD)
    shown = output.count(" IRS301 ")
    assert shown >= 1
    assert calls.count["read"] == 1
    assert calls.count["source_lines"] == 1
    assert calls.count["column_of"] <= shown  # a finding placed by the check is not searched again


def _lines_of_text(data: bytes, wanted: set[int]) -> dict[int, str]:
    """The lines as an editor numbers them: the whole text decoded (a UTF-16 file by its byte
    order mark, else UTF-8 without its mark, bad bytes replaced), split at each newline."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    else:
        text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    return {number: lines[number - 1] for number in wanted if 0 < number <= len(lines)}


_PIECES = st.sampled_from(
    [
        b"a",
        b"<dim>",
        b"\n",
        b"\r\n",
        b"\r",
        b"\xef\xbb\xbf",
        b"\xe2\x82",
        b"\xac",
        b"\xff",
        b"\xc3\xa9",
        b"\x00",
        b" ",
    ]
)


@given(
    head=st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]),
    body=st.lists(_PIECES, max_size=30).map(b"".join),
    wanted=st.sets(st.integers(min_value=-1, max_value=12), max_size=6),
)
def test_source_lines_are_the_lines_of_the_text(head: bytes, body: bytes, wanted: set[int]) -> None:
    data = head + body
    assert columns.source_lines(data, wanted) == _lines_of_text(data, wanted)


def test_dropped_layers_keep_their_counts() -> None:
    layers = [LayerResult(str(i), f"l{i}", "Relu", "opset1", i, checked=i % 3 == 0) for i in range(10)]
    report = FileReport("m.xml", layers=layers)
    report.drop_layers()
    assert (report.layers, report.layers_checked, report.layers_not_checked) == ([], 4, 6)
