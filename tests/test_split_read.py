"""Reading a large IR on two processes (irshape.ir.split) gives what reading it alone gives.

The files are made small (the split's size floor is lowered), with the places the split must
notice: findings on both sides of the cut, a syntax error after it, a cut that falls inside a
comment or on a nested layer (where the reader must read on alone). The split is the lxml
reader's: the scanner (irshape.ir.scan), which reads these regular files first, is turned off.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from irshape.ir import reader, split
from irshape.ir.reader import read_file

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="the split read needs os.fork"),
    # (Python 3.12 and later warn of the fork made below in a process of several threads)
    pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning"),
]


@pytest.fixture(autouse=True)
def _lxml_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files the scanner declines are read by lxml, on two processes when large."""
    monkeypatch.setattr(reader, "_scanned", lambda path, source: None)


@pytest.fixture(autouse=True)
def _one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are of the split itself: it is made as in a process of one thread. This one
    may run OpenVINO's thread pool, started by another test, where irshape reads alone
    (irshape.forking, tests/test_forking.py)."""
    monkeypatch.setattr(split, "single_threaded", lambda: True)


def _layer(i: int, dims: str = "") -> str:
    return (
        f'\t\t<layer id="{i}" name="r{i}" type="Relu" version="opset1">\n\t\t\t<data a="{i}"/>\n'
        f'\t\t\t<input>\n\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>1</dim>\n'
        f"\t\t\t\t\t<dim>{dims or i}</dim>\n\t\t\t\t</port>\n\t\t\t</input>\n\t\t</layer>\n"
    )


def _net(layers: list[str], edges: int) -> str:
    out = [
        '<?xml version="1.0"?>\n<net name="n" version="11">\n\t<layers>\n',
        *layers,
        "\t</layers>\n\t<edges>\n",
    ]
    out += [
        f'\t\t<edge from-layer="{i}" from-port="1" to-layer="{i + 1}" to-port="0"/>\n' for i in range(edges)
    ]
    out.append("\t</edges>\n</net>\n")
    return "".join(out)


def _read_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object, list[int]]:
    monkeypatch.setattr(split, "SPLIT_MIN_BYTES", 1)
    cuts: list[int] = []
    start = split.start

    def recorded(source: Path) -> split._Child | None:
        child = start(source)
        if child is not None:
            cuts.append(child.cut)
        return child

    monkeypatch.setattr(split, "start", recorded)
    alone, both = read_file(path), read_file(path, processes=2)
    return alone, both, cuts


def _summary(result: object) -> object:
    document = result.document  # type: ignore[attr-defined]
    findings = [(d.code, d.line, d.message) for d in result.diagnostics]  # type: ignore[attr-defined]
    if document is None:
        return None, findings
    return document.layers, document.edges, findings


def test_the_same_model_and_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layers = [_layer(i, dims="x" if i in (5, 2_995) else "") for i in range(3_000)]  # IRS005 on each side
    path = tmp_path / "net.xml"
    path.write_text(_net(layers, 2_999))
    alone, both, cuts = _read_both(path, monkeypatch)
    assert cuts and 0 < cuts[0] < path.stat().st_size
    assert [d.code for d in alone.diagnostics] == ["IRS005", "IRS005"]  # type: ignore[attr-defined]
    assert _summary(both) == _summary(alone)
    lines = path.read_text().split("\n")
    assert [layer.line for layer in both.document.layers] == [  # type: ignore[attr-defined]
        n for n, line in enumerate(lines, 1) if "<layer " in line
    ]


def test_a_syntax_error_after_the_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layers = [_layer(i) for i in range(3_000)]
    layers[2_900] = layers[2_900].replace("</port>", "</prot>")
    path = tmp_path / "net.xml"
    path.write_text(_net(layers, 10))
    alone, both, cuts = _read_both(path, monkeypatch)
    assert cuts
    assert both.document is None  # type: ignore[attr-defined]
    assert _summary(both) == _summary(alone)


@pytest.mark.parametrize("where", ["comment", "nested"])
def test_a_cut_that_is_no_place_to_start(where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first <layer after the middle is in a comment, or inside a layer: read on alone."""
    layers = [_layer(i) for i in range(3_000)]
    text = _net(layers, 2_999)
    middle = int(len(text) * split._CUT_SHARE)
    at = text.index("\t\t<layer ", middle)
    if where == "comment":
        insert = '<!-- <layer id="fake"> -->\n'
    else:  # a body inside the layer before, as a TensorIterator holds one
        at = text.rindex("\t\t</layer>", 0, at)
        insert = '<body><layers><layer id="inner" type="Relu"/></layers></body>\n'
    text = text[:at] + insert + text[at:]
    path = tmp_path / "net.xml"
    path.write_text(text)
    alone, both, cuts = _read_both(path, monkeypatch)
    assert cuts
    assert re.search(rb"<layer", path.read_bytes()[cuts[0] : cuts[0] + 6])
    assert _summary(both) == _summary(alone)
    assert len(both.document.layers) == 3_000  # type: ignore[attr-defined]


