"""Real IRs written by OpenVINO: clean ones give no finding, broken copies are caught.

The models are built here with OpenVINO's Python API and written by ``ov.save_model``: a
DCGAN-style generator (ConvolutionBackpropData, BatchNorm, ReLU, Tanh), a MobileNet-style
stack (depthwise GroupConvolution, pointwise Convolution, Clamp), and a chain of 250
conv/relu/add blocks (over 1,000 layers, small tensors so it builds in a moment). Each mutant
edits one saved file the way a broken converter or a hand edit would; the test checks that
irshape reports it with its code and line, and records what ``read_model`` does with it.
OpenVINO is imported plainly: without it these tests fail, they are never skipped.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as ops
import pytest
from lxml import etree
from probes import openvino_accepts

import irshape
from irshape.results import FileReport

Tree = etree._ElementTree


def _weights(rng: np.random.Generator, *shape: int) -> ov.Node:
    return ops.constant((rng.random(shape, dtype=np.float32) - 0.5).astype(np.float32))


def dcgan() -> ov.Model:
    """z [1,16,1,1] -> four 4x4 ConvTranspose (1 -> 4 -> 8 -> 16 -> 32) -> Tanh image."""
    rng = np.random.default_rng(0)
    x = z = ops.parameter([1, 16, 1, 1], np.float32, name="z")
    channels = [16, 32, 16, 8, 3]
    for i in range(4):
        stride, pad = ([1, 1], [0, 0]) if i == 0 else ([2, 2], [1, 1])
        kernel = _weights(rng, channels[i], channels[i + 1], 4, 4)
        x = ops.convolution_backprop_data(x, kernel, stride, pads_begin=pad, pads_end=pad, name=f"up{i}")
        if i < 3:
            c = channels[i + 1]
            ones = ops.constant(np.ones(c, np.float32))
            x = ops.batch_norm_inference(x, _weights(rng, c), _weights(rng, c), _weights(rng, c), ones, 1e-5)
            x = ops.relu(x, name=f"relu{i}")
    image = ops.tanh(x, name="image")
    return ov.Model([ops.result(image, name="out")], [z], "dcgan")


def mobilenet() -> ov.Model:
    """A stem conv, then four depthwise 3x3 + pointwise 1x1 blocks, pooling and a classifier."""
    rng = np.random.default_rng(1)
    image = ops.parameter([1, 3, 32, 32], np.float32, name="image")
    x = ops.convolution(image, _weights(rng, 8, 3, 3, 3), [2, 2], [1, 1], [1, 1], [1, 1], name="stem")
    x = ops.clamp(x, 0.0, 6.0)
    c = 8
    for i in range(4):
        stride = [2, 2] if i % 2 else [1, 1]
        x = ops.group_convolution(
            x, _weights(rng, c, 1, 1, 3, 3), stride, [1, 1], [1, 1], [1, 1], name=f"dw{i}"
        )
        x = ops.clamp(x, 0.0, 6.0, name=f"dw{i}/relu6")
        x = ops.convolution(x, _weights(rng, 2 * c, c, 1, 1), [1, 1], [0, 0], [0, 0], [1, 1], name=f"pw{i}")
        x = ops.relu(x, name=f"pw{i}/relu")
        c *= 2
    x = ops.reduce_mean(x, ops.constant(np.array([2, 3], np.int64)), True)
    x = ops.reshape(x, ops.constant(np.array([1, -1], np.int64)), False)
    x = ops.softmax(ops.matmul(x, _weights(rng, c, 10), False, False), 1)
    return ov.Model([ops.result(x, name="probs")], [image], "mobilenet")


def long_chain(blocks: int = 250) -> ov.Model:
    """``blocks`` residual blocks x + relu(conv(x)) on a [1,4,8,8] tensor: 4 layers a block."""
    rng = np.random.default_rng(2)
    x = data = ops.parameter([1, 4, 8, 8], np.float32, name="x")
    for i in range(blocks):
        y = ops.convolution(x, _weights(rng, 4, 4, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], name=f"c{i}")
        x = ops.add(x, ops.relu(y, name=f"r{i}"), name=f"a{i}")
    return ov.Model([ops.result(x, name="y")], [data], "long_chain")


MODELS: dict[str, Callable[[], ov.Model]] = {"dcgan": dcgan, "mobilenet": mobilenet, "long_chain": long_chain}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every model written once, with f32 weights (and the small ones also fp16-compressed)."""
    root = tmp_path_factory.mktemp("saved")
    paths: dict[str, Path] = {}
    for name, build in MODELS.items():
        model = build()
        paths[name] = root / f"{name}.xml"
        ov.save_model(model, paths[name], compress_to_fp16=False)
        if name != "long_chain":
            paths[f"{name}_fp16"] = root / f"{name}_fp16.xml"
            ov.save_model(model, paths[f"{name}_fp16"])  # f16 Consts + Convert, as by default
    return paths


