"""What the check of the usual file does not do again (issue 26, item 2): counted in calls, never
timed, on the residual blocks of ``test_memo_repeats`` (a Parameter, N blocks of a weights
Const, Convolution, ReLU and Add, a Result).

- The graph's index and its structural checks make no Python call a layer or an edge: the
  same calls for 3 blocks as for 12.
- A Const that repeats a clean one exactly (the weights a writer stores once, whose ``<data>``
  the reader shares) is checked once, however many blocks repeat it; a faulty one is still
  checked, and reported, at each layer.
- Walking a layer that repeats a clean check costs a bounded few Python calls (its visit, its
  inputs, its result), not the op's check, nor its declared dims compared, nor a location.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import pytest
from counting import fresh_memos
from test_memo_repeats import network

import irshape
from irshape import check_string
from irshape.check import graph, model, sources
from irshape.ir.reader import read_bytes


def _python_calls(work: Callable[[], Any]) -> Counter[str]:
    """The Python functions of irshape ``work`` calls, by name, and how many times each (not
    another library's: a callback of the garbage collector that a test library registered runs
    wherever a collection falls, which moves with every allocation made before)."""
    calls: Counter[str] = Counter()
    irshape_code = os.path.dirname(irshape.__file__)

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(irshape_code):
            calls[frame.f_code.co_name] += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls


def _document(blocks: int) -> Any:
    """The blocks as OpenVINO writes a model: every port with its precision."""
    text = re.sub(r'<port id="([0-9]+)">', r'<port id="\1" precision="FP32">', network(blocks))
    document = read_bytes(text.encode(), "blocks.xml").document
    assert document is not None
    return document


@pytest.fixture(autouse=True)
def _fresh_memos(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # What earlier checks in this process left must not count as work saved.
    fresh_memos(monkeypatch)
    yield


def test_the_index_of_the_usual_file_makes_no_call_a_layer_or_an_edge() -> None:
    few, many = _document(3), _document(12)
    graph.build_graph(few)  # (what is made once a process: a pattern compiled, a cache)
    assert len(many.layers) == len(few.layers) + 9 * 4 and len(many.edges) == len(few.edges) + 9 * 5
    index_few = _python_calls(lambda: graph.build_graph(few))
    index_many = _python_calls(lambda: graph.build_graph(many))
    assert index_many == index_few
    assert not {"id_key", "is_id", "find_port"} & index_many.keys()  # (the per-id and per-edge helpers)
    built = graph.build_graph(many)
    assert built.edges_plain and built.every_input_fed and built.in_order
    assert built.built == set(built.layers)  # every layer reaches the Result


def test_the_structural_checks_of_the_usual_file_make_no_call_a_layer_or_an_edge() -> None:
    def checks(blocks: int) -> Counter[str]:
        walker = model._Walker(_document(blocks), False, None)
        return _python_calls(walker._structural_checks)

    checks(3)  # (what is made once a process: the opsets' tables)
    assert checks(12) == checks(3)


def test_a_repeated_clean_const_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str | None] = []
    const_tensor = sources.const_tensor

    def counted(layer: Any, *args: Any) -> Any:
        checked.append(layer.id)
        return const_tensor(layer, *args)

    monkeypatch.setattr(sources, "const_tensor", counted)
    report = check_string(network(12))
    assert report.errors == []
    assert checked == ["1"]  # the first block's weights; the eleven others share its <data>


def test_a_repeated_faulty_const_is_reported_at_each_layer() -> None:
    # Weights of 4 bytes where the 4x4x3x3 f32 shape needs 576: every block's Const is wrong.
    report = check_string(network(12).replace('size="576"', 'size="4"'))
    faulty = sorted(int(d.layer_id or "0") for d in report.errors if d.layer_type == "Const")
    assert faulty == [1 + 4 * block for block in range(12)]


def test_a_repeated_layer_costs_a_bounded_few_calls() -> None:
    def walk(blocks: int) -> Counter[str]:
        document = _document(blocks)
        return _python_calls(lambda: model.check_document(document, lambda finding: None))

    walk(3)  # (what is imported and made once a process)
    few, many = walk(3), walk(12)
    added = many - few
    # Nine more blocks: 27 repeated known ops (Convolution, ReLU, Add) and 9 repeated Consts.
    assert added["_visit"] == 9 * 4
    assert added["_inputs"] == 9 * 4
    assert added["_constant"] == 9
    # ...and nothing else: no check, no compare, no location, no settling of findings (the
    # result's shapes, types and ports are the repeated check's, copied in the visit), nor a
    # call to make its result (every layer's, made in one call: LayerResult.of_layers).
    assert sum(added.values()) == 9 * 4 * 2 + 9
    for name in (
        "check_op",
        "_check_op",
        "compare_declared",
        "location",
        "_settle",
        "_guessed",
        "const_tensor",
    ):
        assert added[name] == 0, name


def _lookups_in(function: str, work: Callable[[], Any]) -> Counter[str]:
    """The builtins (``id``, ``get``...) the Python function ``function`` calls while ``work``
    runs, by name."""
    calls: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call" and frame.f_code.co_name == function:
            calls[arg.__name__] += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return calls


def test_the_walk_follows_an_input_to_its_source_with_no_lookup() -> None:
    """Each input port holds its source (the index sets it, ``tests/test_port_sources.py``): the
    walk takes an input's tensor with one lookup, of its producer's tensors, and none to find
    the producer (a dict keyed by the port, before: two lookups and two ``id`` an input)."""

    def inputs(blocks: int) -> Counter[str]:
        document = _document(blocks)
        return _lookups_in("_inputs", lambda: model.check_document(document, lambda finding: None))

    inputs(3)  # (what is imported and made once a process)
    added = inputs(12) - inputs(3)
    # Nine more blocks: each one's Convolution, ReLU and Add read 2 + 1 + 2 inputs.
    assert added["get"] == added["id"] == 9 * 5
    assert added.keys() <= {"get", "id", "append", "len"}  # (the inputs listed, their counts)
    assert not hasattr(graph.Graph(_document(1)), "sources")  # (no map of the ports' sources)
