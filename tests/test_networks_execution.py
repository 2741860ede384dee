"""Every network of fixtures/networks/ executes end to end with irshape, and every layer's
outputs equal OpenVINO's CPU plugin's (f32) on the same inputs (``irshape compare``'s
comparison: every op output exposed on OpenVINO's side); and ``check --dry-run`` executes every
layer of each with no error. Dynamic networks run at concrete shapes inside their intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irshape
from irshape.execute.compare import compare_document, describe
from irshape.execute.dryrun import DryRunOptions
from irshape.execute.run import parameter_shape, parameters, random_input
from irshape.ir.model import Document
from irshape.ir.reader import read_file

NETWORKS = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "networks").glob("*.xml"))
DIM_VALUE = 5  # a dynamic dim's size (clamped into its interval): small, and not a power of two


def network_inputs(document: Document, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded data for every Parameter, its dynamic dims at DIM_VALUE (within their intervals)."""
    rng = np.random.default_rng(seed)
    return {
        layer.name or "": random_input(layer, parameter_shape(layer), rng, DIM_VALUE, clamp=True)
        for layer in parameters(document)
    }


@pytest.mark.parametrize("xml", NETWORKS, ids=lambda p: p.stem)
def test_every_layer_equals_openvino_cpu(xml: Path) -> None:
    document = read_file(xml).document
    assert document is not None
    comparison = compare_document(document, network_inputs(document))
    assert not comparison.not_run, [f.message() for f in comparison.not_run[:5]]
    assert not comparison.divergent, [describe(c) for c in comparison.divergent[:5]]
    assert comparison.outputs  # (something was compared)


@pytest.mark.parametrize("xml", NETWORKS, ids=lambda p: p.stem)
def test_dry_run_executes_every_layer(xml: Path) -> None:
    report = irshape.check_file(xml, dry_run=DryRunOptions(dim_value=DIM_VALUE))
    dry = [d for d in report.diagnostics if d.code.startswith("IRS5")]
    assert not dry, [f"{d.code} {d.layer_id} {d.message}" for d in dry[:5]]
    assert report.dry_run is not None and report.dry_run.not_executed == {}
    assert report.dry_run.executed == report.layers_checked - sum(
        1 for layer in report.layers if (layer.type or "").lower() in ("parameter", "const", "result")
    )
