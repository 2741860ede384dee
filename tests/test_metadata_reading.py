"""The reader's part of <rt_info>, <pre-process> and <meta_data> (irshape/ir/parse.py): what it
keeps across its 64 KiB chunks (an open layer's <rt_info> whole; each child of the net's
<pre-process> and <meta_data>, not what is inside them), and that the memory of a file stays
that of what irshape keeps, however much XML those parts hold."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from irshape.ir.reader import read_file

PARAMETER = (
    '<layer id="0" name="p" type="Parameter" version="opset1"><data shape="1,2" element_type="f32"/>'
    '<output><port id="0" precision="FP32"><dim>1</dim><dim>2</dim></port></output></layer>'
)


def _attributes(count: int) -> str:
    return "".join(f'<attribute name="k{i}" version="0" value="{i}"/>\n' for i in range(count))


def test_rt_info_longer_than_a_chunk_is_read_whole(tmp_path: Path) -> None:
    """5,000 <attribute>s (~250 KiB) in a layer's and in two ports' <rt_info>, before and after
    the dims: every one read, at its line."""
    many = _attributes(5_000)
    layer = (
        f'<layer id="0" name="p" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>'
        f'<rt_info>\n{many}</rt_info>\n<output><port id="0" precision="FP32"><dim>1</dim><rt_info>\n{many}'
        f'</rt_info></port><port id="1" precision="FP32"><rt_info>\n{many}</rt_info><dim>1</dim></port>'
        "</output></layer>"
    )
    xml = tmp_path / "rt.xml"
    xml.write_text(
        f'<?xml version="1.0"?>\n<net name="n" version="11"><layers>{layer}</layers><edges/></net>\n'
    )
    (read,) = read_file(xml).document.layers  # type: ignore[union-attr]
    assert [len(read.rt_info)] + [len(port.rt_info) for port in read.outputs] == [5_000] * 3
    assert read.rt_info[-1].attributes == {"name": "k4999", "version": "0", "value": "4999"}
    text = xml.read_text()
    assert read.rt_info[-1].line == text.count("\n", 0, text.index('"k4999"')) + 1
    second_port = text.index('<port id="1"')
    assert read.outputs[1].rt_info[0].line == text.count("\n", 0, text.index('"k0"', second_port)) + 1
    assert read.outputs[1].dims == (1,)


def test_rt_info_beside_much_else_is_read_in_flat_memory(tmp_path: Path) -> None:
    """A layer's <rt_info> of 500,000 <user_data> and their children, around two <attribute>s:
    the two read, in the memory of a small file (the <user_data> are unlinked as they end)."""
    junk = '<user_data name="u"><user_data name="v" value="1"/></user_data>' * 250_000
    peaks = []
    for size in (0, 1):
        layer = PARAMETER.replace(
            "<output>",
            f'<rt_info>{junk * size}<attribute name="a" version="0"/>{junk * size}'
            '<attribute name="b" version="0"/></rt_info><output>',
        )
        xml = tmp_path / f"rt{size}.xml"
        xml.write_text(
            f'<?xml version="1.0"?>\n<net name="n" version="11"><layers>{layer}</layers><edges/></net>\n'
        )
        (read,) = read_file(xml).document.layers  # type: ignore[union-attr]
        assert [a.attributes["name"] for a in read.rt_info] == ["a", "b"]
        peaks.append(_peak_kib(xml, "layers[0].rt_info"))
    assert peaks[1] < 1.5 * peaks[0], peaks


def _net_parts(junk: int) -> str:
    """A <pre-process> and a <meta_data> whose children hold ``junk`` elements each."""
    means = '<mean value="2"/>' * junk
    return (
        '<pre-process reference-layer-name="p">\n'
        + '<channel id="0"><mean value="1"/>'
        + "<junk/>" * junk
        + "</channel>\n"
        + '<channel id="1">'
        + means
        + '<mean value="3"/></channel>\n</pre-process>\n'
        + '<meta_data>\n<a value="1">'
        + "<b/>" * junk
        + "</a>\n"
        + "<cli_parameters>"
        + "<x/>" * junk
        + "</cli_parameters>\n<z/></meta_data>\n"
    )


def test_net_parts_keep_each_child(tmp_path: Path) -> None:
    xml = tmp_path / "parts.xml"
    text = f'<?xml version="1.0"?>\n<net name="n" version="11">\n{_net_parts(20_000)}<layers>{PARAMETER}</layers><edges/></net>\n'
    xml.write_text(text)
    document = read_file(xml).document
    assert document is not None and document.pre_process is not None
    assert [(c.attributes, c.mean) for c in document.pre_process.channels] == [
        ({"id": "0"}, {"value": "1"}),
        ({"id": "1"}, {"value": "2"}),  # the first <mean>, as OpenVINO takes it
    ]
    line = {tag: text.count("\n", 0, text.index(f"<{tag}")) + 1 for tag in ("a ", "cli_parameters", "z")}
    assert [(e.tag, e.has_value, e.line) for e in document.meta_data] == [
        ("a", True, line["a "]),
        ("cli_parameters", False, line["cli_parameters"]),
        ("z", False, line["z"]),
    ]


def _peak_kib(xml: Path, read: str = "pre_process") -> int:
    """The peak RSS (KiB) of a process reading ``xml``: started from a small process (a child's
    peak counts its parent's at the fork, and this test's process holds the files' text)."""
    code = textwrap.dedent(
        f"""
        from pathlib import Path
        from irshape.ir.reader import read_file
        assert read_file(Path({str(xml)!r})).document.{read}
        """
    )
    wrapper = textwrap.dedent(
        f"""
        import resource, subprocess, sys
        subprocess.run([sys.executable, "-c", {code!r}], check=True)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
    )
    done = subprocess.run([sys.executable, "-c", wrapper], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1])


def test_net_parts_read_in_flat_memory(tmp_path: Path) -> None:
    """~50 MiB of elements inside the <pre-process>'s and <meta_data>'s children cost the
    reader about what a file without them does (the tree is pruned as it is read)."""
    peaks = []
    for junk in (10, 1_000_000):
        xml = tmp_path / f"parts{junk}.xml"
        xml.write_text(
            f'<?xml version="1.0"?>\n<net name="n" version="11">\n{_net_parts(junk)}'
            f"<layers>{PARAMETER}</layers><edges/></net>\n"
        )
        peaks.append(_peak_kib(xml))
    assert peaks[1] < 1.5 * peaks[0], peaks
