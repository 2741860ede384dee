"""DetectionOutput-1/8 and Proposal-1/4 against OpenVINO (read_model of saved files): box logits, class
predictions, proposals and the two additional inputs of static, ``?``, interval and
dynamic-rank shapes; shared and per-class locations, normalized or not, variances in the
proposals or in the target, keep_top_k and top_k of every branch of the output's rule, three or
five inputs, f32, f16 and bf16 data; Proposal's class probabilities, box deltas and image
shape (3 or 4 numbers) of every shape style, its attributes drawn over their ranges. Mutants read_model rejects are errors on the layer (ranks,
the numbers of priors and classes, batches, element types, code_type, num_classes); a declared
dim off by one is an error."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset4 as ov4
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import pytest
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpsBatchRunner, batches, dim_mutant, errors_on, openvino_reads, parameter, params

SEED = 20261127
PER_OP = 120
Build = Callable[[], ov.Node]
CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")


def draw_detection_output(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        images, priors, classes = rng.randint(1, 3), rng.randint(1, 6), rng.randint(1, 5)
        share_location = rng.random() < 0.6
        normalized = rng.random() < 0.5
        in_target = rng.random() < 0.3
        loc_classes = 1 if share_location else classes
        prior_size = 4 if normalized else 5
        five = rng.random() < 0.3
        attrs: dict[str, object] = {
            "keep_top_k": [rng.choice([-1, -1, 0, 1, 5, 50, -3])],
            "top_k": rng.choice([-1, -1, 0, 2, 7]),
            "share_location": share_location,
            "normalized": normalized,
            "variance_encoded_in_target": in_target,
            "code_type": rng.choice(CODE_TYPES),
            "background_label_id": rng.choice([0, -1, 1]),
            "nms_threshold": 0.45,
            "confidence_threshold": rng.choice([0.0, 0.01]),
            "clip_after_nms": rng.random() < 0.5,
            "clip_before_nms": rng.random() < 0.5,
            "decrease_label_id": rng.random() < 0.2,
            "input_height": rng.choice([1, 300]),
            "input_width": rng.choice([1, 300]),
            "objectness_score": rng.choice([0.0, 0.3]),
        }
        if version == 1:
            attrs["num_classes"] = classes
        proposal_images = rng.choice([1, images])
        dims = [
            [images, priors * loc_classes * 4],
            [images, priors * classes],
            [proposal_images, 1 if in_target else 2, priors * prior_size],
            [images, priors * 2],
            [images, priors * loc_classes * 4],
        ]
        shapes = [shape(rng, d) for d in dims[: 5 if five else 3]]
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        proposal_type = rng.choice([data_type, np.float32])
        maker = ov1 if version == 1 else ov8

        def build() -> ov.Node:
            types = [data_type, data_type, proposal_type, data_type, data_type]
            ins = [parameter(s, t) for s, t in zip(shapes, types, strict=False)]
            return maker.detection_output(*ins[:3], attrs, *ins[3:])  # type: ignore[arg-type]

        return build

    return draw


def _proposal_attrs(rng: random.Random) -> dict[str, object]:
    ratios = rng.choice([[1.0], [0.5, 1.0, 2.0]])
    scales = rng.choice([[8.0], [8.0, 16.0, 32.0], [4.0, 8.0]])
    return {
        "base_size": np.uint32(rng.choice([16, 8])),
        "pre_nms_topn": np.uint32(rng.choice([10, 100, 6000])),
        "post_nms_topn": np.uint32(rng.choice([1, 5, 20, 300])),
        "nms_thresh": rng.choice([0.5, 0.7]),
        "feat_stride": np.uint32(rng.choice([16, 4])),
        "min_size": np.uint32(rng.choice([0, 4, 16])),
        "ratio": np.array(ratios, np.float32),
        "scale": np.array(scales, np.float32),
        "clip_before_nms": rng.random() < 0.7,
        "clip_after_nms": rng.random() < 0.3,
        "normalize": rng.random() < 0.3,
        "box_size_scale": rng.choice([1.0, 5.0]),
        "box_coordinate_scale": rng.choice([1.0, 10.0]),
        "framework": rng.choice(["", "tensorflow"]),
    }


def draw_proposal(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        attrs = _proposal_attrs(rng)
        anchors = len(attrs["ratio"]) * len(attrs["scale"])  # type: ignore[arg-type]
        batch, height, width = rng.randint(1, 3), rng.randint(1, 6), rng.randint(1, 6)
        probs = shape(rng, [batch, anchors * 2, height, width])
        deltas = shape(rng, [batch, anchors * 4, height, width])
        image = shape(rng, [rng.choice([3, 4])])
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        image_type = rng.choice([data_type, np.float32])
        maker = ov1 if version == 1 else ov4

        def build() -> ov.Node:
            ins = [parameter(probs, data_type), parameter(deltas, data_type), parameter(image, image_type)]
            return maker.proposal(*ins, attrs)  # type: ignore[arg-type]

        return build

    return draw


def _nms_options(rng: random.Random) -> dict[str, object]:
    return {
        "sort_result_type": rng.choice(["classid", "score", "none"]),
        "sort_result_across_batch": rng.random() < 0.5,
        "output_type": rng.choice(["i32", "i64"]),
        "nms_top_k": rng.choice([-1, -1, 0, 1, 3, 8, 100]),
        "keep_top_k": rng.choice([-1, -1, 0, 2, 5, 40, 1000]),
        "background_class": rng.choice([-1, 0, 1, 7]),
        "normalized": rng.random() < 0.5,
    }


def draw_multiclass_nms(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        batches, classes, count = rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 12)
        options = _nms_options(rng) | {"iou_threshold": 0.5, "nms_eta": rng.choice([1.0, 0.5, 0.0])}
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        if version == 9 and rng.random() < 0.5:  # boxes of all images in one list, roisnum per image
            boxes = shape(rng, [classes, count, 4])
            scores = shape(rng, [classes, count])
            rois = shape(rng, [batches])
            rois_type = rng.choice([np.int32, np.int64])

            def build_rois() -> ov.Node:
                ins = [parameter(boxes, data_type), parameter(scores, data_type), parameter(rois, rois_type)]
                return ov9.multiclass_nms(*ins, **options)  # type: ignore[arg-type]

            return build_rois
        boxes = shape(rng, [batches, count, 4])
        scores = shape(rng, [batches, classes, count])
        maker = ov8 if version == 8 else ov9

        def build() -> ov.Node:
            ins = [parameter(boxes, data_type), parameter(scores, data_type)]
            return maker.multiclass_nms(*ins, **options)  # type: ignore[arg-type]

        return build

    return draw


OPS = {
    "DetectionOutput-1": 1,
    "DetectionOutput-8": 8,
    "Proposal-1": 1,
    "Proposal-4": 4,
    "MulticlassNms-8": 8,
    "MulticlassNms-9": 9,
    "MatrixNms-8": 8,
    "GatherTree-1": 1,
    "GenerateProposals-9": 9,
    "ExperimentalDetectronGenerateProposalsSingleImage-6": 6,
    "ExperimentalDetectronDetectionOutput-6": 6,
}
FACTORY = NodeFactory("opset6")


def _edo_attrs(rng: random.Random, classes: int) -> dict[str, object]:
    return {
        "score_threshold": 0.05,
        "nms_threshold": 0.5,
        "max_delta_log_wh": 4.1,
        "num_classes": classes,
        "post_nms_count": rng.choice([10, 100]),
        "max_detections_per_image": rng.choice([0, 1, 20, 100]),
        "class_agnostic_box_regression": rng.random() < 0.3,
        "deltas_weights": [10.0, 10.0, 5.0, 5.0],
    }


def draw_experimental_detection_output(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        boxes, classes = rng.randint(1, 12), rng.randint(1, 6)
        shapes = [
            shape(rng, [boxes, 4]),
            shape(rng, [boxes, classes * 4]),
            shape(rng, [boxes, classes]),
            shape(rng, [1, 3]),
        ]
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        attrs = _edo_attrs(rng, classes)

        def build() -> ov.Node:
            ins = [parameter(s, data_type).output(0) for s in shapes]
            return FACTORY.create("ExperimentalDetectronDetectionOutput", ins, attrs)

        return build

    return draw


def draw_experimental_proposals(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        anchors, height, width = rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 5)
        shapes = [
            shape(rng, [3]),
            shape(rng, [height * width * anchors, 4]),
            shape(rng, [anchors * 4, height, width]),
            shape(rng, [anchors, height, width]),
        ]
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        attrs = {
            "min_size": 0.0,
            "nms_threshold": 0.7,
            "post_nms_count": rng.choice([0, 1, 10, 1000]),
            "pre_nms_count": rng.choice([1, 100]),
        }

        def build() -> ov.Node:
            ins = [parameter(s, data_type).output(0) for s in shapes]
            return FACTORY.create("ExperimentalDetectronGenerateProposalsSingleImage", ins, attrs)

        return build

    return draw


def draw_generate_proposals(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        batch, anchors, height, width = (
            rng.randint(1, 3),
            rng.randint(1, 4),
            rng.randint(1, 5),
            rng.randint(1, 5),
        )
        shapes = [
            shape(rng, [batch, rng.choice([3, 4])]),
            shape(rng, [height, width, anchors, 4]),
            shape(rng, [batch, anchors * 4, height, width]),
            shape(rng, [batch, anchors, height, width]),
        ]
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        pre, post = rng.choice([1, 10, 1000]), rng.choice([1, 5, 300])
        options = {"normalized": rng.random() < 0.5, "roi_num_type": rng.choice(["i32", "i64"])}

        def build() -> ov.Node:
            ins = [parameter(s, data_type) for s in shapes]
            return ov9.generate_proposals(*ins, 1.0, 0.7, pre, post, **options)  # type: ignore[arg-type]

        return build

    return draw


def draw_gather_tree(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        time, batch, beams = rng.randint(1, 6), rng.randint(1, 4), rng.randint(1, 5)
        steps = shape(rng, [time, batch, beams])
        parents = shape(rng, [time, batch, beams])
        lengths = shape(rng, [batch])
        end = shape(rng, [])
        types = [rng.choice([np.float32, np.int32, np.int64, np.float16, np.uint8])] * 4
        if rng.random() < 0.2:  # a dynamic element type merges with the others
            types[rng.randrange(4)] = ov.Type.dynamic

        def build() -> ov.Node:
            ins = [parameter(s, t) for s, t in zip((steps, parents, lengths, end), types, strict=True)]
            return ov1.gather_tree(*ins)

        return build

    return draw


def draw_matrix_nms(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        batches, classes, count = rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 12)
        options = _nms_options(rng) | {
            "score_threshold": rng.choice([0.0, 0.3]),
            "decay_function": rng.choice(["gaussian", "linear"]),
            "gaussian_sigma": rng.choice([2.0, 0.5]),
            "post_threshold": rng.choice([0.0, 0.1]),
        }
        boxes = shape(rng, [batches, count, 4])
        scores = shape(rng, [batches, classes, count])
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])

        def build() -> ov.Node:
            ins = [parameter(boxes, data_type), parameter(scores, data_type)]
            return ov8.matrix_nms(*ins, **options)  # type: ignore[arg-type]

        return build

    return draw


DRAWS = {
    "DetectionOutput": draw_detection_output,
    "Proposal": draw_proposal,
    "MulticlassNms": draw_multiclass_nms,
    "MatrixNms": draw_matrix_nms,
    "GatherTree": draw_gather_tree,
    "GenerateProposals": draw_generate_proposals,
    "ExperimentalDetectronGenerateProposalsSingleImage": draw_experimental_proposals,
    "ExperimentalDetectronDetectionOutput": draw_experimental_detection_output,
}


def _cases() -> list:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, version) in zip(
        ("da", "db", "pa", "pb", "ma", "mb", "xa", "ga", "gp", "ep", "eo"), OPS.items(), strict=True
    ):
        cases += draw_cases(prefix, op, DRAWS[op.partition("-")[0]](version), rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["proposals cases (tests/differential/test_proposals.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case) -> None:
    check_valid(ops_runner, f"proposals{index}", BATCHES[index], case)


def test_every_op_version_has_a_hundred_cases() -> None:
    for op in OPS:
        assert sum(c.op == op for c in CASES) >= 100, op


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    """DetectionOutput's last dim (7), Proposal's boxes' (5) or MulticlassNms's and
    MatrixNms's (6), static in every case, plus one; GatherTree's first dim, in the batch's
    first case where it is static."""
    batch = ops_runner.ops_batch(f"proposals{index}", BATCHES[index])
    target = tmp_path / "dim.xml"
    axes = {"DetectionOutput": 3, "GatherTree": 0}
    case = next(
        c
        for c in BATCHES[index]
        if dim_mutant(batch.xml, target, c.cid, axis=axes.get(c.op.partition("-")[0], 1))
    )
    assert openvino_reads(target) is None  # OpenVINO ignores declared dims
    codes = {d.code for d in errors_on(irshape.check_file(target), case.cid)}
    assert codes == {"IRS301"}, codes


def _detection_output(version: int, five: bool = False, **extra: object) -> Build:
    """2 images, 3 priors, 4 classes, shared locations, normalized: [2, 12], [2, 12], [1, 2, 12]
    (and [2, 6], [2, 12])."""
    attrs: dict[str, object] = {"keep_top_k": [10], "nms_threshold": 0.5, "normalized": True, **extra}
    if version == 1:
        attrs["num_classes"] = 4

    def build() -> ov.Node:
        shapes = [[2, 12], [2, 12], [1, 2, 12], [2, 6], [2, 12]][: 5 if five else 3]
        ins = named_inputs(*(parameter(s) for s in shapes))
        maker = ov1 if version == 1 else ov8
        return maker.detection_output(*ins[:3], attrs, *ins[3:])  # type: ignore[arg-type]

    return build


def _mutants(version: int) -> list[Mutant]:
    name = f"DetectionOutput-{version}"
    base, five = _detection_output(version), _detection_output(version, five=True)
    found = [
        Mutant(f"{name} box logits rank", base, set_input_shape(0, [2, 12, 1]), "IRS211"),
        Mutant(f"{name} class preds rank", base, set_input_shape(1, [24]), "IRS211"),
        Mutant(f"{name} proposals rank", base, set_input_shape(2, [2, 12]), "IRS211"),
        Mutant(f"{name} box logits not 4 a prior", base, set_input_shape(0, [2, 13]), "IRS212"),
        Mutant(f"{name} class preds count", base, set_input_shape(1, [2, 13]), "IRS212"),
        Mutant(f"{name} class preds batch", base, set_input_shape(1, [3, 12]), "IRS212"),
        Mutant(f"{name} proposals batch", base, set_input_shape(2, [3, 2, 12]), "IRS212"),
        Mutant(f"{name} proposals rows", base, set_input_shape(2, [1, 3, 12]), "IRS212"),
        Mutant(f"{name} proposals size", base, set_input_shape(2, [1, 2, 13]), "IRS212"),
        Mutant(f"{name} aux class preds", five, set_input_shape(3, [2, 7]), "IRS212"),
        Mutant(f"{name} aux class preds batch", five, set_input_shape(3, [3, 6]), "IRS212"),
        Mutant(f"{name} aux box preds", five, set_input_shape(4, [2, 16]), "IRS212"),
        Mutant(f"{name} aux class preds rank", five, set_input_shape(3, [2, 6, 1]), "IRS211"),
        Mutant(f"{name} integer box logits", base, set_input_type(0, "i32", "I32"), "IRS213"),
        Mutant(f"{name} class preds of another type", base, set_input_type(1, "f16", "FP16"), "IRS213"),
        Mutant(f"{name} integer proposals", base, set_input_type(2, "i64", "I64"), "IRS213"),
        Mutant(f"{name} aux class preds type", five, set_input_type(3, "f16", "FP16"), "IRS213"),
        Mutant(f"{name} aux box preds type", five, set_input_type(4, "f16", "FP16"), "IRS213"),
        Mutant(
            f"{name} code_type",
            base,
            set_attribute("code_type", "caffe.PriorBoxParameter.CORNER_SIZE"),
            "IRS112",
        ),
    ]
    if version == 1:
        found += [
            Mutant(f"{name} num_classes 0", base, set_attribute("num_classes", "0"), "IRS112"),
            Mutant(f"{name} num_classes 5", base, set_attribute("num_classes", "5"), "IRS212"),
        ]
    else:
        found.append(
            Mutant(f"{name} proposals not 4 a prior", base, set_input_shape(2, [1, 2, 14]), "IRS212")
        )
    return found


def _proposal(version: int) -> Build:
    """Batch 2, 3 anchors on a 4 x 5 map: [2, 6, 4, 5], [2, 12, 4, 5], [3]."""
    rng = random.Random(1)
    attrs = _proposal_attrs(rng) | {
        "ratio": np.array([1.0], np.float32),
        "scale": np.array([4.0, 8.0, 16.0], np.float32),
    }

    def build() -> ov.Node:
        ins = named_inputs(parameter([2, 6, 4, 5]), parameter([2, 12, 4, 5]), parameter([3]))
        return (ov1 if version == 1 else ov4).proposal(*ins, attrs)  # type: ignore[arg-type]

    return build


def _proposal_mutants(version: int) -> list[Mutant]:
    name, base = f"Proposal-{version}", _proposal(version)
    return [
        Mutant(f"{name} class probs rank", base, set_input_shape(0, [2, 6, 4]), "IRS211"),
        Mutant(f"{name} box deltas rank", base, set_input_shape(1, [2, 12, 4, 5, 1]), "IRS211"),
        Mutant(f"{name} image shape rank", base, set_input_shape(2, [1, 3]), "IRS212"),
        Mutant(f"{name} image shape of 5", base, set_input_shape(2, [5]), "IRS212"),
        Mutant(f"{name} image shape of 2", base, set_input_shape(2, [2]), "IRS212"),
        Mutant(f"{name} anchors", base, set_input_shape(1, [2, 10, 4, 5]), "IRS212"),
        Mutant(f"{name} batch", base, set_input_shape(1, [3, 12, 4, 5]), "IRS212"),
        Mutant(f"{name} integer class probs", base, set_input_type(0, "i32", "I32"), "IRS213"),
        Mutant(f"{name} integer box deltas", base, set_input_type(1, "i64", "I64"), "IRS213"),
        Mutant(f"{name} integer image shape", base, set_input_type(2, "i32", "I32"), "IRS213"),
    ]


def _matrix_mutants() -> list[Mutant]:
    def base() -> ov.Node:
        return ov8.matrix_nms(*named_inputs(parameter([2, 10, 4]), parameter([2, 3, 10])))

    name = "MatrixNms-8"
    return [
        Mutant(f"{name} boxes rank", base, set_input_shape(0, [2, 10]), "IRS211"),
        Mutant(f"{name} scores rank", base, set_input_shape(1, [2, 30]), "IRS211"),
        Mutant(f"{name} batches", base, set_input_shape(1, [3, 3, 10]), "IRS212"),
        Mutant(f"{name} box count", base, set_input_shape(1, [2, 3, 9]), "IRS212"),
        Mutant(f"{name} box size", base, set_input_shape(0, [2, 10, 3]), "IRS212"),
        Mutant(f"{name} integer scores", base, set_input_type(1, "i32", "I32"), "IRS213"),
        Mutant(f"{name} scores of another type", base, set_input_type(1, "bf16", "BF16"), "IRS213"),
        Mutant(f"{name} output_type u8", base, set_attribute("output_type", "u8"), "IRS112"),
        Mutant(f"{name} nms_top_k -3", base, set_attribute("nms_top_k", "-3"), "IRS112"),
        Mutant(f"{name} keep_top_k -2", base, set_attribute("keep_top_k", "-2"), "IRS112"),
        Mutant(f"{name} background_class -4", base, set_attribute("background_class", "-4"), "IRS112"),
        Mutant(f"{name} decay_function", base, set_attribute("decay_function", "cosine"), "IRS112"),
    ]


def _gather_tree_mutants() -> list[Mutant]:
    def base() -> ov.Node:
        ins = named_inputs(parameter([4, 2, 3]), parameter([4, 2, 3]), parameter([2]), parameter([]))
        return ov1.gather_tree(*ins)

    name = "GatherTree-1"
    return [
        Mutant(f"{name} parents of another shape", base, set_input_shape(1, [4, 2, 4]), "IRS212"),
        Mutant(f"{name} rank 2", base, set_input_shape(0, [4, 6]), "IRS212"),
        Mutant(f"{name} max_seq_len rank", base, set_input_shape(2, [2, 1]), "IRS211"),
        Mutant(f"{name} max_seq_len length", base, set_input_shape(2, [3]), "IRS212"),
        Mutant(f"{name} end_token not a scalar", base, set_input_shape(3, [1]), "IRS211"),
        Mutant(f"{name} types differ", base, set_input_type(2, "i32", "I32"), "IRS213"),
        Mutant(f"{name} boolean", base, _all_types("boolean", "BOOL"), "IRS213"),
    ]


def _generate_proposals_mutants() -> list[Mutant]:
    def base() -> ov.Node:
        ins = named_inputs(
            parameter([2, 3]), parameter([4, 5, 3, 4]), parameter([2, 12, 4, 5]), parameter([2, 3, 4, 5])
        )
        return ov9.generate_proposals(*ins, 1.0, 0.7, 100, 20)

    name = "GenerateProposals-9"
    return [
        Mutant(f"{name} im_info rank", base, set_input_shape(0, [2, 3, 1]), "IRS211"),
        Mutant(f"{name} im_info of 5", base, set_input_shape(0, [2, 5]), "IRS212"),
        Mutant(f"{name} anchors rank", base, set_input_shape(1, [20, 3, 4]), "IRS211"),
        Mutant(f"{name} anchors of 5", base, set_input_shape(1, [4, 5, 3, 5]), "IRS212"),
        Mutant(f"{name} deltas batch", base, set_input_shape(2, [3, 12, 4, 5]), "IRS212"),
        Mutant(f"{name} deltas anchors", base, set_input_shape(2, [2, 8, 4, 5]), "IRS212"),
        Mutant(f"{name} scores height", base, set_input_shape(3, [2, 3, 5, 5]), "IRS212"),
        Mutant(f"{name} anchors width", base, set_input_shape(1, [4, 6, 3, 4]), "IRS212"),
        Mutant(f"{name} im_info batch", base, set_input_shape(0, [3, 3]), "IRS212"),
        Mutant(f"{name} post_nms_count 0", base, set_attribute("post_nms_count", "0"), "IRS112"),
        Mutant(f"{name} pre_nms_count 0", base, set_attribute("pre_nms_count", "0"), "IRS112"),
        Mutant(f"{name} nms_eta", base, set_attribute("nms_eta", "0.5"), "IRS112"),
        Mutant(f"{name} roi_num_type f32", base, set_attribute("roi_num_type", "f32"), "IRS112"),
    ]


def _experimental_mutants() -> list[Mutant]:
    def base() -> ov.Node:
        ins = named_inputs(parameter([3]), parameter([60, 4]), parameter([12, 4, 5]), parameter([3, 4, 5]))
        attrs = {"min_size": 0.0, "nms_threshold": 0.7, "post_nms_count": 10, "pre_nms_count": 100}
        return FACTORY.create(
            "ExperimentalDetectronGenerateProposalsSingleImage", [i.output(0) for i in ins], attrs
        )

    name = "ExperimentalDetectronGenerateProposalsSingleImage-6"
    return [
        Mutant(f"{name} im_info rank", base, set_input_shape(0, [1, 3]), "IRS211"),
        Mutant(f"{name} im_info of 4", base, set_input_shape(0, [4]), "IRS212"),
        Mutant(f"{name} anchors of 5", base, set_input_shape(1, [60, 5]), "IRS212"),
        Mutant(f"{name} deltas rank", base, set_input_shape(2, [1, 12, 4, 5]), "IRS211"),
        Mutant(f"{name} scores height", base, set_input_shape(3, [3, 5, 5]), "IRS212"),
        Mutant(f"{name} scores width", base, set_input_shape(3, [3, 4, 6]), "IRS212"),
        Mutant(f"{name} f16 anchors", base, set_input_type(1, "f16", "FP16"), "IRS213"),
        Mutant(f"{name} integer scores", base, set_input_type(3, "i32", "I32"), "IRS213"),
    ]


def _experimental_detection_mutants() -> list[Mutant]:
    def base() -> ov.Node:
        ins = named_inputs(parameter([10, 4]), parameter([10, 20]), parameter([10, 5]), parameter([1, 3]))
        attrs = _edo_attrs(random.Random(0), 5)
        return FACTORY.create("ExperimentalDetectronDetectionOutput", [i.output(0) for i in ins], attrs)

    name = "ExperimentalDetectronDetectionOutput-6"
    return [
        Mutant(f"{name} rois rank", base, set_input_shape(0, [10, 4, 1]), "IRS211"),
        Mutant(f"{name} rois of 5", base, set_input_shape(0, [10, 5]), "IRS212"),
        Mutant(f"{name} deltas of another class count", base, set_input_shape(1, [10, 24]), "IRS212"),
        Mutant(f"{name} scores of another class count", base, set_input_shape(2, [10, 6]), "IRS212"),
        Mutant(f"{name} im_info", base, set_input_shape(3, [2, 3]), "IRS212"),
        Mutant(f"{name} box counts", base, set_input_shape(2, [11, 5]), "IRS212"),
        Mutant(f"{name} num_classes", base, set_attribute("num_classes", "4"), "IRS212"),
        Mutant(f"{name} f16 scores", base, set_input_type(2, "f16", "FP16"), "IRS213"),
    ]


def _all_types(element_type: str, precision: str) -> Callable[[object, str], None]:
    edits = [set_input_type(port, element_type, precision) for port in range(4)]

    def edit(tree: object, cid: str) -> None:
        for one in edits:
            one(tree, cid)

    return edit


def _multiclass(version: int, rois: bool = False, **options: object) -> Build:
    """Boxes [2, 10, 4], scores [2, 3, 10]; with roisnum: [3, 10, 4], [3, 10], [2]."""

    def build() -> ov.Node:
        if rois:
            ins = named_inputs(parameter([3, 10, 4]), parameter([3, 10]), parameter([2], np.int32))
            return ov9.multiclass_nms(*ins, **options)  # type: ignore[arg-type]
        ins = named_inputs(parameter([2, 10, 4]), parameter([2, 3, 10]))
        return (ov8 if version == 8 else ov9).multiclass_nms(*ins, **options)  # type: ignore[arg-type]

    return build


def _multiclass_mutants(version: int) -> list[Mutant]:
    name, base = f"MulticlassNms-{version}", _multiclass(version)
    found = [
        Mutant(f"{name} boxes rank", base, set_input_shape(0, [2, 10]), "IRS211"),
        Mutant(f"{name} scores rank", base, set_input_shape(1, [2, 3, 10, 1]), "IRS211"),
        Mutant(f"{name} batches", base, set_input_shape(1, [3, 3, 10]), "IRS212"),
        Mutant(f"{name} box count", base, set_input_shape(1, [2, 3, 11]), "IRS212"),
        Mutant(f"{name} box size", base, set_input_shape(0, [2, 10, 5]), "IRS212"),
        Mutant(f"{name} integer boxes", base, set_input_type(0, "i32", "I32"), "IRS213"),
        Mutant(f"{name} f64 scores", base, set_input_type(1, "f64", "FP64"), "IRS213"),
        Mutant(f"{name} scores of another type", base, set_input_type(1, "f16", "FP16"), "IRS213"),
        Mutant(f"{name} output_type f32", base, set_attribute("output_type", "f32"), "IRS112"),
        Mutant(f"{name} nms_top_k -2", base, set_attribute("nms_top_k", "-2"), "IRS112"),
        Mutant(f"{name} keep_top_k -5", base, set_attribute("keep_top_k", "-5"), "IRS112"),
        Mutant(f"{name} background_class -2", base, set_attribute("background_class", "-2"), "IRS112"),
        Mutant(f"{name} nms_eta 1.5", base, set_attribute("nms_eta", "1.5"), "IRS112"),
        Mutant(f"{name} sort_result_type", base, set_attribute("sort_result_type", "area"), "IRS112"),
    ]
    if version == 9:
        rois = _multiclass(9, rois=True)
        found += [
            Mutant(f"{name} rois scores rank", rois, set_input_shape(1, [3, 10, 1]), "IRS211"),
            Mutant(f"{name} roisnum rank", rois, set_input_shape(2, [2, 1]), "IRS211"),
            Mutant(f"{name} rois classes", rois, set_input_shape(1, [4, 10]), "IRS212"),
            Mutant(f"{name} rois box count", rois, set_input_shape(1, [3, 11]), "IRS212"),
            Mutant(f"{name} real roisnum", rois, set_input_type(2, "f32", "FP32"), "IRS213"),
        ]
    return found


MUTANTS = (
    [m for v in (1, 8) for m in _mutants(v)]
    + [m for v in (1, 4) for m in _proposal_mutants(v)]
    + [m for v in (8, 9) for m in _multiclass_mutants(v)]
    + _matrix_mutants()
    + _gather_tree_mutants()
    + _generate_proposals_mutants()
    + _experimental_mutants()
    + _experimental_detection_mutants()
)
STATS["proposals mutants"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