def test_the_cli_splits_one_large_file_with_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``irshape check -j 2 one.xml`` reads it on two processes and reports what -j 1 does."""
    from click.testing import CliRunner

    from irshape.cli import main

    layers = [_layer(i, dims="x" if i in (5, 2_995) else "") for i in range(3_000)]
    path = tmp_path / "net.xml"
    path.write_text(_net(layers, 2_999))
    monkeypatch.setattr(split, "SPLIT_MIN_BYTES", 1)
    forks: list[int] = []
    start = split.start
    monkeypatch.setattr(split, "start", lambda source: forks.append(1) or start(source))
    alone = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", str(path)])
    assert forks == []
    both = CliRunner().invoke(main, ["check", "--isolated", "-j", "2", str(path)])
    assert forks == [1]
    assert both.exit_code == alone.exit_code == 1
    assert both.stdout == alone.stdout and alone.stdout.count("IRS005") == 2


def test_rt_info_read_alike_on_both_sides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A layer's and a port's <rt_info> (their <attribute>s, the <user_data> beside them left out)
    come back from the second process as the reader reads them."""
    rt_info = (
        '\t\t\t<rt_info>\n\t\t\t\t<attribute name="fused_names" version="0" value="r{i}"/>\n'
        '\t\t\t\t<user_data name="u" value="1"/>\n\t\t\t</rt_info>\n'
    )
    port_rt_info = '<rt_info><attribute name="layout" version="0" layout="[N,C]"/></rt_info>'
    layers = [
        _layer(i)
        .replace("\t\t\t<input>", rt_info.format(i=i) + "\t\t\t<input>")
        .replace("<dim>1</dim>", port_rt_info + "<dim>1</dim>")
        for i in range(3_000)
    ]
    # the <net>'s own parts after the <edges>, past the cut: read by the second process
    net_parts = (
        '<pre-process reference-layer-name="r0"><channel id="0"><mean value="1"/></channel></pre-process>\n'
        '<meta_data><MO_version value="1"/><cli/></meta_data>\n<rt_info><a value="1"/></rt_info>\n'
    )
    path = tmp_path / "net.xml"
    path.write_text(_net(layers, 2_999).replace("</net>", net_parts + "</net>"))
    alone, both, cuts = _read_both(path, monkeypatch)
    assert cuts
    assert _summary(both) == _summary(alone)
    for part in ("pre_process", "meta_data", "has_rt_info"):
        assert getattr(both.document, part) == getattr(alone.document, part)  # type: ignore[attr-defined]
    assert both.document.pre_process is not None and both.document.has_rt_info  # type: ignore[attr-defined]
    assert [e.tag for e in both.document.meta_data] == ["MO_version", "cli"]  # type: ignore[attr-defined]
    last = both.document.layers[-1]  # type: ignore[attr-defined]
    assert [a.attributes for a in last.rt_info] == [{"name": "fused_names", "version": "0", "value": "r2999"}]
    assert last.rt_info[0].line == last.line + 3
    assert [a.attributes["layout"] for a in last.inputs[0].rt_info] == ["[N,C]"]
