"""Hostile input: every file gives findings, in bounded time and memory, and leaks nothing.

Each fixture of ``fixtures/hostile/`` (see its README) is checked through the command line in
a subprocess, with a timeout as a safety net (the time is never asserted), and must give its
finding with a line, exit 1, no traceback, and none of the content of the files or servers it
points at. Large inputs are generated here rather than committed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import irshape
from irshape.cli import main
from irshape.ir.reader import read_bytes, read_file

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "fixtures" / "hostile"
TIMEOUT = 120  # seconds: a safety net against a hang, not a measure of speed
SECRET = "irshape-secret-7f3c1a"


def run_check(path: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    """``irshape check --format json PATH`` in a subprocess: exit code, report, all output."""
    proc = subprocess.run(
        [sys.executable, "-m", "irshape", "check", "--isolated", "--format", "json", *args, str(path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=path.parent,
        check=False,
    )
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output[-3000:]
    return proc.returncode, json.loads(proc.stdout), output


def findings(report: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(d["code"], d["line"]) for f in report["files"] for d in f["diagnostics"]]


EXPECTED = {
    # file: (a code it must give, its line or None)
    "billion_laughs.xml": ("IRS004", 2),
    "external_entity_file.xml": ("IRS004", 2),
    "external_parameter_entity.xml": ("IRS004", 2),
    "external_dtd_http.xml": ("IRS004", 2),
    "external_entity_http.xml": ("IRS004", 2),
    "deep_nesting.xml": ("IRS001", 4),
    "binary_garbage.xml": ("IRS001", 1),
    "null_byte.xml": ("IRS001", 8),
    "empty.xml": ("IRS001", 1),
    "truncated_ir.xml": ("IRS001", 51),
    "malformed_values.xml": ("IRS005", 5),
    "prolog_many_pis.xml": ("IRS001", 3),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_fixture_gives_its_finding(name: str) -> None:
    code, line = EXPECTED[name]
    rc, report, output = run_check(HOSTILE / name)
    assert rc == 1, output[-3000:]
    assert (code, line) in findings(report), findings(report)
    assert "IRS901" not in {c for c, _ in findings(report)}
    assert "root:" not in output  # nothing of /etc/passwd
    assert len(output) < 100_000  # the entities were not expanded into the output


@pytest.mark.parametrize("name", ["utf16_ir.xml", "utf16_fragment.xml", "xinclude.xml"])
def test_clean_hostile_looking_fixture(name: str) -> None:
    rc, report, output = run_check(HOSTILE / name)
    assert rc == 0, output[-3000:]
    assert findings(report) == []
    assert "root:" not in output


def test_every_hostile_fixture_is_tested() -> None:
    named = set(EXPECTED) | {"utf16_ir.xml", "utf16_fragment.xml", "xinclude.xml"}
    assert {p.name for p in HOSTILE.glob("*.xml")} == named


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.xml")), ids=lambda p: p.name)
def test_string_and_file_agree(path: Path) -> None:
    """check_string reads the same bytes the same way as check_file (no .bin aside)."""
    by_string = irshape.check_string(path.read_bytes(), path=str(path))
    by_file = irshape.check_file(path)
    codes = {d.code for d in by_file.diagnostics}
    assert "IRS901" not in codes
    if "IRS009" not in codes:  # the .bin is the only difference
        assert [(d.code, d.line) for d in by_string.diagnostics if d.code != "IRS009"] == [
            (d.code, d.line) for d in by_file.diagnostics
        ]


# -- what the files point at never reaches the output ----------------------------------------


def test_local_files_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    dtd = tmp_path / "secret.dtd"
    dtd.write_text(f'<!ENTITY leak "{SECRET}">')
    uri = secret.as_uri()
    layer = '<layer id="1" name="n" type="Relu" version="opset1"><output><port id="0">'
    cases = {
        "entity_in_text.xml": f'<!DOCTYPE layer [<!ENTITY s SYSTEM "{uri}">]>\n{layer}<dim>&s;</dim></port></output></layer>',
        "entity_in_attribute.xml": f'<!DOCTYPE layer [<!ENTITY s SYSTEM "{uri}">]>\n<layer id="&s;"/>',
        "parameter_entity.xml": f'<!DOCTYPE layer [<!ENTITY % s SYSTEM "{dtd.as_uri()}"> %s;]>\n{layer}<dim>&leak;</dim></port></output></layer>',
        "external_dtd.xml": f'<!DOCTYPE layer SYSTEM "{dtd.as_uri()}">\n{layer}<dim>&leak;</dim></port></output></layer>',
        "relative_dtd.xml": f'<!DOCTYPE layer SYSTEM "secret.dtd">\n{layer}<dim>&leak;</dim></port></output></layer>',
        "xinclude.xml": f'<layer xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="{uri}" parse="text"/></layer>',
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        rc, report, output = run_check(path)
        assert SECRET not in output, name
        assert rc in (0, 1), (name, output)
        if "DOCTYPE" in text:
            assert ("IRS004", 1) in findings(report), (name, findings(report))
        # The library and the reader see nothing either.
        assert SECRET not in repr(read_file(path))
        assert SECRET not in repr(irshape.check_file(path))


def test_the_network_is_never_contacted(tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(5)
        server.setblocking(False)
        url = f"http://127.0.0.1:{server.getsockname()[1]}"
        layer = '<layer id="1" name="n" type="Relu" version="opset1"><output><port id="0">'
        cases = [
            f'<!DOCTYPE layer SYSTEM "{url}/ir.dtd">\n{layer}<dim>&x;</dim></port></output></layer>',
            f'<!DOCTYPE layer [<!ENTITY x SYSTEM "{url}/x">]>\n{layer}<dim>&x;</dim></port></output></layer>',
            f'<!DOCTYPE layer [<!ENTITY % x SYSTEM "{url}/x.dtd"> %x;]>\n{layer}<dim>1</dim></port></output></layer>',
            f'<layer xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="{url}/x"/></layer>',
        ]
        for index, text in enumerate(cases):
            path = tmp_path / f"network_{index}.xml"
            path.write_text(text)
            run_check(path)
            irshape.check_file(path)
        with pytest.raises(BlockingIOError):
            server.accept()  # nobody connected


# -- large inputs, generated --------------------------------------------------------------------


def test_text_node_over_the_parser_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge_text.xml"
    with path.open("w") as f:
        f.write(
            '<?xml version="1.0"?>\n<layer id="1" name="n" type="Relu" version="opset1">\n<output><port id="0"><dim>'
        )
        f.write("7" * 11_000_000)  # libxml2 refuses text nodes over 10 MB without huge_tree
        f.write("</dim></port></output></layer>\n")
    rc, report, output = run_check(path)
    assert rc == 1
    assert ("IRS001", 3) in findings(report)
    assert len(output) < 10_000


def test_large_text_under_the_limit_is_quoted_briefly(tmp_path: Path) -> None:
    path = tmp_path / "large_text.xml"
    path.write_text(
        '<layer id="1" name="n" type="Relu" version="opset1"><output><port id="0">'
        f"<dim>{'x' * 5_000_000}</dim></port></output></layer>\n"
    )
    rc, report, output = run_check(path)
    assert rc == 1
    assert ("IRS005", 1) in findings(report)
    assert len(output) < 10_000


def test_many_junk_elements(tmp_path: Path) -> None:
    """300,000 elements irshape does not read, at the root, in a layer and in a port."""
    junk = "<j/>" * 100_000
    path = tmp_path / "junk.xml"
    path.write_text(
        f'<net name="n" version="11">{junk}<layers><layer id="0" name="p" type="Parameter" version="opset1">'
        f'{junk}<data shape="1" element_type="f32"/><output><port id="0" precision="FP32">{junk}<dim>1</dim>'
        "</port></output></layer></layers></net>\n"
    )
    document = read_file(path).document
    assert document is not None
    assert document.layers[0].outputs[0].dims == (1,)
    assert document.layers[0].data == {"shape": "1", "element_type": "f32"}


def test_many_attributes(tmp_path: Path) -> None:
    """400,000 attributes on a <data>: lxml's items() would take quadratic time (minutes)."""
    path = tmp_path / "attributes.xml"
    attributes = " ".join(f'a{i}="{i}"' for i in range(400_000))
    path.write_text(
        f'<layer id="0" name="c" type="Convolution" version="opset1"><data {attributes}/></layer>\n'
    )
    rc, report, _ = run_check(path, "--select", "IRS101")  # not 400,000 IRS102 findings
    assert rc == 0
    assert ("IRS101", 1) in findings(report)


