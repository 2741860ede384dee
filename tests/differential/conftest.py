"""Shared fixtures of the differential suite: each batch model is built, saved, read back by
OpenVINO and checked by irshape once per session, then every case of it is a test of its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import irshape

from . import generate as gen
from .ops_harness import OpsBatchRunner

# Filled by the test modules at collection time, printed in the terminal summary.
STATS: dict[str, Any] = {}


@dataclass
class BatchResult:
    xml: Path
    builder: dict[str, str]  # cid -> shape of the op built for the model
    reread: dict[str, str]  # cid -> shape after ov.Core().read_model of the saved file
    report: Any  # irshape.FileReport
    layers: dict[str, Any] = field(default_factory=dict)  # layer name -> LayerResult
    errors_by_name: dict[str, list[Any]] = field(default_factory=dict)
    stray_errors: list[Any] = field(default_factory=list)  # errors not tied to any case


def case_of_name(name: str | None) -> str | None:
    """``c00012``, ``c00012_data``, ``c00012_filter``, ``c00012_os``, ``c00012_out`` -> c00012
    (chain ops are ``k0001a``, ``k0001b``, ...)."""
    if not name or name[0] not in "ck":
        return None
    return name.split("_", 1)[0]


class BatchRunner:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.cache: dict[str, BatchResult | str] = {}

    def get(self, index: str, batch: list[gen.Accepted]) -> BatchResult:
        if index not in self.cache:
            try:
                self.cache[index] = self._run(index, batch)
            except Exception as exc:  # remembered: the batch is not rebuilt for every case
                self.cache[index] = f"batch {index} could not be run: {type(exc).__name__}: {exc}"
        result = self.cache[index]
        if isinstance(result, str):
            pytest.fail(result)
        return result

    def _run(self, index: str, batch: list[gen.Accepted]) -> BatchResult:
        cases = [a.case for a in batch]
        xml = self.tmp / f"{index}.xml"
        builder = gen.save_cases(cases, xml, name=index)
        reread = gen.read_back(xml)
        report = irshape.check_file(xml)
        result = BatchResult(xml, builder, reread, report)
        cids = {c.cid for c in cases}
        by_id = {layer.layer_id: layer for layer in report.layers}
        result.layers = {layer.name: layer for layer in report.layers}
        for diag in report.errors:
            name = diag.layer_name
            if name is None and diag.layer_id is not None and diag.layer_id in by_id:
                name = by_id[diag.layer_id].name
            cid = case_of_name(name)
            if cid in cids:
                result.errors_by_name.setdefault(cid, []).append(diag)
            else:
                result.stray_errors.append(diag)
        return result


@pytest.fixture(scope="session")
def batch_runner(tmp_path_factory: pytest.TempPathFactory) -> BatchRunner:
    return BatchRunner(tmp_path_factory.mktemp("differential"))


def fmt_diag(d: Any) -> str:
    return f"{d.code} {d.severity} line {d.line} layer {d.layer_id}/{d.layer_name}: {d.message}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not STATS:
        return
    tr = terminalreporter
    tr.section("irshape differential suite")
    for key, value in STATS.items():
        tr.write_line(f"{key}: {value}")


@pytest.fixture(scope="session")
def ops_runner(tmp_path_factory: pytest.TempPathFactory) -> OpsBatchRunner:
    """The op families' shared batch runner (tests/differential/ops_harness.py)."""
    return OpsBatchRunner(tmp_path_factory.mktemp("ops"))