@pytest.mark.parametrize("name", ["dcgan", "dcgan_fp16", "mobilenet", "mobilenet_fp16", "long_chain"])
def test_openvino_written_ir_has_no_findings(saved: dict[str, Path], name: str) -> None:
    report = irshape.check_file(saved[name])
    assert report.diagnostics == []
    assert report.layers_checked > 0


def test_long_chain_has_over_a_thousand_layers(saved: dict[str, Path]) -> None:
    report = irshape.check_file(saved["long_chain"])
    assert len(report.layers) >= 1000
    assert report.layers_checked == 750  # 250 blocks: a Convolution, a ReLU and an Add each
    assert report.diagnostics == []


# -------------------------------------------------------------------------------- mutants


def _layer(tree: Tree, name: str) -> etree._Element:
    return tree.find(f".//layers/layer[@name='{name}']")


def _edge_into(tree: Tree, layer: etree._Element, port_index: int = 0) -> etree._Element:
    port_id = layer.findall("input/port")[port_index].get("id")
    return tree.find(f".//edges/edge[@to-layer='{layer.get('id')}'][@to-port='{port_id}']")


def _new_id(tree: Tree) -> int:
    return 1 + max(int(layer.get("id")) for layer in tree.iterfind(".//layers/layer"))


def edge_to_missing_port(tree: Tree) -> etree._Element:
    edge = _edge_into(tree, _layer(tree, "up1"), 1)
    edge.set("to-port", "7")
    return edge


def const_size_too_small(tree: Tree) -> etree._Element:
    data = tree.find(".//layers/layer[@type='Const']/data")
    data.set("size", str(int(data.get("size")) - 4))
    return data


def parameter_port_disagrees(tree: Tree) -> etree._Element:
    param = _layer(tree, "z")
    param.findall("output/port/dim")[2].text = "2"
    return param.find("data")


def parameter_shape_disagrees(tree: Tree) -> etree._Element:
    """The shape attribute changes; every declared dim downstream still says 1x1."""
    data = _layer(tree, "z").find("data")
    data.set("shape", "1,16,2,2")
    return data


def dangling_broken_conv(tree: Tree) -> etree._Element:
    """A Convolution on the image whose kernel expects 5 channels, feeding nothing."""
    layers, edges = tree.find("layers"), tree.find("edges")
    kernel_id, conv_id = _new_id(tree), _new_id(tree) + 1
    kernel = etree.SubElement(
        layers, "layer", id=str(kernel_id), name="dead/w", type="Const", version="opset1"
    )
    etree.SubElement(kernel, "data", element_type="f32", shape="2, 5, 1, 1", offset="0", size="40")
    _ports(kernel, "output", [(0, [2, 5, 1, 1])])
    conv = etree.SubElement(
        layers, "layer", id=str(conv_id), name="dead", type="Convolution", version="opset1"
    )
    etree.SubElement(
        conv,
        "data",
        strides="1, 1",
        dilations="1, 1",
        pads_begin="0, 0",
        pads_end="0, 0",
        auto_pad="explicit",
    )
    _ports(conv, "input", [(0, [1, 3, 32, 32]), (1, [2, 5, 1, 1])])
    _ports(conv, "output", [(2, [1, 2, 32, 32])])
    image_id = _layer(tree, "image").get("id")
    for src, dst in ((image_id, "0"), (str(kernel_id), "1")):
        etree.SubElement(
            edges, "edge", {"from-layer": src, "from-port": "0", "to-layer": str(conv_id), "to-port": dst}
        )
    return conv


