"""The real-network corpus (fixtures/networks/) against OpenVINO, and irshape against it.

The files are torch models converted by OpenVINO (``tools/make_networks.py``, run by hand: it
needs torch, which no requirement here names). Each ``.expected.json`` is OpenVINO's answer
for every layer of the saved file. Here:

- the expectations are derived again from the committed XML with ``read_model`` and must equal
  the committed ones, so they can never drift from OpenVINO unnoticed;
- ``irshape.check_file`` finds no error in any of these files (OpenVINO reads them all);
- every output shape irshape infers is OpenVINO's: never a different answer (a bug), and,
  except in the files listed in ``KNOWN_GAPS``, never a wider one (a gap);
- in the files of openvino_tokenizers (extension ops, ``version="extension"``), OpenVINO's answer
  is the one of a Core with the extension added (as their users read them). irshape cannot know
  an extension's ops: each is an info (IRS404, quoting the failure of a plain ``read_model``,
  which is OpenVINO's own for the first of them), it infers nothing for them (their declared
  output dims stand), and every other layer's shape and type is OpenVINO's.

OpenVINO is imported plainly (through ``networks.derive_expected``): without it these tests
fail, they are never skipped.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import openvino  # noqa: F401  (the oracle: a missing OpenVINO fails the import, never skips)
import pytest
from networks import (
    Dims,
    comparable,
    derive_expected,
    expected_outputs,
    expected_path,
    extension_layer_ids,
    load_expected,
    network_files,
)

import irshape
from irshape.dims import INF, Dim, PartialShape
from irshape.results import FileReport

FILES = network_files()
IDS = [xml.stem for xml in FILES]

# Files where irshape's answer for some layer is wider than OpenVINO's today (no answer at all
# is the widest), with what causes it. The dynamic files' shape subgraphs fold on bounds as
# OpenVINO's do since the value bounds of issue 14. Strict: when irshape closes a file's gaps,
# its entry must go; a file with a new gap must be listed, with what causes it.
KNOWN_GAPS: dict[str, str] = {}


@functools.cache
def _report(xml: Path) -> FileReport:
    """irshape's report of a corpus file, computed once per test session."""
    return irshape.check_file(xml)


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 20
    for xml in FILES:
        assert xml.with_suffix(".bin").is_file(), xml
        assert expected_path(xml).is_file(), xml


@pytest.mark.parametrize("xml", FILES, ids=IDS)
def test_expectations_are_openvinos(xml: Path) -> None:
    derived, committed = derive_expected(xml), load_expected(xml)
    ids = dict.fromkeys([*derived["layers"], *committed["layers"]])
    differ = [
        (layer_id, committed["layers"].get(layer_id), derived["layers"].get(layer_id))
        for layer_id in ids
        if committed["layers"].get(layer_id) != derived["layers"].get(layer_id)
    ]
    assert differ == []  # (layer id, committed, OpenVINO's now)
    assert comparable(derived) == comparable(committed)


@pytest.mark.parametrize("xml", FILES, ids=IDS)
def test_irshape_finds_no_error(xml: Path) -> None:
    report = _report(xml)
    assert [str(d) for d in report.errors] == []
    assert len(report.layers) == len(load_expected(xml)["layers"])


def _contains(ours: Dim, openvinos: int | list[int | None]) -> bool:
    """Does irshape's dim allow every length OpenVINO's (an int, or [lo, hi], hi None: no bound) does?"""
    lo, hi = (openvinos, openvinos) if isinstance(openvinos, int) else openvinos
    assert lo is not None
    return ours.lo <= lo and (ours.hi == INF or (hi is not None and hi <= ours.hi))


def _widens(ours: PartialShape, openvinos: Dims) -> bool:
    """Is ``ours`` OpenVINO's shape or a wider one?"""
    if ours.rank is None:
        return True
    return openvinos is not None and len(ours) == len(openvinos) and all(map(_contains, ours, openvinos))


