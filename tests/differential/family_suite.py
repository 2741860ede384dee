"""What the matmul, reduction and normalization suites share: drawing OpenVINO-buildable cases,
the three kinds of test (valid cases, mutants read_model rejects, a declared dim off by one),
and the XML edits the mutants are made of (an attribute, a Parameter's shape or type)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov

import irshape

from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    as_partial,
    buildable,
    dim_mutant,
    errors_on,
    is_static,
    layer_element,
    openvino_reads,
    parameter,
    save_batch,
)

STYLES = ("static", "static", "dynamic", "interval", "rank")
Draw = Callable[[random.Random], Callable[[], ov.Node] | None]


def draw_cases(prefix: str, op: str, draw: Draw, rng: random.Random, count: int) -> list[OpCase]:
    """``count`` cases OpenVINO's builder accepts, drawn with ``draw``."""
    cases: list[OpCase] = []
    attempts = 0
    while len(cases) < count:
        attempts += 1
        assert attempts < count * 20, f"{op}: too few buildable cases ({len(cases)})"
        build = draw(rng)
        if build is None:
            continue
        case = OpCase(f"{prefix}{len(cases):04d}", op, build)
        if buildable(case):
            cases.append(case)
    return cases


def shape(rng: random.Random, dims: Sequence[int], style: str | None = None) -> ov.PartialShape:
    return as_partial(rng, list(dims), style or rng.choice(STYLES))


def param(
    rng: random.Random, dims: Sequence[int], element_type: Any = np.float32, style: str | None = None
) -> ov.Node:
    return parameter(shape(rng, dims, style), element_type)


def check_valid(runner: OpsBatchRunner, key: str, batch: list[OpCase], case: OpCase) -> None:
    outcome = runner.ops_batch(key, batch).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def check_dim_mutant(runner: OpsBatchRunner, key: str, batch: list[OpCase], tmp: Path) -> None:
    saved = runner.ops_batch(key, batch)
    static = [
        c for c in batch if is_static(saved.expected[c.cid][0][0]) and saved.expected[c.cid][0][0] != "[]"
    ]
    assert static, "the batch has a case with a static output"
    case = static[0]
    target = tmp / "dim.xml"
    assert dim_mutant(saved.xml, target, case.cid)
    assert openvino_reads(target) is None  # OpenVINO ignores declared dims
    report = irshape.check_file(target)
    codes = {d.code for d in errors_on(report, case.cid)}
    assert codes and codes <= {"IRS301", "IRS302"}, [d.message for d in report.diagnostics]


# --- mutants --------------------------------------------------------------------------------

Edit = Callable[[Any, str], None]  # (tree, the case's layer name)


@dataclass(frozen=True)
class Mutant:
    name: str
    build: Callable[[], ov.Node]  # a valid node whose inputs are Parameters named m_in0, m_in1...
    edit: Edit
    code: str | None = None  # the irshape code expected, when one is


def named_inputs(*nodes: ov.Node) -> list[ov.Node]:
    """Name the case's Parameters ``m_in<k>`` so that edits can find them."""
    for index, node in enumerate(nodes):
        node.set_friendly_name(f"m_in{index}")
    return list(nodes)


def set_attribute(name: str, value: str) -> Edit:
    def edit(tree: Any, cid: str) -> None:
        layer_element(tree, cid).find("data").set(name, value)

    return edit


def set_input_shape(index: int, dims: Sequence[int]) -> Edit:
    """Parameter ``m_in<index>`` (its shape attribute and port) and its consumers' ports get
    ``dims``."""

    def edit(tree: Any, cid: str) -> None:
        source = layer_element(tree, f"m_in{index}")
        source.find("data").set("shape", ",".join(map(str, dims)))
        _set_dims(source.find("output/port"), dims)
        for edge in tree.xpath(f"//edge[@from-layer='{source.get('id')}']"):
            (consumer,) = tree.xpath(f"//layer[@id='{edge.get('to-layer')}']")
            (port,) = consumer.xpath(f"input/port[@id='{edge.get('to-port')}']")
            _set_dims(port, dims)

    return edit


def set_input_type(index: int, element_type: str, precision: str) -> Edit:
    def edit(tree: Any, cid: str) -> None:
        source = layer_element(tree, f"m_in{index}")
        source.find("data").set("element_type", element_type)
        source.find("output/port").set("precision", precision)
        for edge in tree.xpath(f"//edge[@from-layer='{source.get('id')}']"):
            (consumer,) = tree.xpath(f"//layer[@id='{edge.get('to-layer')}']")
            (port,) = consumer.xpath(f"input/port[@id='{edge.get('to-port')}']")
            port.set("precision", precision)

    return edit


def _set_dims(port: Any, dims: Sequence[int]) -> None:
    for dim in port.findall("dim"):
        port.remove(dim)
    for value in dims:
        element = port.makeelement("dim", {})
        element.text = str(value)
        port.append(element)


def check_mutant(tmp: Path, mutant: Mutant) -> None:
    base, target = tmp / "base.xml", tmp / "mutant.xml"
    save_batch([OpCase("m0", mutant.name, mutant.build)], base)
    assert openvino_reads(base) is None, "the base file is valid"
    apply_mutant(base, target, lambda tree: mutant.edit(tree, "m0"))
    rejection = openvino_reads(target)
    assert rejection is not None, f"{mutant.name}: OpenVINO accepts the mutant, so it is no mutant"
    report = irshape.check_file(target)
    errors = errors_on(report, "m0")
    assert errors, f"{mutant.name}: irshape reports no error on the layer; OpenVINO: {rejection}; " + str(
        [d.message for d in report.diagnostics]
    )
    if mutant.code is not None:
        assert mutant.code in {d.code for d in errors}, [d.message for d in errors]