def _ports(layer: etree._Element, group: str, ports: list[tuple[int, list[int]]]) -> None:
    parent = etree.SubElement(layer, group)
    for pid, dims in ports:
        port = etree.SubElement(parent, "port", id=str(pid), precision="FP32")
        for d in dims:
            etree.SubElement(port, "dim").text = str(d)


def conv_output_dim_wrong(tree: Tree) -> etree._Element:
    dim = _layer(tree, "c100").findall("output/port/dim")[3]
    dim.text = "9"
    return dim


def output_precision_unknown(tree: Tree) -> etree._Element:
    port = _layer(tree, "r7").find("output/port")
    port.set("precision", "F32")
    return port


@dataclass(frozen=True)
class Mutant:
    model: str
    edit: Callable[[Tree], etree._Element]
    code: str
    openvino_accepts: bool  # what read_model does with the mutated file


MUTANTS = {
    "edge to a missing port": Mutant("dcgan", edge_to_missing_port, "IRS407", False),
    "Const size too small": Mutant("mobilenet", const_size_too_small, "IRS419", False),
    "Parameter port disagrees with its shape": Mutant("dcgan", parameter_port_disagrees, "IRS416", True),
    "Parameter shape disagrees with its port": Mutant("dcgan", parameter_shape_disagrees, "IRS416", True),
    "dangling broken layer": Mutant("mobilenet", dangling_broken_conv, "IRS421", True),
    "conv output dim wrong": Mutant("long_chain", conv_output_dim_wrong, "IRS301", True),
    "output precision unknown": Mutant("long_chain", output_precision_unknown, "IRS405", False),
}


def mutate(source: Path, target: Path, edit: Callable[[Tree], etree._Element]) -> int:
    """Write ``source`` edited to ``target`` (with its .bin); return the edited element's line."""
    tree = etree.parse(str(source))
    element = edit(tree)
    marker = "irshape-mutant"
    element.set(marker, "1")
    text = etree.tostring(tree, xml_declaration=True, encoding="utf-8")
    shutil.copy(source.with_suffix(".bin"), target.with_suffix(".bin"))
    reread = etree.fromstring(text)
    line = reread.find(f".//*[@{marker}]").sourceline
    target.write_bytes(text.replace(f' {marker}="1"'.encode(), b""))
    return line


def _errors_and_warnings(report: FileReport) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in report.diagnostics if d.severity.value != "info"]


@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutant_is_caught_with_its_code_and_line(saved: dict[str, Path], tmp_path: Path, name: str) -> None:
    mutant = MUTANTS[name]
    xml = tmp_path / "mutant.xml"
    line = mutate(saved[mutant.model], xml, mutant.edit)
    report = irshape.check_file(xml)
    assert (mutant.code, line) in _errors_and_warnings(report), report.diagnostics
    assert openvino_accepts(xml) is mutant.openvino_accepts


def test_parameter_shape_fault_is_one_finding_naming_its_inheritors(
    saved: dict[str, Path], tmp_path: Path
) -> None:
    xml = tmp_path / "shape.xml"
    mutate(saved["dcgan"], xml, parameter_shape_disagrees)
    report = irshape.check_file(xml)
    (finding,) = report.diagnostics
    assert finding.code == "IRS416"
    # up0 now reads 2x2 and makes 5x5: its declared 4x4 and every layer after it (the BatchNorms,
    # Relus and deconvolutions down to the output) repeat the old value.
    assert len(finding.related) == 12
    assert "'up0'" in finding.related[0] and "BatchNormInference" in finding.related[1]
    assert "12 layer(s) downstream repeat these declared dims" in finding.message