# Layers whose output shapes the file states (irshape reads them and infers nothing).
_STATED = {"Parameter", "Const"}


def _inferred(xml: Path) -> list[tuple[str, list[PartialShape], list[dict[str, Any]]]]:
    """(layer id, irshape's output shapes, OpenVINO's output ports) for each layer with outputs
    whose shapes are inferred: irshape's list is empty where it infers nothing (an op it does
    not check), which is the widest answer."""
    expected, extension = expected_outputs(xml), extension_layer_ids(xml)
    return [
        (str(layer.layer_id), layer.outputs, expected[str(layer.layer_id)])
        for layer in _report(xml).layers
        if expected[str(layer.layer_id)] and layer.type not in _STATED
        if str(layer.layer_id) not in extension
    ]


@pytest.mark.parametrize("xml", FILES, ids=IDS)
def test_inferred_shapes_never_contradict_openvino(xml: Path) -> None:
    inferred = [(layer_id, ours, ports) for layer_id, ours, ports in _inferred(xml) if ours]
    for layer_id, ours, ports in inferred:
        assert len(ours) == len(ports), layer_id
        for shape, port in zip(ours, ports, strict=True):
            assert _widens(shape, port["dims"]), (layer_id, port["port"], str(shape), port["shape"])


@pytest.mark.parametrize(
    "xml",
    [
        pytest.param(xml, marks=pytest.mark.xfail(strict=True, reason=f"gap: {KNOWN_GAPS[xml.stem]}"))
        if xml.stem in KNOWN_GAPS
        else xml
        for xml in FILES
    ],
    ids=IDS,
)
def test_inferred_shapes_are_openvinos(xml: Path) -> None:
    differ = [
        (layer_id, [str(s) for s in ours], [port["shape"] for port in ports])
        for layer_id, ours, ports in _inferred(xml)
        if [str(s) for s in ours] != [port["shape"] for port in ports]
    ]
    assert differ == []


def test_known_gaps_name_corpus_files() -> None:
    assert set(KNOWN_GAPS) <= set(IDS)


@pytest.mark.parametrize("xml", FILES, ids=IDS)
def test_inferred_element_types_are_openvinos(xml: Path) -> None:
    expected, extension = expected_outputs(xml), extension_layer_ids(xml)
    differ = [
        (str(layer.layer_id), layer.type, layer.element_types, [port["element_type"] for port in ports])
        for layer in _report(xml).layers
        if (ports := expected[str(layer.layer_id)]) and layer.type not in _STATED
        if str(layer.layer_id) not in extension
        if list(layer.element_types) != [port["element_type"] for port in ports]
    ]
    assert differ == []  # (layer id, type, irshape's, OpenVINO's)


EXTENDED = [xml for xml in FILES if "extensions" in load_expected(xml)]


def test_the_tokenizer_files_are_there() -> None:
    assert {xml.stem for xml in EXTENDED} >= {"bpe_tokenizer", "bpe_detokenizer", "wordpiece_tokenizer"}


@pytest.mark.parametrize("xml", EXTENDED, ids=[xml.stem for xml in EXTENDED])
def test_extension_ops_are_infos_inferring_nothing(xml: Path) -> None:
    report, extension = _report(xml), extension_layer_ids(xml)
    assert extension
    infos = {d.layer_id: d for d in report.diagnostics if d.code == "IRS404"}
    assert set(infos) == extension
    assert {d.severity for d in infos.values()} == {"info"}
    # OpenVINO stops at the first layer it cannot create: irshape quotes that failure on it.
    failure = load_expected(xml)["read_model_without_extensions"]
    assert any(f"read_model fails ('{failure}')" in d.message for d in infos.values()), failure
    assert [(layer.layer_id, layer.outputs) for layer in report.layers if layer.layer_id in extension] == [
        (layer_id, []) for layer_id in sorted(extension, key=int)
    ]
