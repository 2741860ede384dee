"""Proposal and detection post-processing ops: DetectionOutput-1/8, Proposal-1/4,
MulticlassNms-8/9, MatrixNms-8, GatherTree-1, GenerateProposals-9,
ExperimentalDetectronGenerateProposalsSingleImage-6 and ExperimentalDetectronDetectionOutput-6, as
OpenVINO's
``<op>_shape_inference.hpp`` and the ops' ``validate_and_infer_types`` compute them.

Proposal's boxes are ``[batch * post_nms_topn, 5]`` (Proposal-4 adds their scores,
``[batch * post_nms_topn]``), the batch being the class probabilities' and box deltas' first
dims merged; ``image_shape`` must be one dim that can be 3 or 4 (OpenVINO 2026's rule, read by
experiment: an interval ``2..5`` passes, ``5..8`` fails).

DetectionOutput's output is ``[1, 1, N, 7]`` (one row a detection: image, label, score and the
box's corners). ``N`` is ``num_images * keep_top_k[0]`` when ``keep_top_k[0] > 0``, else
``num_images * top_k * num_classes`` when ``keep_top_k[0] == -1`` and ``top_k > 0``, else
``num_images * num_prior_boxes * num_classes``. DetectionOutput-1 takes ``num_classes`` from
its attribute; DetectionOutput-8 deduces it (and the number of prior boxes) from the inputs'
static dims: the proposals' last dim over the prior size (4 normalized, else 5) or the
additional class predictions' over 2, then the class predictions' over the priors, or the box
logits' over ``4 * priors`` (without shared locations). The checks run in OpenVINO's order and
the first failure stops it; messages are OpenVINO's.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import compatible, merge_shapes
from irshape.shapes.detection import NMS_FLOATS, batch_and_box_findings, last_dim_finding, max_length
from irshape.shapes.findings import (
    attribute_finding,
    incompatible,
    index_type_findings,
    is_real,
    rank_finding,
    type_finding,
)

BOX_LOGITS, CLASS_PREDS, PROPOSALS, AUX_CLASS_PREDS, AUX_BOX_PREDS = range(5)
_CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")


class _Rejected(Exception):
    """OpenVINO's first failed check: the layer is rejected with this finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.args.get("ov_message", ""))
        self.finding = finding


def _check(condition: bool, finding: Finding) -> None:
    if not condition:
        raise _Rejected(finding)


def _rank(port: int, name: str, shape: PartialShape, rank: int, ov_message: str) -> None:
    if shape.rank is not None and shape.rank != rank:
        raise _Rejected(rank_finding(port, name, shape, f"where OpenVINO needs rank {rank}", ov_message))


def _dims(problem: str, ov_message: str) -> Finding:
    return incompatible(problem, ov_message)