def test_wrong_conv_dim_is_one_finding(saved: dict[str, Path], tmp_path: Path) -> None:
    xml = tmp_path / "dim.xml"
    mutate(saved["long_chain"], xml, conv_output_dim_wrong)
    report = irshape.check_file(xml)
    assert [d.code for d in report.diagnostics] == ["IRS301"]


def test_dangling_broken_layer_reports_its_fault_as_never_built(
    saved: dict[str, Path], tmp_path: Path
) -> None:
    xml = tmp_path / "dangling.xml"
    mutate(saved["mobilenet"], xml, dangling_broken_conv)
    report = irshape.check_file(xml)
    assert sorted(d.code for d in report.diagnostics) == ["IRS208", "IRS421"]
    (channels,) = [d for d in report.diagnostics if d.code == "IRS208"]
    assert "OpenVINO never builds it" in channels.message


def test_several_independent_faults_are_all_reported(saved: dict[str, Path], tmp_path: Path) -> None:
    """Four faults in one file, one run: OpenVINO would stop at the first."""
    tree = etree.parse(str(saved["long_chain"]))
    conv_output_dim_wrong(tree)
    output_precision_unknown(tree)
    const_size_too_small(tree)
    edge = _edge_into(tree, _layer(tree, "a200"), 1)
    edge.set("to-port", "9")
    xml = tmp_path / "several.xml"
    tree.write(str(xml))
    shutil.copy(saved["long_chain"].with_suffix(".bin"), xml.with_suffix(".bin"))
    report = irshape.check_file(xml)
    assert {"IRS301", "IRS405", "IRS419", "IRS407"} <= {d.code for d in report.errors}
    assert not openvino_accepts(xml)


def test_a_git_lfs_pointer_for_the_bin_is_read_as_openvino_reads_it(tmp_path: Path) -> None:
    """OpenVINO takes the pointer's text for the weights: a Const past its end fails the file,
    which irshape's IRS009 says (it checks no Const against a pointer)."""
    data = ops.parameter([1, 64], np.float32)
    model = ov.Model([ops.add(data, ops.constant(np.ones((1, 64), np.float32)))], [data])
    xml = tmp_path / "net.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    xml.with_suffix(".bin").write_bytes(
        b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize 256\n"
    )
    with pytest.raises(RuntimeError, match="Incorrect weights in bin file!"):
        ov.Core().read_model(xml)
    (finding,) = [d for d in irshape.check_file(xml).diagnostics if d.code == "IRS009"]
    assert "Git LFS pointer" in finding.message
    assert "the first Const past its end fails with 'Incorrect weights in bin file!'" in finding.message


@pytest.mark.parametrize(
    ("element_type", "ov_message"),
    [
        ("u1", "Element not supported"),
        ("u2", "Element not supported"),
        ("dynamic", "Tensor was not initialized."),
    ],
)
def test_a_shape_const_openvino_cannot_evaluate_is_an_error(
    tmp_path: Path, element_type: str, ov_message: str
) -> None:
    """A Reshape's target Const of a type OpenVINO cannot evaluate: it fails the file, and
    irshape says so on the Reshape (IRS214), where it would otherwise say the value is unknown."""
    data = ops.parameter([2, 3, 4], np.float32)
    model = ov.Model([ops.reshape(data, ops.constant(np.array([4, 6], np.int64)), False)], [data])
    xml = tmp_path / "net.xml"
    ov.save_model(model, xml)
    text = xml.read_text()
    assert text.count('element_type="i64"') == 1
    xml.write_text(text.replace('element_type="i64"', f'element_type="{element_type}"'))
    with pytest.raises(RuntimeError, match=re.escape(ov_message)):
        ov.Core().read_model(xml)
    (finding,) = [d for d in irshape.check_file(xml).errors if d.code == "IRS214"]
    assert finding.layer_type == "Reshape"
    assert f"element type {element_type}, whose values OpenVINO does not read" in finding.message
    assert ov_message in finding.message