def _peak_rss_mib(program: str, *args: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", program, *args], capture_output=True, text=True, timeout=TIMEOUT, check=True
    ).stdout
    return int(out.split()[-1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_junk_is_not_kept_in_memory(tmp_path: Path) -> None:
    """Reading 2 million junk elements (8 MB) holds at most a chunk of them at a time."""
    path = tmp_path / "junk.xml"
    with path.open("w") as f:
        f.write('<net name="n" version="11"><layers><layer id="0" name="r" type="Relu" version="opset1">')
        f.write("<j/>" * 2_000_000)
        f.write("</layer></layers></net>\n")
    program = (
        "import sys\nfrom irshape.ir.reader import read_file\nread_file(sys.argv[1])\n"
        "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])"
    )
    baseline = _peak_rss_mib(program, str(HOSTILE / "empty.xml"))
    # The whole tree would take hundreds of MiB; streaming stays within a few of the baseline.
    assert _peak_rss_mib(program, str(path)) - baseline < 50


def _big_ir(layers: int, compact: bool, *, fragment: bool = False, fakes: bool = False) -> str:
    """An IR of more than 65535 lines (libxml2's limit for an element's line).

    With ``fakes``, comments, CDATA and processing instructions between the layers hold
    ``<layer`` and ``<edge`` (followed by a tab, so the test's own search below skips them),
    where the reader must not cut the file to restart its parser.
    """
    sep = "" if compact else "\n\t\t"
    fake = "<!-- <layer\tid='x'>\n<edge\t/> -->" + "<![CDATA[\n<layer\t]]>" + "<?pi <layer\t?>\n"
    out = ['<?xml version="1.0"?>'] + ([] if fragment else ['<net name="big" version="11">', "<layers>"])
    for i in range(layers):
        out.append(
            f'<layer id="{i}" name="r{i}" type="Relu" version="opset1">{sep}<data a="{i}"/>{sep}'
            f'<input>{sep}<port id="0" precision="FP32">{sep}<dim>1</dim>{sep}<dim>{i}</dim>{sep}</port>{sep}'
            f"</input>{sep}</layer>" + (fake if fakes and not fragment else "")
        )
    if not fragment:
        out.append("</layers>")
        out.append("<edges>")
        out.extend(
            f'<edge from-layer="{i}" from-port="1" to-layer="{i + 1}" to-port="0"/>' + (fake if fakes else "")
            for i in range(layers - 1)
        )
        out.append("</edges>")
        out.append("</net>")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("compact", "fragment", "fakes", "line_end"),
    [
        (False, False, False, "\n"),
        (True, False, False, "\n"),
        (False, False, False, "\r\n"),
        (False, True, False, "\n"),
        (False, False, True, "\n"),
    ],
    ids=["pretty", "compact", "crlf", "fragment", "markup"],
)
def test_lines_past_65535_are_exact(compact: bool, fragment: bool, fakes: bool, line_end: str) -> None:
    text = _big_ir(12_000 if not compact else 34_000, compact, fragment=fragment, fakes=fakes)
    lines = text.split("\n")
    assert len(lines) > 66_000
    where: dict[str, list[int]] = {"layer": [], "data": [], "port": [], "dim": [], "edge": []}
    for number, line in enumerate(lines, 1):
        for match in re.finditer(r"<(layer|data|port|dim|edge)[ >/]", line):
            where[match.group(1)].append(number)
    result = read_bytes(text.replace("\n", line_end).encode(), "big.xml")
    document = result.document
    assert document is not None and not result.diagnostics
    assert [layer.line for layer in document.layers] == where["layer"]
    assert [layer.data_line for layer in document.layers] == where["data"]
    ports = [port for layer in document.layers for port in layer.inputs]
    assert [port.line for port in ports] == where["port"]
    assert [line for port in ports for line in port.dim_lines] == where["dim"]
    if not compact:  # one <dim> a line: kept as a range, after a restart too
        assert all(isinstance(port.dim_lines, range) for port in ports)
    assert [port.dims for port in ports] == [(1, i) for i in range(len(ports))]
    assert [edge.line for edge in document.edges] == where["edge"]


def test_a_syntax_error_past_65535_lines_has_its_line() -> None:
    text = _big_ir(12_000, compact=False)
    lines = text.split("\n")
    broken = len(lines) - 5_000
    lines[broken - 1] = lines[broken - 1].replace("/>", ">", 1)  # an <edge> left open
    result = read_bytes("\n".join(lines).encode(), "big.xml")
    assert result.document is None
    (finding,) = result.diagnostics
    assert finding.code == "IRS001"
    assert finding.line is not None and finding.line >= broken
    assert "line 1 " not in finding.message


# -- encodings --------------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "latin-1"])
@pytest.mark.parametrize("declared", [True, False])
def test_encodings_read_as_utf8(codec: str, declared: bool) -> None:
    """Whole nets and multi-layer fragments, with and without a BOM or a declaration."""
    for source in (HOSTILE / "utf16_fragment.xml", ROOT / "fixtures/ir/conv_relu_deconv.xml"):
        text = source.read_bytes().decode("utf-16" if "utf16" in source.name else "utf-8")
        text = re.sub(r"<\?xml[^>]*\?>\n?", "", text)
        name = {"utf-8-sig": "UTF-8", "latin-1": "ISO-8859-1"}.get(codec, "UTF-16")
        head = f'<?xml version="1.0" encoding="{name}"?>\n' if declared else "\n"
        if codec in ("utf-16-le", "utf-16-be") and not declared:
            continue  # UTF-16 without a BOM needs a declaration to be XML
        expected = irshape.check_string(("\n" + text).encode("utf-8"))  # the same lines
        got = irshape.check_string((head + text).encode(codec))
        assert [(d.code, d.line) for d in got.diagnostics] == [(d.code, d.line) for d in expected.diagnostics]
        assert [(r.layer_id, r.line) for r in got.layers] == [(r.layer_id, r.line) for r in expected.layers]
        assert got.layers


# -- irshape's own failures ---------------------------------------------------------------------


def test_an_internal_error_is_a_finding_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("irshape.api.check_document", broken)
    xml = str(ROOT / "fixtures/ir/conv_relu_deconv.xml")
    result = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", xml])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if "IRS901" in line]
    assert len(lines) == 1 and "RuntimeError: boom" in lines[0] and "report" in lines[0]
    assert "Traceback" not in result.output
    debug = CliRunner().invoke(main, ["check", "--isolated", "-j", "1", "--debug", xml])
    assert debug.exit_code == 2
    assert "Traceback" in debug.output


def test_an_internal_error_in_one_layer_is_its_finding_and_the_walk_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from irshape.check import sources

    clean = irshape.check_file(ROOT / "fixtures/ir/conv_relu_deconv.xml")

    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(sources, "parameter_tensor", broken)  # the first layer's visit fails
    report = irshape.check_file(ROOT / "fixtures/ir/conv_relu_deconv.xml")
    (internal,) = [d for d in report.diagnostics if d.code == "IRS901"]
    assert internal.layer_id == "0" and "RuntimeError: boom" in internal.message
    # The layers after it are still checked.
    assert report.layers_checked == clean.layers_checked > 0


def test_unreadable_paths_are_findings(tmp_path: Path) -> None:
    assert read_file(tmp_path).diagnostics[0].code == "IRS012"  # a directory
    assert read_file(tmp_path / "missing.xml").diagnostics[0].code == "IRS012"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        locked = tmp_path / "locked.xml"
        shutil.copy(HOSTILE / "xinclude.xml", locked)
        locked.chmod(0)
        assert read_file(locked).diagnostics[0].code == "IRS012"


@pytest.mark.parametrize(
    ("dim", "dims"),
    [
        ("<dim> </dim>", None),  # blank: not an integer (IRS005)
        ("<dim>\n</dim>", None),
        ("<dim></dim>", None),
        ("<dim> 5 </dim>", (5,)),
        ("<dim> <!-- a comment -->5</dim>", (5,)),
        ("<dim>5<!-- a comment --> </dim>", (5,)),
        ("<dim>\n\t<!-- a comment -->\n\t5\n</dim>", (5,)),
    ],
)
def test_blank_and_commented_dim_texts_read_as_written(dim: str, dims: tuple[int, ...] | None) -> None:
    """The parser drops the whitespace between elements, never a dim's own text: a blank dim
    is still one OpenVINO rejects, and the blanks around a comment are still the dim's."""
    text = (
        '<net name="n" version="11"><layers>\n<layer id="0" name="p" type="Parameter" version="opset1">'
        f'<data shape="1" element_type="f32"/><output><port id="0" precision="FP32">\n{dim}\n'
        "</port></output></layer>\n</layers><edges/></net>"
    )
    result = read_bytes(text.encode(), "blank.xml")
    assert result.document is not None
    (port,) = result.document.layers[0].outputs
    assert port.dims == dims
    assert [d.code for d in result.diagnostics] == ([] if dims else ["IRS005"])
    assert port.dim_lines == range(3, 4)  # the line after the <port>