def detection_output(call: OpCall) -> OpResult:
    """DetectionOutput-1 and DetectionOutput-8."""
    try:
        _attributes(call)
        _element_types(call)
        count = len(call.inputs)
        _check(
            count in (3, 5),
            Finding(
                rules.INPUT_COUNT,
                {
                    "op": call.schema.name,
                    "expected_count": "3 or 5",
                    "count": count,
                    "consequence": "; OpenVINO rejects the layer "
                    "(\"Check '(input_shapes.size() == 3 || input_shapes.size() == 5)' failed\")",
                },
            ),
        )
        rows = _detections(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    shape = PartialShape([Dim.of(1), Dim.of(1), rows, Dim.of(7)])
    return OpResult([Output(shape, call.inputs[BOX_LOGITS].element_type)])


def _attributes(call: OpCall) -> None:
    if call.schema.version == 1:
        message = "Number of classes must be greater than zero"
        _check(
            int(call.attribute("num_classes")) > 0,
            attribute_finding(call, "num_classes", "is not > 0", message),
        )
    # OpenVINO's reader takes keep_top_k[0] of the list it read: of none (the attribute missing
    # or empty) it crashes (SIGSEGV, by experiment), where irshape's inference would go on
    written = call.attributes.texts.get("keep_top_k", "")
    _check(
        written != "",  # (" ", ",": not a list of integers, IRS104 as OpenVINO fails parsing them)
        attribute_finding(
            call,
            "keep_top_k",
            "is missing or empty",
            "none: its reader crashes (SIGSEGV) reading keep_top_k[0] of an empty list",
            value=written,
        ),
    )
    code_type = str(call.attribute("code_type"))
    message = (
        'code_type must be either "caffe.PriorBoxParameter.CORNER" or "caffe.PriorBoxParameter.CENTER_SIZE"'
    )
    _check(
        code_type in _CODE_TYPES, attribute_finding(call, "code_type", "is not a Caffe code type", message)
    )


def _element_types(call: OpCall) -> None:
    """``validate_base``: real box logits and proposals, class predictions of the box logits'
    type, the additional inputs of their counterparts' types."""
    types = [tensor.element_type for tensor in call.inputs]
    logits, classes = types[BOX_LOGITS], types[CLASS_PREDS]

    def require(condition: bool, port: int, message: str) -> None:
        if None in (types[port], logits, classes):  # unknown: no verdict
            return
        _check(condition, type_finding(f"input {port} has element type {types[port]}", message, port))

    require(is_real(logits), BOX_LOGITS, f"Box logits' data type must be floating point. Got {logits}")
    require(
        classes == logits,
        CLASS_PREDS,
        f"Class predictions' data type must be the same as box logits type ({logits}). Got {classes}",
    )
    proposals = types[PROPOSALS]
    require(is_real(proposals), PROPOSALS, f"Proposals' data type must be floating point. Got {proposals}")
    if len(types) == 5:
        aux_class, aux_box = types[AUX_CLASS_PREDS], types[AUX_BOX_PREDS]
        require(
            aux_class == classes,
            AUX_CLASS_PREDS,
            "Additional class predictions' data type must be the same as class predictions data type "
            f"({classes}). Got {aux_class}",
        )
        require(
            aux_box == logits,
            AUX_BOX_PREDS,
            f"Additional box predictions' data type must be the same as box logits data type ({logits}). "
            f"Got {aux_box}",
        )


class _Counts:
    """What the shape inference learns as it goes: the numbers of classes and prior boxes (0:
    not known yet) and the number of images."""

    def __init__(self, num_classes: int) -> None:
        self.classes = num_classes
        self.priors = 0
        self.images = DYNAMIC
        self.images_known = False


def _static(shape: PartialShape, axis: int) -> int | None:
    """The length of a static dim of a shape of static rank, else None."""
    if shape.dims is None or not shape.dims[axis].is_static:
        return None
    return shape.dims[axis].value


def _detections(call: OpCall) -> Dim:
    shapes = [tensor.shape for tensor in call.inputs]
    share_location = bool(call.attribute("share_location"))
    prior_size = 4 if call.attribute("normalized") else 5
    counts = _Counts(int(call.attribute("num_classes")) if call.schema.version == 1 else 0)
    if call.schema.version == 8:
        _deduce_classes(shapes, counts, share_location, prior_size)
    _box_logits(shapes[BOX_LOGITS], counts, share_location)
    _class_preds(shapes[CLASS_PREDS], counts)
    _proposals(shapes[PROPOSALS], counts, prior_size, bool(call.attribute("variance_encoded_in_target")))
    if len(shapes) == 5:
        _additional(shapes, counts)
    keep_top_k = call.attributes.int_list("keep_top_k") or (-1,)  # (unparsable: IRS104)
    top_k = int(call.attribute("top_k"))
    classes = Dim.of(counts.classes) if counts.classes else DYNAMIC
    if keep_top_k[0] > 0:
        return counts.images * keep_top_k[0]
    if keep_top_k[0] == -1 and top_k > 0:
        return counts.images * top_k * classes
    priors = Dim.of(counts.priors) if counts.priors else DYNAMIC
    return counts.images * priors * classes


def _deduce_classes(
    shapes: list[PartialShape], counts: _Counts, share_location: bool, prior_size: int
) -> None:
    """DetectionOutput-8 (``compute_num_classes``): the prior boxes, then the classes, from the
    first static dims that tell them."""
    logits, classes, proposals = shapes[BOX_LOGITS], shapes[CLASS_PREDS], shapes[PROPOSALS]
    _rank(BOX_LOGITS, "box_logits", logits, 2, f"Box logits rank must be 2. Got {logits.rank}")
    _rank(CLASS_PREDS, "class_preds", classes, 2, f"Class predictions rank must be 2. Got {classes.rank}")
    _rank(PROPOSALS, "proposals", proposals, 3, f"Proposals rank must be 3. Got {proposals.rank}")
    five = len(shapes) == 5
    if five:
        aux_class, aux_box = shapes[AUX_CLASS_PREDS], shapes[AUX_BOX_PREDS]
        _rank(
            3,
            "aux_class_preds",
            aux_class,
            2,
            f"Additional class predictions rank must be 2. Got {aux_class.rank}",
        )
        _rank(
            4, "aux_box_preds", aux_box, 2, f"Additional box predictions rank must be 2. Got {aux_box.rank}"
        )
    length = _static(proposals, 2)
    if length is not None:
        _check(
            length % prior_size == 0,
            _dims(
                f"the proposals' last dim {length} is not a multiple of the prior size {prior_size}",
                f"Proposals' third dimension must be a multiply of prior_box_size ({prior_size}). "
                f"Current value is: {length}.",
            ),
        )
        counts.priors = length // prior_size
        _priors_positive(counts.priors)
    length = _static(shapes[AUX_CLASS_PREDS], 1) if five else None
    if counts.priors == 0 and length is not None:
        _check(
            length % 2 == 0,
            _dims(
                f"the additional class predictions' second dim {length} is odd",
                "Additional class predictions second dimension must be a multiply of 2. "
                f"Current value is: {length}.",
            ),
        )
        counts.priors = length // 2
        _priors_positive(counts.priors)
    if counts.priors == 0:
        return
    length = _static(classes, 1)
    if length is not None:
        _check(
            length % counts.priors == 0,
            _dims(
                f"the class predictions' second dim {length} is not a multiple of {counts.priors} priors",
                "Class predictions second dimension must be a multiply of num_prior_boxes "
                f"({counts.priors}). Current value is: {length}.",
            ),
        )
        counts.classes = length // counts.priors
        return
    if share_location:
        return
    for port, label in ((BOX_LOGITS, "Box logits"), (AUX_BOX_PREDS, "Additional box predictions")):
        length = _static(shapes[port], 1) if port < len(shapes) else None
        if length is None:
            continue
        size = counts.priors * 4
        _check(
            length % size == 0,
            _dims(
                f"input {port}'s second dim {length} is not a multiple of {size} (4 a prior box)",
                f"{label} second dimension must be a multiply of num_prior_boxes * 4 ({size}). "
                f"Current value is: {length}.",
            ),
        )
        counts.classes = length // size
        return


def _priors_positive(priors: int) -> None:
    _check(
        priors > 0,
        _dims("no prior box", f"A number of prior boxes must be greater zero. Got: {priors}"),
    )


def _box_logits(logits: PartialShape, counts: _Counts, share_location: bool) -> None:
    if logits.dims is None:
        return
    _rank(BOX_LOGITS, "box_logits", logits, 2, f"Box logits rank must be 2. Got {logits.rank}")
    counts.images, counts.images_known = logits.dims[0], True
    loc_classes = 1 if share_location else counts.classes
    length = _static(logits, 1)
    if not counts.priors and length is not None:
        _check(
            loc_classes != 0 and length % (loc_classes * 4) == 0,
            _dims(
                f"the box logits' second dim {length} is not a multiple of {loc_classes * 4}",
                "Box logits' second dimension must be a multiply of num_loc_classes * 4 "
                f"({loc_classes * 4}). Current value is: {length}.",
            ),
        )
        counts.priors = length // (loc_classes * 4)
    if counts.priors > 0 and loc_classes > 0:
        expected = counts.priors * loc_classes * 4
        _check(
            logits.dims[1].compatible(Dim.of(expected)),
            _dims(
                f"the box logits {logits} are not {expected} numbers an image",
                "The second dimension of the first input (box logits) is not compatible. Current value: "
                f"{logits.dims[1]}, expected value: {expected}",
            ),
        )


def _class_preds(classes: PartialShape, counts: _Counts) -> None:
    if classes.dims is None:
        return
    _rank(CLASS_PREDS, "class_preds", classes, 2, f"Class predictions rank must be 2. Got {classes.rank}")
    images = classes.dims[0]
    if (not counts.images_known or not counts.images.is_static) and images.is_static:
        counts.images, counts.images_known = images, True
    else:
        _check(
            images.compatible(counts.images),
            _dims(
                f"the class predictions {classes} are not of {counts.images} images",
                "Class predictions' first dimension is not compatible with batch size.  Current value is: "
                f"{images}, expected: {counts.images}.",
            ),
        )
    length = _static(classes, 1)
    if length is None or not counts.classes:
        return
    if not counts.priors:
        _check(
            length % counts.classes == 0,
            _dims(
                f"the class predictions' second dim {length} is not a multiple of {counts.classes} classes",
                f"Class predictions' second dimension must be a multiply of num_classes ({counts.classes}). "
                f"Current value is: {length}.",
            ),
        )
        counts.priors = length // counts.classes
        return
    expected = counts.priors * counts.classes
    _check(
        length == expected,
        _dims(
            f"the class predictions' second dim {length} is not {counts.priors} * {counts.classes}",
            "Class predictions' second dimension must be equal to num_prior_boxes * num_classes "
            f"({expected}). Current value is: {length}.",
        ),
    )


def _proposals(proposals: PartialShape, counts: _Counts, prior_size: int, variance_in_target: bool) -> None:
    if proposals.dims is None:
        return
    _rank(PROPOSALS, "proposals", proposals, 3, f"Proposals rank must be 3. Got {proposals.rank}")
    first, second = proposals.dims[0], proposals.dims[1]
    _check(
        first.compatible(Dim.of(1)) or first.compatible(counts.images),
        _dims(
            f"the proposals {proposals} are neither of one image nor of {counts.images}",
            f"Proposals' first dimension is must be equal to either batch size ({counts.images}) or 1. "
            f"Got: {first}.",
        ),
    )
    expected = 1 if variance_in_target else 2
    _check(
        second.compatible(Dim.of(expected)),
        _dims(
            f"the proposals {proposals} have not {expected} rows",
            f"Proposals' second dimension is mismatched. Current value is: {second}, expected: {expected}.",
        ),
    )
    length = _static(proposals, 2)
    if length is None:
        return
    if not counts.priors:
        _check(
            length % prior_size == 0,
            _dims(
                f"the proposals' last dim {length} is not a multiple of the prior size {prior_size}",
                f"Proposals' third dimension must be a multiply of prior_box_size ({prior_size}). "
                f"Current value is: {length}.",
            ),
        )
        counts.priors = length // prior_size
        return
    expected = counts.priors * prior_size
    _check(
        length == expected,
        _dims(
            f"the proposals' last dim {length} is not {counts.priors} priors * {prior_size}",
            "Proposals' third dimension must be equal to num_prior_boxes * prior_box_size "
            f"({expected}). Current value is: {length}.",
        ),
    )


def _additional(shapes: list[PartialShape], counts: _Counts) -> None:
    aux_class, aux_box, logits = shapes[AUX_CLASS_PREDS], shapes[AUX_BOX_PREDS], shapes[BOX_LOGITS]
    if aux_class.dims is not None:
        _rank(
            3,
            "aux_class_preds",
            aux_class,
            2,
            f"additional class predictions rank must be 2. Got {aux_class.rank}",
        )
        _check(
            aux_class.dims[0].compatible(counts.images),
            _dims(
                f"the additional class predictions {aux_class} are not of {counts.images} images",
                "Additional class predictions' first dimension must be compatible with batch size. "
                f"Current value is: {aux_class.dims[0]}, expected: {counts.images}.",
            ),
        )
        if counts.priors:
            _check(
                aux_class.dims[1].compatible(Dim.of(counts.priors * 2)),
                _dims(
                    f"the additional class predictions {aux_class} are not 2 numbers a prior box",
                    "Additional class predictions' second dimension must be compatible with "
                    "num_prior_boxes * 2. "
                    f"Current value is: {aux_class.dims[1]}, expected: {counts.priors * 2}.",
                ),
            )
        if aux_class.dims[1].is_static:
            counts.priors = aux_class.dims[1].value // 2
    _check(
        compatible(aux_box, logits),
        _dims(
            f"the additional box predictions {aux_box} are not the box logits {logits}",
            "Additional box predictions' shape must be compatible with box logits shape. Current value is: "
            f"{aux_box}, expected: {logits}.",
        ),
    )


# --- Proposal-1/4 ---------------------------------------------------------------------------

CLASS_PROBS, BBOX_DELTAS, IMAGE_SHAPE = range(3)
_PROPOSAL_INPUTS = ("class_probs", "bbox_deltas", "image_shape")


def proposal(call: OpCall) -> OpResult:
    """Proposal-1 (``[batch * post_nms_topn, 5]``) and Proposal-4 (also the scores,
    ``[batch * post_nms_topn]``)."""
    try:
        _proposal_types(call)
        batch = _proposal_batch(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    rows = batch * int(call.attribute("post_nms_topn"))
    element_type = call.inputs[CLASS_PROBS].element_type
    outputs = [Output(PartialShape([rows, Dim.of(5)]), element_type)]
    if call.schema.version == 4:
        outputs.append(Output(PartialShape([rows]), element_type))
    return OpResult(outputs)


def _proposal_types(call: OpCall) -> None:
    for port, name in enumerate(_PROPOSAL_INPUTS):
        element_type = call.inputs[port].element_type
        if element_type is None or is_real(element_type):
            continue
        message = f"Proposal layer input {name} should have floating point type ({element_type})."
        raise _Rejected(type_finding(f"input {port} ({name}) has element type {element_type}", message, port))


def _proposal_batch(call: OpCall) -> Dim:
    """OpenVINO's checks of the three shapes, in its order; the batch (the class
    probabilities' and box deltas' first dims merged)."""
    probs, deltas, image = (tensor.shape for tensor in call.inputs)
    for port, shape in ((CLASS_PROBS, probs), (BBOX_DELTAS, deltas)):
        name = _PROPOSAL_INPUTS[port]
        _rank(port, name, shape, 4, f"Proposal layer shape {name} should be rank 4 compatible ({shape}).")
    if image.dims is not None and (len(image.dims) != 1 or not image.dims[0].compatible(Dim.between(3, 4))):
        message = f"Image_shape must be 1-D tensor and has got 3 or 4 elements (image_shape_shape[0]{image})."
        raise _Rejected(incompatible(f"the image shape {image} is not 3 or 4 numbers", message, IMAGE_SHAPE))
    if probs.dims is None or deltas.dims is None:
        known = probs if probs.dims is not None else deltas
        return DYNAMIC if known.dims is None else known.dims[0]
    anchors = probs.dims[1] * 2
    _check(
        deltas.dims[1].compatible(anchors),
        _dims(
            f"the box deltas {deltas} are not 4 numbers an anchor of the class probabilities {probs}",
            f"Anchor number inconsistent between class_probs ({anchors}), "
            f"and bbox_deltas ({deltas.dims[1]}).",
        ),
    )
    _check(
        probs.dims[0].compatible(deltas.dims[0]),
        _dims(
            f"the class probabilities {probs} and box deltas {deltas} have other batches",
            f"Batch size inconsistent between class_probs ({probs.dims[0]}) "
            f"and bbox deltas ({deltas.dims[0]}).",
        ),
    )
    return probs.dims[0] & deltas.dims[0]


# --- MulticlassNms-8/9 ----------------------------------------------------------------------

BOXES, SCORES, ROISNUM = range(3)


def multiclass_nms(call: OpCall) -> OpResult:
    """MulticlassNms-8 and MulticlassNms-9: ``[0..selected, 6]`` boxes, ``[0..selected, 1]``
    indices and ``[images]`` counts."""
    try:
        _multiclass_attributes(call)
        _multiclass_types(call)
        selected, images = _multiclass_selected(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    return _nms_outputs(call, selected, images)


def _multiclass_attributes(call: OpCall) -> None:
    findings = index_type_findings(call, "output_type", "Output type must be i32 or i64")
    if findings:
        raise _Rejected(findings[0])


def _multiclass_types(call: OpCall) -> None:
    """``MulticlassNmsBase::validate`` and ``MatrixNms::validate``: boxes and scores bf16, f16
    or f32 of one type, roisnum i32 or i64; then the attributes' ranges."""
    types = [tensor.element_type for tensor in call.inputs]
    for port, name in ((BOXES, "boxes"), (SCORES, "scores")):
        if types[port] is not None and types[port] not in NMS_FLOATS:
            message = f"Expected bf16, fp16 or fp32 as element type for the '{name}' input."
            raise _Rejected(
                type_finding(f"input {port} ({name}) has element type {types[port]}", message, port)
            )
    boxes, scores = types[BOXES], types[SCORES]
    if boxes not in (None, "dynamic") and scores not in (None, "dynamic", boxes):
        message = "Expected 'boxes', 'scores' type is same."
        raise _Rejected(type_finding(f"boxes are {boxes} and scores {scores}", message, SCORES))
    if len(types) == 3 and types[ROISNUM] not in (None, "i32", "i64"):
        message = "Expected i64 or i32 as element type for the 'roisnum' input."
        raise _Rejected(
            type_finding(f"input 2 (roisnum) has element type {types[ROISNUM]}", message, ROISNUM)
        )
    for name in ("nms_top_k", "keep_top_k", "background_class"):
        value = int(call.attribute(name))
        _check(
            value >= -1,
            attribute_finding(
                call, name, "is below -1", f"The '{name}' must be great or equal -1. Got:{value}"
            ),
        )
    if call.schema.op == "MatrixNms":
        return
    eta = float(call.attribute("nms_eta"))
    message = f"The 'nms_eta' must be in close range [0, 1.0]. Got:{eta:g}"
    _check(0.0 <= eta <= 1.0, attribute_finding(call, "nms_eta", "is not in [0, 1]", message))


def _multiclass_selected(call: OpCall) -> tuple[Dim, Dim]:
    """``multiclass_nms_shape_inference.hpp``: the selected boxes' upper bound and the number of
    images."""
    boxes, scores = call.inputs[BOXES].shape, call.inputs[SCORES].shape
    rois = call.inputs[ROISNUM].shape if len(call.inputs) == 3 else None
    _rank(BOXES, "boxes", boxes, 3, "Expected a 3D tensor for the 'boxes' input")
    if rois is not None:
        _rank(SCORES, "scores", scores, 2, "Expected a 2D tensor for the 'scores' input")
        _rank(ROISNUM, "roisnum", rois, 1, "Expected a 1D tensor for the 'roisnum' input")
    else:
        _rank(SCORES, "scores", scores, 3, "Expected a 3D tensor for the 'scores' input")
    if boxes.dims is None:
        return DYNAMIC, DYNAMIC
    if scores.dims is None:  # OpenVINO indexes the scores' dims all the same
        raise _Rejected(_dims(f"scores {scores} of unknown rank", "Accessing out-of-range dimension"))
    if rois is None:
        found = batch_and_box_findings(boxes, scores)
        if found:
            raise _Rejected(found[0])
    elif not boxes.dims[0].compatible(scores.dims[0]):
        raise _Rejected(
            _dims(
                f"boxes {boxes} and scores {scores} have other classes",
                "The first dimension of both 'boxes' and 'scores' must match.",
            )
        )
    found = last_dim_finding(boxes, False)
    if found:
        raise _Rejected(found[0])
    if rois is not None:
        _check(
            boxes.dims[1].compatible(scores.dims[1]),
            _dims(
                f"boxes {boxes} and scores {scores} have other numbers of boxes",
                "'boxes' and 'scores' input shapes must match at the second dimension respectively",
            ),
        )
        if rois.dims is None:
            return DYNAMIC, DYNAMIC
    classes = boxes.dims[0] if rois is not None else scores.dims[1]
    images = rois.dims[0] if rois is not None and rois.dims is not None else scores.dims[0]
    nms_top_k, keep_top_k = int(call.attribute("nms_top_k")), int(call.attribute("keep_top_k"))
    selected = Dim.of(min(max_length(boxes.dims[1]), nms_top_k)) if nms_top_k > -1 else boxes.dims[1]
    selected = selected * classes
    if keep_top_k > -1 and keep_top_k < max_length(selected):
        selected = Dim.of(keep_top_k)
    selected = selected * images
    counted = rois.dims[0] if rois is not None and rois.dims is not None else boxes.dims[0]
    return Dim.between(0, max_length(selected)), counted


# --- MatrixNms-8 ----------------------------------------------------------------------------


def _nms_outputs(call: OpCall, selected: Dim, images: Dim) -> OpResult:
    """MulticlassNms's and MatrixNms's three outputs: ``[selected, 6]`` boxes of the boxes'
    type, ``[selected, 1]`` indices and ``[images]`` counts of ``output_type``."""
    index_type = str(call.attribute("output_type"))
    return OpResult(
        [
            Output(PartialShape([selected, Dim.of(6)]), call.inputs[BOXES].element_type),
            Output(PartialShape([selected, Dim.of(1)]), index_type),
            Output(PartialShape([images]), index_type),
        ]
    )


def matrix_nms(call: OpCall) -> OpResult:
    """MatrixNms-8 (``matrix_nms_shape_inference.hpp``): as MulticlassNms-8, but the boxes an
    image keeps are ``keep_top_k`` at most whatever the number of classes and boxes."""
    try:
        _multiclass_attributes(call)
        _multiclass_types(call)
        selected, images = _matrix_selected(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    return _nms_outputs(call, selected, images)


def _matrix_selected(call: OpCall) -> tuple[Dim, Dim]:
    boxes, scores = call.inputs[BOXES].shape, call.inputs[SCORES].shape
    _rank(BOXES, "boxes", boxes, 3, "Expected a 3D tensor for the 'boxes' input")
    _rank(SCORES, "scores", scores, 3, "Expected a 3D tensor for the 'scores' input")
    if boxes.dims is None:
        return DYNAMIC, DYNAMIC
    nms_top_k, keep_top_k = int(call.attribute("nms_top_k")), int(call.attribute("keep_top_k"))
    selected = Dim.of(min(max_length(boxes.dims[1]), nms_top_k)) if nms_top_k > -1 else boxes.dims[1]
    if scores.dims is not None:
        found = batch_and_box_findings(boxes, scores)
        if found:
            raise _Rejected(found[0])
        selected = selected * scores.dims[1]
        if keep_top_k > -1:
            selected = Dim.of(min(max_length(selected), keep_top_k))
        selected = Dim.between(0, max_length(selected * scores.dims[0]))
    else:
        selected = DYNAMIC
    found = last_dim_finding(boxes, False)
    if found:
        raise _Rejected(found[0])
    return selected, boxes.dims[0]


# --- GatherTree-1 ---------------------------------------------------------------------------


def gather_tree(call: OpCall) -> OpResult:
    """GatherTree-1: ``step_ids`` merged with ``parent_idx`` (rank 3), its batch with
    ``max_seq_len``'s length; all four inputs of one numeric element type."""
    try:
        element_type = _gather_tree_type(call)
        shape = _gather_tree_shape(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    return OpResult([Output(shape, element_type)])


def _gather_tree_type(call: OpCall) -> str | None:
    types = [tensor.element_type for tensor in call.inputs]
    merged: str | None = "dynamic"
    for element_type in types:
        if element_type is None:
            merged = None if merged == "dynamic" else merged
            continue
        combined = element_types.merge(merged, element_type) if merged is not None else element_type
        if combined is None:
            names = ("step_ids", "parent_idx_et", "max_seq_len", "end_token")
            listed = ", ".join(f"{name} ({t})" for name, t in zip(names, types, strict=True))
            message = f"Inputs must have the same element type. Got: {listed}"
            raise _Rejected(type_finding("the inputs have other element types", message))
        merged = combined
    if merged is not None and merged != "dynamic" and (merged == "boolean" or merged not in _NUMERIC):
        message = f"Element type of inputs must be numeric. Got: {merged}"
        raise _Rejected(type_finding(f"the inputs are {merged}", message))
    return merged


_NUMERIC = element_types.INTEGRAL - {"string", "dynamic"} | {"f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2"}


def _gather_tree_shape(call: OpCall) -> PartialShape:
    steps, parents, lengths, end = (tensor.shape for tensor in call.inputs)
    merged = merge_shapes(steps, parents)
    if merged is None or (merged.rank is not None and merged.rank != 3):
        message = (
            "step_ids and parent_idx inputs must have the same shape with rank 3. "
            f"Got: {steps} and {parents}, respectively"
        )
        raise _Rejected(
            _dims(f"step_ids {steps} and parent_idx {parents} are not one shape of rank 3", message)
        )
    if lengths.rank is not None and lengths.rank != 1:
        raise _Rejected(
            rank_finding(
                2,
                "max_seq_len",
                lengths,
                "where OpenVINO needs rank 1",
                f"max_seq_len input must have rank 1. Got: {lengths}",
            )
        )
    if merged.dims is not None and lengths.dims is not None:
        batch = merged.dims[1] & lengths.dims[0]
        if batch.is_empty:
            message = (
                "Number of elements of max_seq_len input must match BATCH_SIZE dimension of "
                f"step_ids/parent_idx inputs. Got: {merged.dims[1]} and {lengths.dims[0]}, respectively"
            )
            raise _Rejected(_dims(f"max_seq_len {lengths} is not one number an item of {merged}", message))
        merged = PartialShape([merged.dims[0], batch, merged.dims[2]])
    if end.rank is not None and end.rank != 0:
        raise _Rejected(
            rank_finding(
                3,
                "end_token",
                end,
                "where OpenVINO needs a scalar",
                f"end_token input must be scalar. Got: {end}",
            )
        )
    return merged


# --- GenerateProposals-9 --------------------------------------------------------------------

IM_INFO, ANCHORS, DELTAS, GP_SCORES = range(4)


def generate_proposals(call: OpCall) -> OpResult:
    """GenerateProposals-9: ``[0..batch * post_nms_count, 4]`` boxes, as many scores, and
    ``[batch]`` counts (the batch merged from im_info, deltas and scores)."""
    try:
        _generate_attributes(call)
        batch = _generate_batch(call)
        findings = index_type_findings(call, "roi_num_type", "The third output type must be int64 or int32.")
        if findings:
            raise _Rejected(findings[0])
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    rows = Dim.between(0, max_length(batch * int(call.attribute("post_nms_count"))))
    element_type = call.inputs[IM_INFO].element_type
    return OpResult(
        [
            Output(PartialShape([rows, Dim.of(4)]), element_type),
            Output(PartialShape([rows]), element_type),
            Output(PartialShape([batch]), str(call.attribute("roi_num_type"))),
        ]
    )


def _generate_attributes(call: OpCall) -> None:
    for name in ("pre_nms_count", "post_nms_count"):
        message = f"Attribute {name} must be larger than 0."
        _check(int(call.attribute(name)) > 0, attribute_finding(call, name, "is not > 0", message))
    # (OpenVINO's message names min_size, but it is nms_eta it checks)
    message = "Attribute min_size must be 1.0."
    _check(float(call.attribute("nms_eta")) == 1.0, attribute_finding(call, "nms_eta", "is not 1", message))


def _generate_batch(call: OpCall) -> Dim:
    """``generate_proposals_shape_inference.hpp``'s checks in its order; the batch."""
    info, anchors, deltas, scores = (tensor.shape for tensor in call.inputs)
    batch = DYNAMIC
    _rank(IM_INFO, "im_info", info, 2, f"The 'input_im_info' input is expected to be a 2D. Got: {info}")
    if info.dims is not None:
        _check(
            info.dims[1].compatible(Dim.of(3)) or info.dims[1].compatible(Dim.of(4)),
            _dims(
                f"im_info {info} is not 3 or 4 numbers an image",
                f"The 'input_im_info' shape[1] is expected to be a compatible with [3] or [4]. Got: {info}",
            ),
        )
        batch = _merged(batch, info.dims[0])
    _rank(ANCHORS, "anchors", anchors, 4, f"The 'input_anchors' input is expected to be a 4D. Got: {anchors}")
    if anchors.dims is not None:
        _check(
            anchors.dims[3].compatible(Dim.of(4)),
            _dims(
                f"the anchors {anchors} are not 4 numbers each",
                "The fourth dimension of 'input_anchors' should be compatible with 4. "
                f"Got: {anchors.dims[3]}",
            ),
        )
    _rank(DELTAS, "deltas", deltas, 4, f"The 'input_deltas' input is expected to be a 4D. Got: {deltas}")
    _rank(GP_SCORES, "scores", scores, 4, f"The 'input_scores' input is expected to be a 4D. Got: {scores}")
    for shape in (deltas, scores):
        if shape.dims is not None:
            batch = _merged(batch, shape.dims[0])
    if deltas.dims is not None and scores.dims is not None:
        d, s = deltas.dims, scores.dims
        pairs = [
            (d[0], s[0], "Batch", "'input_deltas' and 'input_scores'"),
            (d[1], s[1] * 4, "Anchor number", "'input_deltas' and 'input_scores'"),
            (d[2], s[2], "Heights", "'input_deltas' and 'input_scores'"),
            (d[3], s[3], "Width", "'input_deltas' and 'input_scores'"),
        ]
        if info.dims is not None:
            pairs.append((d[0], info.dims[0], "Batch", "'im_info' and 'input_deltas'"))
        _pairs(pairs)
    if scores.dims is not None and anchors.dims is not None:
        a, s = anchors.dims, scores.dims
        _pairs(
            [
                (a[0], s[2], "Heights", "'input_anchors' and 'input_scores'"),
                (a[1], s[3], "Width", "'input_anchors' and 'input_scores'"),
                (a[2], s[1], "Anchor number", "'input_anchors' and 'input_scores'"),
            ]
        )
    return batch


def _merged(into: Dim, other: Dim) -> Dim:
    """``Dimension::merge``: the intersection, or ``into`` unchanged where there is none."""
    merged = into & other
    return into if merged.is_empty else merged


def _pairs(pairs: list[tuple[Dim, Dim, str, str]]) -> None:
    for first, second, what, inputs in pairs:
        _check(
            first.compatible(second),
            _dims(
                f"{what.lower()} {first} and {second} of {inputs} differ",
                f"{what} for inputs {inputs} should be equal. Got: ",
            ),
        )


# --- ExperimentalDetectronGenerateProposalsSingleImage-6 ------------------------------------


def experimental_generate_proposals(call: OpCall) -> OpResult:
    """ExperimentalDetectronGenerateProposalsSingleImage-6: ``[post_nms_count, 4]`` boxes and
    ``[post_nms_count]`` scores, of the inputs' one real element type."""
    try:
        element_type = _one_real_type(call)
        _experimental_shapes(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    rows = Dim.of(int(call.attribute("post_nms_count")))
    return OpResult(
        [Output(PartialShape([rows, Dim.of(4)]), element_type), Output(PartialShape([rows]), element_type)]
    )


def _one_real_type(call: OpCall) -> str | None:
    """Every input of one real element type, merged input by input (the first that breaks it
    is named)."""
    merged: str | None = "dynamic"
    for port, tensor in enumerate(call.inputs):
        if tensor.element_type is None or merged is None:
            merged = None
            continue
        combined = element_types.merge(merged, tensor.element_type)
        if combined is None or (combined != "dynamic" and not is_real(combined)):
            message = (
                f"Input[{port}] type '{tensor.element_type}' is not floating point "
                "or not same as others inputs."
            )
            raise _Rejected(
                type_finding(f"input {port} has element type {tensor.element_type}", message, port)
            )
        merged = combined
    return merged


def _experimental_shapes(call: OpCall) -> None:
    info, anchors, deltas, scores = (tensor.shape for tensor in call.inputs)
    _rank(IM_INFO, "im_info", info, 1, f"The 'input_im_info' input is expected to be a 1D. Got: {info}")
    _check(
        info.dims is None or info.dims[0].compatible(Dim.of(3)),
        _dims(
            f"im_info {info} is not 3 numbers",
            f"The 'input_im_info' shape is expected to be a compatible with [3]. Got: {info}",
        ),
    )
    _rank(ANCHORS, "anchors", anchors, 2, f"The 'input_anchors' input is expected to be a 2D. Got: {anchors}")
    if anchors.dims is not None:
        _check(
            anchors.dims[1].compatible(Dim.of(4)),
            _dims(
                f"the anchors {anchors} are not 4 numbers each",
                "The second dimension of 'input_anchors' should be compatible with 4. "
                f"Got: {anchors.dims[1]}",
            ),
        )
    _rank(DELTAS, "deltas", deltas, 3, f"The 'input_deltas' input is expected to be a 3D. Got: {deltas}")
    _rank(GP_SCORES, "scores", scores, 3, f"The 'input_scores' input is expected to be a 3D. Got: {scores}")
    if deltas.dims is not None and scores.dims is not None:
        _pairs(
            [
                (deltas.dims[1], scores.dims[1], "Heights", "'input_deltas' and 'input_scores'"),
                (deltas.dims[2], scores.dims[2], "Width", "'input_deltas' and 'input_scores'"),
            ]
        )


# --- ExperimentalDetectronDetectionOutput-6 -------------------------------------------------


def experimental_detection_output(call: OpCall) -> OpResult:
    """ExperimentalDetectronDetectionOutput-6: ``[max_detections_per_image, 4]`` boxes, as many
    i32 classes and scores."""
    try:
        element_type = _one_real_type(call)
        _experimental_detection_shapes(call)
    except _Rejected as rejected:
        return OpResult([], [rejected.finding])
    rows = Dim.of(int(call.attribute("max_detections_per_image")))
    return OpResult(
        [
            Output(PartialShape([rows, Dim.of(4)]), element_type),
            Output(PartialShape([rows]), "i32"),
            Output(PartialShape([rows]), element_type),
        ]
    )


def _experimental_detection_shapes(call: OpCall) -> None:
    rois, deltas, scores, info = (tensor.shape for tensor in call.inputs)
    classes = int(call.attribute("num_classes"))
    checks = (
        (0, "rois", rois, 4, "The last dimension of the 'input_rois' input must be compatible with 4. Got: "),
        (
            1,
            "deltas",
            deltas,
            classes * 4,
            "The last dimension of the 'input_deltas' input be compatible with the value of the attribute "
            "'num_classes' * 4. Got: ",
        ),
        (
            2,
            "scores",
            scores,
            classes,
            "The last dimension of the 'input_scores' input must be compatible withthe value of the "
            "attribute 'num_classes'. Got: ",
        ),
    )
    for port, name, shape, last, message in checks:
        if shape.dims is None:
            continue
        _rank(port, name, shape, 2, f"Input {name} rank must be equal to 2.")
        _check(
            shape.dims[1].compatible(Dim.of(last)),
            _dims(f"input {port} ({name}) {shape} is not {last} wide", f"{message}{shape.dims[1]}"),
        )
    _check(
        compatible(info, PartialShape([Dim.of(1), Dim.of(3)])),
        _dims(f"im_info {info} is not [1, 3]", "Input image info shape must be compatible with [1,3]."),
    )
    if rois.dims is not None and deltas.dims is not None and scores.dims is not None:
        merged = rois.dims[0] & deltas.dims[0]
        _check(
            not merged.is_empty and not (merged & scores.dims[0]).is_empty,
            _dims(
                f"rois {rois}, deltas {deltas} and scores {scores} have other numbers of boxes",
                "The first dimension of inputs 'input_rois', 'input_deltas', 'input_scores' must be the "
                f"compatible. input_rois batch: {rois.dims[0]}; input_deltas batch: {deltas.dims[0]}; "
                f"input_scores batch: {scores.dims[0]}",
            ),
        )
