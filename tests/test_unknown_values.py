"""IRS306 (an input's value is not known) by default only where it leaves a declared static dim
unconfirmed; where the file declares the dims it decides dynamic, as OpenVINO infers them
(every Range of a transformer export), only with ``every_unknown_value`` (``-v``)."""

from __future__ import annotations

from pathlib import Path

import openvino as ov
from click.testing import CliRunner

import irshape
from irshape.cli import main


def _range(layer_id: int, declared: int) -> str:
    return f"""
        <layer id="{layer_id}" name="range_{layer_id}" type="Range" version="opset4">
            <data output_type="i64"/>
            <input><port id="0" precision="I64"/><port id="1" precision="I64"/><port id="2" precision="I64"/></input>
            <output><port id="3" precision="I64"><dim>{declared}</dim></port></output>
        </layer>
        <layer id="{layer_id + 1}" name="out_{layer_id}" type="Result" version="opset1">
            <input><port id="0" precision="I64"><dim>{declared}</dim></port></input>
        </layer>"""


# A Parameter's value is the stop of two Ranges: one declared [?] (what OpenVINO infers), one [5]
# (a static dim irshape cannot confirm: the stop is not known before the model runs).
IR = f"""<?xml version="1.0"?>
<net name="ranges" version="11">
    <layers>
        <layer id="0" name="stop" type="Parameter" version="opset1">
            <data shape="" element_type="i64"/>
            <output><port id="0" precision="I64"/></output>
        </layer>
        <layer id="1" name="zero" type="Const" version="opset1">
            <data element_type="i64" shape="" offset="0" size="8"/>
            <output><port id="0" precision="I64"/></output>
        </layer>
        <layer id="2" name="one" type="Const" version="opset1">
            <data element_type="i64" shape="" offset="8" size="8"/>
            <output><port id="0" precision="I64"/></output>
        </layer>{_range(3, -1)}{_range(5, 5)}
    </layers>
    <edges>
        <edge from-layer="1" from-port="0" to-layer="3" to-port="0"/>
        <edge from-layer="0" from-port="0" to-layer="3" to-port="1"/>
        <edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
        <edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
        <edge from-layer="1" from-port="0" to-layer="5" to-port="0"/>
        <edge from-layer="0" from-port="0" to-layer="5" to-port="1"/>
        <edge from-layer="2" from-port="0" to-layer="5" to-port="2"/>
        <edge from-layer="5" from-port="3" to-layer="6" to-port="0"/>
    </edges>
</net>
"""
WEIGHTS = (0).to_bytes(8, "little") + (1).to_bytes(8, "little")


def _model(tmp_path: Path) -> Path:
    xml = tmp_path / "ranges.xml"
    xml.write_text(IR)
    xml.with_suffix(".bin").write_bytes(WEIGHTS)
    return xml


def test_openvino_infers_both_ranges_dynamic(tmp_path: Path) -> None:
    model = ov.Core().read_model(_model(tmp_path))
    assert [str(output.get_partial_shape()) for output in model.outputs] == ["[?]", "[?]"]


def _infos(report: irshape.FileReport) -> list[tuple[str, str | None]]:
    return [(d.code, d.layer_id) for d in report.diagnostics]


def test_only_the_unconfirmed_declared_dim_is_said_by_default(tmp_path: Path) -> None:
    xml = _model(tmp_path)
    assert _infos(irshape.check_file(xml)) == [("IRS306", "5")]
    assert _infos(irshape.check_file(xml, every_unknown_value=True)) == [("IRS306", "3"), ("IRS306", "5")]


def test_the_program_says_the_others_with_v(tmp_path: Path) -> None:
    xml = str(_model(tmp_path))
    quiet = CliRunner().invoke(main, ["check", "--isolated", xml]).output
    verbose = CliRunner().invoke(main, ["check", "--isolated", "-v", xml]).output
    assert quiet.count("IRS306") == 1 and "range_5" in quiet and "range_3" not in quiet
    assert verbose.count("IRS306") == 2 and "range_3" in verbose
