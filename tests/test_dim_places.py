"""A <dim> the reader rejects (IRS005) or reads leniently (IRS010) is reported at its own
element, with its axis, also when several share a line; --show-source expands tabs."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conv_layers import GOOD

import irshape
from irshape.cli import main

LINE = '        <port id="2"><dim>1</dim><dim>8</dim><dim>8</dim><dim>8</dim></port>'


def _with_output_dims(dims: str) -> str:
    assert LINE in GOOD
    return GOOD.replace(LINE, f'        <port id="2">{dims}</port>')


def _places(text: str) -> list[tuple[str, int | None, int | None, str]]:
    return [
        (d.code, d.axis, d.column, d.message.split(" is ")[0]) for d in irshape.check_string(text).diagnostics
    ]


def test_two_faults_on_one_line_are_two_places() -> None:
    places = _places(_with_output_dims("<dim>a</dim><dim></dim><dim>8</dim><dim>8</dim>"))
    # columns of each <dim> element: 22 and 34 on the line above
    assert places == [("IRS005", 0, 22, "<dim> 'a' (axis 0)"), ("IRS005", 1, 34, "<dim> '' (axis 1)")]


def test_identical_faults_each_get_their_own_element() -> None:
    places = _places(_with_output_dims("<dim>1</dim><dim></dim><dim>8</dim><dim></dim>"))
    assert places == [("IRS005", 1, 34, "<dim> '' (axis 1)"), ("IRS005", 3, 57, "<dim> '' (axis 3)")]


def test_a_dim_alone_on_its_line_is_placed_by_its_port() -> None:
    dims = "\n            <dim>1</dim>\n            <dim>+8</dim>\n            <dim>8</dim>\n            <dim>8</dim>\n"
    text = _with_output_dims(dims)
    (finding,) = [d for d in irshape.check_string(text).diagnostics if d.code == "IRS010"]
    assert (finding.line, finding.axis, finding.column) == (10, 1, 13)
    assert "<dim> '+8' (axis 1)" in finding.message


def test_show_source_expands_tabs(tmp_path: Path) -> None:
    xml = tmp_path / "tabs.xml"
    xml.write_text(
        _with_output_dims("<dim>a</dim><dim>8</dim><dim>8</dim><dim>8</dim>").replace(
            '        <port id="2">', '\t<port id="2">'
        )
    )
    shown = CliRunner().invoke(main, ["check", "--isolated", "--show-source", str(xml)]).output.splitlines()
    source = next(line for line in shown if line.startswith("8 | "))
    assert source == '8 |         <port id="2"><dim>a</dim><dim>8</dim><dim>8</dim><dim>8</dim></port>'
    caret = shown[shown.index(source) + 1]
    assert caret.index("^") == source.index("<dim>a")
