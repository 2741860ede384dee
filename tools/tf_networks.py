"""The TensorFlow part of irshape's real-network corpus: narrow TF/Keras models converted by
OpenVINO's TensorFlow and TensorFlow Lite frontends.

Run only by ``tools/make_networks.py`` (its ``tf_*`` entries), as a child process in a venv
that has TensorFlow (``IRSHAPE_TF_PYTHON``, default ``/work/tfvenv/bin/python``; see
fixtures/networks/README.md): ``python tools/tf_networks.py NAME OUT.xml`` builds the model
NAME with seeded random weights, converts it with ``ov.convert_model`` and writes it with
``ov.save_model`` (fp32). TensorFlow is never imported by irshape, its tests or CI.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import keras
import numpy as np
import openvino as ov
import tensorflow as tf

SEED = 20261124
DETECTOR_SIZE = 64  # the detector's square input
DETECTOR_CLASSES = 3
ANCHORS_PER_CELL = 2


def _seed() -> None:
    keras.utils.set_random_seed(SEED)  # Python's, numpy's and TensorFlow's generators
    tf.random.set_seed(SEED)


# -- (1) a Keras detector with its post-processing ---------------------------------------------


def _detector_backbone() -> keras.Model:
    """Four stride-2 SAME convolutions (8-16-16-24 wide, a 64 input: an 8x8 grid at the end)
    with box and score heads: [batch, cells x anchors, 4] deltas and class logits."""
    image = keras.Input((DETECTOR_SIZE, DETECTOR_SIZE, 3))
    x = image
    for width in (8, 16, 16, 24):
        x = keras.layers.Conv2D(width, 3, strides=2, padding="same", activation="relu")(x)
    x = keras.layers.DepthwiseConv2D(3, padding="same")(x)
    x = keras.layers.BatchNormalization()(x)
    x = keras.layers.ReLU(6.0)(x)
    boxes = keras.layers.Conv2D(4 * ANCHORS_PER_CELL, 1)(x)
    scores = keras.layers.Conv2D(DETECTOR_CLASSES * ANCHORS_PER_CELL, 1)(x)
    boxes = keras.layers.Reshape((-1, 4))(boxes)
    scores = keras.layers.Reshape((-1, DETECTOR_CLASSES))(scores)
    return keras.Model(image, [boxes, scores])


def _anchors(grid: int) -> np.ndarray:
    """[grid x grid x anchors, 4] anchors (ymin, xmin, ymax, xmax, normalised), two sizes a cell."""
    centres = (np.arange(grid, dtype=np.float32) + 0.5) / grid
    cy, cx = np.meshgrid(centres, centres, indexing="ij")
    sizes = np.array([0.15, 0.3], np.float32)
    cy, cx = cy[..., None] + 0 * sizes, cx[..., None] + 0 * sizes
    half = np.broadcast_to(sizes / 2, cy.shape)
    return np.stack([cy - half, cx - half, cy + half, cx + half], -1).reshape(-1, 4)


def _decode(deltas: tf.Tensor, anchors: np.ndarray | tf.Tensor) -> tf.Tensor:
    """TF Object Detection API's box coder: centre/size deltas scaled by (10, 10, 5, 5)."""
    ay = (anchors[:, 0] + anchors[:, 2]) / 2
    ax = (anchors[:, 1] + anchors[:, 3]) / 2
    ah = anchors[:, 2] - anchors[:, 0]
    aw = anchors[:, 3] - anchors[:, 1]
    dy, dx, dh, dw = tf.unstack(deltas, axis=-1)
    cy = dy / 10.0 * ah + ay
    cx = dx / 10.0 * aw + ax
    h = tf.exp(dh / 5.0) * ah
    w = tf.exp(dw / 5.0) * aw
    return tf.stack([cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2], axis=-1)


class CombinedNmsDetector(tf.Module):
    """The detector with tf.image.combined_non_max_suppression (TF OD API's batched NMS)."""

    def __init__(self) -> None:
        super().__init__()
        self.net = _detector_backbone()
        self.anchors = _anchors(DETECTOR_SIZE // 16)

    def __call__(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        deltas, logits = self.net(images)
        boxes = _decode(deltas, self.anchors)
        scores = tf.sigmoid(logits)
        result = tf.image.combined_non_max_suppression(
            boxes[:, :, None, :],
            scores,
            max_output_size_per_class=8,
            max_total_size=12,
            iou_threshold=0.5,
            score_threshold=0.3,
            clip_boxes=True,
        )
        return {
            "boxes": result.nmsed_boxes,
            "scores": result.nmsed_scores,
            "classes": result.nmsed_classes,
            "count": result.valid_detections,
        }


class SingleImageDetector(tf.Module):
    """The detector of one image with the best class's score per box and
    tf.image.non_max_suppression_with_scores (NonMaxSuppressionV5, soft-NMS sigma), the kept
    boxes gathered; with ``padded``, tf.image.non_max_suppression_padded too (TensorFlow's own
    tiled NMS of while loops: not in the corpus, the CPU plugin crashes on it now and then);
    with neither, the decoded boxes, scores and labels of every anchor."""

    def __init__(self, v5: bool = True, padded: bool = False) -> None:
        super().__init__()
        self.net = _detector_backbone()
        self.anchors = _anchors(DETECTOR_SIZE // 16)
        self.v5, self.padded = v5, padded

    def __call__(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        deltas, logits = self.net(images)
        boxes = _decode(deltas, self.anchors)[0]
        scores = tf.reduce_max(tf.sigmoid(logits), axis=-1)[0]
        labels = tf.argmax(logits, axis=-1, output_type=tf.int32)[0]
        if not (self.v5 or self.padded):  # (TFLite's frontend has no NON_MAX_SUPPRESSION_V5)
            return {"boxes": boxes, "scores": scores, "labels": labels}
        result = {}
        if self.v5:
            kept, kept_scores = tf.image.non_max_suppression_with_scores(
                boxes, scores, max_output_size=10, iou_threshold=0.5, score_threshold=0.2, soft_nms_sigma=0.5
            )
            result.update(boxes=tf.gather(boxes, kept), scores=kept_scores, labels=tf.gather(labels, kept))
        if self.padded:
            padded, valid = tf.image.non_max_suppression_padded(
                boxes, scores, max_output_size=10, iou_threshold=0.6, pad_to_max_output_size=True
            )
            result.update(padded_boxes=tf.gather(boxes, padded), padded_count=valid)
        return result


class BatchNmsDetector(tf.Module):
    """The detector on a batch of any size, NMS per image as TF Object Detection API's
    post-processing runs it: tf.map_fn over the images (a while loop) of the raw
    NonMaxSuppressionV5 padded to 10 boxes (pad_to_max_output_size), the kept boxes, scores and
    labels gathered and the count of valid ones."""

    def __init__(self) -> None:
        super().__init__()
        self.net = _detector_backbone()
        self.anchors = _anchors(DETECTOR_SIZE // 16)

    def __call__(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        deltas, logits = self.net(images)
        boxes = _decode(deltas, self.anchors)
        scores = tf.reduce_max(tf.sigmoid(logits), axis=-1)
        labels = tf.argmax(logits, axis=-1, output_type=tf.int32)

        def one_image(args: tuple[tf.Tensor, ...]) -> tuple[tf.Tensor, ...]:
            image_boxes, image_scores, image_labels = args
            kept, kept_scores, count = tf.raw_ops.NonMaxSuppressionV5(
                boxes=image_boxes,
                scores=image_scores,
                max_output_size=10,
                iou_threshold=0.5,
                score_threshold=0.2,
                soft_nms_sigma=0.0,
                pad_to_max_output_size=True,
            )
            return tf.gather(image_boxes, kept), kept_scores, tf.gather(image_labels, kept), count

        signature = (
            tf.TensorSpec([10, 4], tf.float32),
            tf.TensorSpec([10], tf.float32),
            tf.TensorSpec([10], tf.int32),
            tf.TensorSpec([], tf.int32),
        )
        kept = tf.map_fn(one_image, (boxes, scores, labels), fn_output_signature=signature)
        return dict(zip(("boxes", "scores", "labels", "count"), kept, strict=True))


# -- (2) recurrent text models and a data-dependent while loop ---------------------------------


class TextRnn(tf.Module):
    """Token ids [batch, time] -> Embedding(50, 12) -> LSTM(16, sequences) -> GRU(8) -> Dense(4)."""

    def __init__(self) -> None:
        super().__init__()
        tokens = keras.Input((None,), dtype="int32")
        x = keras.layers.Embedding(50, 12)(tokens)
        x = keras.layers.LSTM(16, return_sequences=True)(x)
        x = keras.layers.GRU(8)(x)
        self.net = keras.Model(tokens, keras.layers.Dense(4, activation="softmax")(x))

    def __call__(self, tokens: tf.Tensor) -> tf.Tensor:
        return self.net(tokens)


class WhileLoop(tf.Module):
    """A tf.while_loop whose trip count the data decides: halve x until its largest magnitude is
    under 1 (x times 8 at the start; at most 20 steps), counting the steps and summing a growing series; and a
    TensorArray of every step's row sums."""

    def __call__(self, x: tf.Tensor) -> dict[str, tf.Tensor]:
        def cond(step: tf.Tensor, value: tf.Tensor, total: tf.Tensor, rows: Any) -> tf.Tensor:
            return tf.logical_and(step < 20, tf.reduce_max(tf.abs(value)) >= 1.0)

        def body(step: tf.Tensor, value: tf.Tensor, total: tf.Tensor, rows: Any) -> tuple[Any, ...]:
            rows = rows.write(step, tf.reduce_sum(value, axis=1))
            return step + 1, value * 0.5, total + tf.reduce_sum(value), rows

        rows = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=tf.TensorShape([None]))
        steps, value, total, rows = tf.while_loop(
            cond, body, (tf.constant(0), x * 8.0, tf.constant(0.0), rows), maximum_iterations=20
        )
        return {"steps": steps, "value": value, "total": total, "row_sums": rows.stack()}


# -- (3) TF-style image ops ----------------------------------------------------------------------


class ImageOps(tf.Module):
    """SAME convolutions and pooling (max or average) on odd sizes, a resize to 3/4 of the computed size,
    strided slices with ellipsis, new-axis and shrink masks, einsum, gather_nd and
    tensor_scatter_nd_update."""

    def __init__(self, pooling: type[keras.layers.Layer]) -> None:
        super().__init__()
        image = keras.Input((None, None, 3))
        x = keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(image)
        x = keras.layers.Conv2D(8, 5, strides=3, padding="same")(x)
        x = pooling(3, strides=2, padding="same")(x)
        self.net = keras.Model(image, x)
        rng = np.random.default_rng(SEED)
        self.mix = tf.constant(rng.standard_normal((8, 6)).astype(np.float32))

    def __call__(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        x = self.net(images)  # [n, h', w', 8]
        shape = tf.shape(x)
        size = tf.cast(tf.cast(shape[1:3], tf.float32) * 0.75, tf.int32) + 1
        resized = tf.image.resize(x, size, method="bilinear")
        nearest = tf.image.resize(images, shape[1:3] * 2, method="nearest")
        mixed = tf.einsum("nhwc,cd->nhdw", resized, self.mix)
        sliced = mixed[..., 1:, tf.newaxis, ::2]  # ellipsis, new axis, a step
        first = x[:, 0, ::-1, 2:5]  # shrink, a reversed axis
        corner = x[0, :2, :3]  # shrink, two ranges
        indices = tf.constant([[0, 1], [0, 0]])
        picked = tf.gather_nd(corner, indices)  # [2, 8]
        updated = tf.tensor_scatter_nd_update(corner, indices, picked * 2.0 + 1.0)
        return {
            "sliced": sliced,
            "first": first,
            "updated": updated,
            "nearest": nearest,
        }


# -- (5) more of what TensorFlow models carry --------------------------------------------------


class AnchorDetector(tf.Module):
    """A detector of any image size whose anchors are made from the feature map's shape: SAME
    convolutions (one dilated), a Conv2DTranspose upsampling cropped to the skip's computed
    size, anchors from tf.range over the grid (meshgrid, stack, reshape), the boxes decoded,
    top-k of a computed k = min(20, anchors), NonMaxSuppressionV5, and tf.image.crop_and_resize
    of the kept boxes from the features."""

    def __init__(self) -> None:
        super().__init__()
        image = keras.Input((None, None, 3))
        skip = keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(image)
        x = keras.layers.Conv2D(16, 3, strides=2, padding="same", activation="relu")(skip)
        x = keras.layers.Conv2D(16, 3, dilation_rate=2, padding="same", activation="relu")(x)
        up = keras.layers.Conv2DTranspose(8, 3, strides=2, padding="same")(x)
        self.backbone = keras.Model(image, [skip, up])
        self.head = keras.layers.Conv2D(4 + DETECTOR_CLASSES, 1)

    def __call__(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        skip, up = self.backbone(images)
        size = tf.shape(skip)[1:3]
        features = tf.concat([skip, up[:, : size[0], : size[1], :]], axis=-1)
        predictions = self.head(features)[0]  # [h, w, 4 + classes]
        grid = tf.cast(size, tf.float32)
        cy, cx = tf.meshgrid(
            (tf.range(grid[0]) + 0.5) / grid[0], (tf.range(grid[1]) + 0.5) / grid[1], indexing="ij"
        )
        anchors = tf.reshape(tf.stack([cy - 0.1, cx - 0.1, cy + 0.1, cx + 0.1], axis=-1), [-1, 4])
        predictions = tf.reshape(predictions, [-1, 4 + DETECTOR_CLASSES])
        boxes = _decode(predictions[:, :4], anchors)
        scores = tf.reduce_max(tf.sigmoid(predictions[:, 4:]), axis=-1)
        k = tf.minimum(20, tf.shape(scores)[0])
        top, index = tf.math.top_k(scores, k=k)
        candidates = tf.gather(boxes, index)
        kept, kept_scores = tf.image.non_max_suppression_with_scores(
            candidates, top, max_output_size=8, iou_threshold=0.5, score_threshold=0.0
        )
        chosen = tf.gather(candidates, kept)
        crops = tf.image.crop_and_resize(
            features, chosen, tf.zeros_like(kept), crop_size=[4, 4], method="bilinear"
        )
        return {"boxes": chosen, "scores": kept_scores, "crops": crops}


class SequenceModel(tf.Module):
    """Token ids [batch, time]: Embedding(40, 16, mask_zero) into a Bidirectional LSTM(8)
    (the mask: padding steps keep the state), MultiHeadAttention(2 heads of 8) with the padding
    mask, LayerNormalization, a Dense tagger; and a greedy decoder: a tf.while_loop that
    appends the argmax token of its last state to a growing sequence (a back edge whose shape
    grows) for as many steps as the input's length."""

    def __init__(self) -> None:
        super().__init__()
        tokens = keras.Input((None,), dtype="int32")
        embedded = keras.layers.Embedding(40, 16, mask_zero=True)(tokens)
        x = keras.layers.Bidirectional(keras.layers.LSTM(8, return_sequences=True))(embedded)
        attended = keras.layers.MultiHeadAttention(2, 8)(x, x)
        x = keras.layers.LayerNormalization()(x + attended)
        self.tagger = keras.Model(tokens, keras.layers.Dense(5)(x))
        rng = np.random.default_rng(SEED)
        self.table = tf.constant(rng.standard_normal((40, 40)).astype(np.float32))

    def __call__(self, tokens: tf.Tensor) -> dict[str, tf.Tensor]:
        tags = self.tagger(tokens)
        length = tf.shape(tokens)[1]

        def body(step: tf.Tensor, sequence: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            scores = tf.gather(self.table, sequence[:, -1])
            following = tf.argmax(scores, axis=-1, output_type=tf.int32)[:, None]
            return step + 1, tf.concat([sequence, following], axis=1)

        _, decoded = tf.while_loop(
            lambda step, _: step < length,
            body,
            (tf.constant(0), tokens[:, :1]),
            shape_invariants=(tf.TensorShape([]), tf.TensorShape([None, None])),
        )
        return {"tags": tags, "decoded": decoded}


class MiscOps(tf.Module):
    """TensorFlow ops of other families on x [n, 8] and an image [1, h, w, 4]: a dilated depthwise
    convolution through space_to_batch_nd / batch_to_space_nd, extract_patches, depth_to_space,
    tf.roll, tf.sort and argsort, cumsum, unsorted_segment_sum of computed ids, tf.unique,
    tf.where of a condition (NonZero), boolean_mask, one_hot, linalg.band_part, tf.tile."""

    def __init__(self) -> None:
        super().__init__()
        rng = np.random.default_rng(SEED)
        self.filters = tf.constant(rng.standard_normal((3, 3, 4, 1)).astype(np.float32))

    def __call__(self, x: tf.Tensor, image: tf.Tensor) -> dict[str, tf.Tensor]:
        dilated = tf.nn.depthwise_conv2d(image, self.filters, [1, 1, 1, 1], "SAME", dilations=[2, 2])
        blocked = tf.space_to_batch_nd(image, [2, 2], [[0, 1], [1, 0]])
        patches = tf.image.extract_patches(image, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
        ids = tf.cast(tf.abs(x[:, 0]) * 2.0, tf.int32) % 3
        unique, positions = tf.unique(tf.cast(tf.round(x[:, 1]), tf.int32))
        positive = tf.where(x > 0.5)
        return {
            "dilated": dilated,
            "unblocked": tf.batch_to_space(blocked * 2.0, [2, 2], [[0, 1], [1, 0]]),
            "patches": patches,
            "deep": tf.nn.depth_to_space(tf.concat([image, image], axis=-1), 2),
            "rolled": tf.roll(x, shift=[2, -1], axis=[0, 1]),
            "sorted": tf.sort(x, axis=1, direction="DESCENDING"),
            "order": tf.argsort(x[:, 2]),
            "running": tf.cumsum(x, axis=0, exclusive=True, reverse=True),
            "segments": tf.math.unsorted_segment_sum(x, ids, 3),
            "unique": unique,
            "positions": positions,
            "positive": positive,
            "masked": tf.boolean_mask(x, x[:, 3] > 0.0),
            "one_hot": tf.one_hot(ids, 4),
            "band": tf.linalg.band_part(tf.matmul(x, x, transpose_b=True), 1, 0),
            "tiled": tf.tile(x[:2], [2, 1]),
        }


class MoreOps(tf.Module):
    """More TensorFlow ops on x [6, 8] and an image [1, 13, 17, 4]: explicit REFLECT and
    SYMMETRIC pads, a bilinear resize, LRN, l2_normalize, moments, logsumexp, gelu (tanh), erf,
    softplus, segment_max of sorted ids, top_k unsorted, max_pool_with_argmax. (OpenVINO
    2026.4.1 converts none of bicubic or antialiased resizes (ResizeBicubic,
    ScaleAndTranslate), segment_mean, searchsorted (LowerBound), cumprod.)"""

    def __call__(self, x: tf.Tensor, image: tf.Tensor) -> dict[str, tf.Tensor]:
        reflected = tf.pad(image, [[0, 0], [2, 1], [1, 2], [0, 0]], mode="REFLECT")
        symmetric = tf.pad(image, [[0, 0], [1, 0], [0, 3], [0, 0]], mode="SYMMETRIC")
        mean, variance = tf.nn.moments(image, axes=[1, 2], keepdims=True)
        pooled, argmax = tf.nn.max_pool_with_argmax(image, 3, 2, "SAME", include_batch_in_index=True)
        ids = tf.constant([0, 0, 1, 2, 2, 2])
        top, where = tf.math.top_k(x[:, 1], k=4, sorted=False)
        return {
            "reflected": reflected,
            "resized": tf.image.resize(image, [20, 9], method="bilinear"),
            "symmetric": symmetric,
            "lrn": tf.nn.local_response_normalization(image, depth_radius=1, bias=1.0, alpha=0.5, beta=0.75),
            "l2": tf.math.l2_normalize(x, axis=1),
            "normalised": (image - mean) * tf.math.rsqrt(variance + 1e-3),
            "logsumexp": tf.math.reduce_logsumexp(x, axis=0),
            "gelu": tf.nn.gelu(x, approximate=True),
            "erf": tf.math.erf(x),
            "softplus": tf.nn.softplus(x),
            "segment_max": tf.math.segment_max(x, ids),
            "top": top,
            "where": where,
            "pooled": pooled,
            "argmax": argmax,
        }


# -- conversion -------------------------------------------------------------------------------


def _through_saved_model(module: tf.Module, signature: list[tf.TensorSpec], **kwargs: Any) -> ov.Model:
    """``module.__call__`` as a tf.function of ``signature``, saved as a SavedModel directory
    and converted from it."""
    function = tf.function(module.__call__, input_signature=signature)
    with tempfile.TemporaryDirectory(prefix="irshape-tf-") as tmp:
        tf.saved_model.save(module, tmp, signatures=function.get_concrete_function())
        return ov.convert_model(tmp, **kwargs)


def _through_function(
    module: tf.Module, signature: list[tf.TensorSpec], inputs: list[str] | None = None
) -> ov.Model:
    """``module.__call__`` as a tf.function of ``signature``, converted directly (with
    ``inputs``: ``convert_model(input=...)`` of those PartialShape texts)."""
    function = tf.function(module.__call__, input_signature=signature)
    if inputs is None:
        return ov.convert_model(function)
    return ov.convert_model(function, input=[ov.PartialShape(text) for text in inputs])


def _keras(model: keras.Model, inputs: list[str]) -> ov.Model:
    """A Keras model object given to convert_model itself, its inputs as ``inputs`` say."""
    return ov.convert_model(model, input=[ov.PartialShape(text) for text in inputs])


def _image(batch: int | None, size: int | None = DETECTOR_SIZE) -> list[tf.TensorSpec]:
    return [tf.TensorSpec([batch, size, size, 3], tf.float32, name="images")]


def _tflite(
    module: tf.Module, signature: list[tf.TensorSpec], int8: bool, integer_io: bool = False
) -> ov.Model:
    """``module`` frozen and through tf.lite.TFLiteConverter (float32, or int8 post-training quantisation
    from a representative dataset of seeded random images), the .tflite converted."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    function = tf.function(module.__call__, input_signature=signature)
    # Keras 3's variables reach the converter as resources (READ_VARIABLE, which OpenVINO's
    # TFLite frontend cannot type): frozen into constants first.
    frozen = convert_variables_to_constants_v2(function.get_concrete_function())
    converter = tf.lite.TFLiteConverter.from_concrete_functions([frozen])
    if int8:
        rng = np.random.default_rng(SEED)
        shape = [1 if d is None else d for d in signature[0].shape]

        def samples() -> Any:
            for _ in range(8):
                yield [rng.uniform(0, 1, shape).astype(np.float32)]

        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = samples
        if integer_io:  # full integer: int8 inputs and outputs too
            converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
            converter.inference_input_type = tf.int8
            converter.inference_output_type = tf.int8
    with tempfile.TemporaryDirectory(prefix="irshape-tflite-") as tmp:
        path = Path(tmp) / "model.tflite"
        path.write_bytes(converter.convert())
        return ov.convert_model(str(path))


class Classifier(tf.Module):
    """A MobileNet-style classifier: a SAME stem, depthwise-separable blocks with ReLU6, an
    inverted residual, global pooling, a dense softmax head."""

    def __init__(self) -> None:
        super().__init__()
        image = keras.Input((DETECTOR_SIZE, DETECTOR_SIZE, 3))
        x = keras.layers.Conv2D(8, 3, strides=2, padding="same")(image)
        x = keras.layers.ReLU(6.0)(x)
        for width, stride in ((16, 2), (16, 1), (24, 2)):
            y = keras.layers.DepthwiseConv2D(3, strides=stride, padding="same")(x)
            y = keras.layers.BatchNormalization()(y)
            y = keras.layers.ReLU(6.0)(y)
            y = keras.layers.Conv2D(width, 1)(y)
            x = keras.layers.Add()([x, y]) if stride == 1 and x.shape[-1] == width else y
        x = keras.layers.GlobalAveragePooling2D()(x)
        self.net = keras.Model(image, keras.layers.Dense(5, activation="softmax")(x))

    def __call__(self, images: tf.Tensor) -> tf.Tensor:
        return self.net(images)


BUILDERS: dict[str, Callable[[], ov.Model]] = {
    # (not in the corpus, kept to show why: OpenVINO 2026.4.1's TensorFlow frontend has no
    # conversion rule for CombinedNonMaxSuppression; the tiled NMS converts, and the CPU plugin
    # crashes on it (SIGSEGV) in about half of the runs)
    "tf_detector_combined_nms_static": lambda: _through_saved_model(CombinedNmsDetector(), _image(1)),
    "tf_detector_combined_nms_dyn_batch": lambda: _through_saved_model(CombinedNmsDetector(), _image(None)),
    "tf_detector_map_nms_dyn_batch": lambda: _through_saved_model(BatchNmsDetector(), _image(None)),
    "tf_detector_nms_v5_static": lambda: _through_function(SingleImageDetector(), _image(1)),
    "tf_detector_tiled_nms_static": lambda: _through_function(SingleImageDetector(False, True), _image(1)),
    "tf_text_rnn_dyn": lambda: _through_saved_model(
        TextRnn(), [tf.TensorSpec([None, None], tf.int32, name="tokens")]
    ),
    "tf_while_loop_dyn": lambda: _through_function(
        WhileLoop(), [tf.TensorSpec([None, 6], tf.float32, name="x")]
    ),
    "tf_image_ops_static": lambda: _through_function(
        ImageOps(keras.layers.MaxPooling2D), [tf.TensorSpec([1, 45, 61, 3], tf.float32)]
    ),
    "tf_image_ops_dyn_hw": lambda: _through_function(
        # (average: MaxPool-8 of a dynamic shape, its indices read, is wrong in the CPU plugin)
        ImageOps(keras.layers.AveragePooling2D),
        [tf.TensorSpec([1, None, None, 3], tf.float32)],
    ),
    "tf_detector_anchors_dyn_hw": lambda: _through_function(
        AnchorDetector(), [tf.TensorSpec([1, None, None, 3], tf.float32, name="images")]
    ),
    "tf_detector_anchors_interval": lambda: _through_function(
        AnchorDetector(),
        [tf.TensorSpec([1, None, None, 3], tf.float32, name="images")],
        ["[1,32..96,32..96,3]"],
    ),
    "tf_keras_text_rnn_interval": lambda: _keras(TextRnn().net, ["[1..4,1..50]"]),
    "tf_keras_classifier_dyn_batch": lambda: _keras(Classifier().net, ["[?,64,64,3]"]),
    "tf_sequence_dyn": lambda: _through_saved_model(
        SequenceModel(), [tf.TensorSpec([None, None], tf.int32, name="tokens")]
    ),
    "tf_misc_ops_dyn": lambda: _through_function(
        MiscOps(),
        [
            tf.TensorSpec([None, 8], tf.float32, name="x"),
            tf.TensorSpec([1, None, None, 4], tf.float32, name="image"),
        ],
    ),
    "tf_image_ops_interval": lambda: _through_function(
        ImageOps(keras.layers.AveragePooling2D),
        [tf.TensorSpec([1, None, None, 3], tf.float32)],
        ["[1,32..96,32..96,3]"],
    ),
    "tf_misc_ops_interval": lambda: _through_function(
        MiscOps(),
        [
            tf.TensorSpec([None, 8], tf.float32, name="x"),
            tf.TensorSpec([1, None, None, 4], tf.float32, name="image"),
        ],
        ["[1..8,8]", "[1,5..33,5..33,4]"],
    ),
    "tf_sequence_interval": lambda: _through_function(
        SequenceModel(), [tf.TensorSpec([None, None], tf.int32, name="tokens")], ["[1..4,1..20]"]
    ),
    "tf_more_ops_static": lambda: _through_function(
        MoreOps(),
        [
            tf.TensorSpec([6, 8], tf.float32, name="x"),
            tf.TensorSpec([1, 13, 17, 4], tf.float32, name="image"),
        ],
    ),
    "tflite_image_ops_f32": lambda: _tflite(
        ImageOps(keras.layers.MaxPooling2D), [tf.TensorSpec([1, 45, 61, 3], tf.float32)], int8=False
    ),
    "tflite_text_rnn_f32": lambda: _tflite(
        TextRnn(), [tf.TensorSpec([1, 10], tf.int32, name="tokens")], int8=False
    ),
    "tflite_classifier_f32": lambda: _tflite(Classifier(), _image(1), int8=False),
    "tflite_classifier_int8": lambda: _tflite(Classifier(), _image(1), int8=True),
    "tflite_classifier_full_int8": lambda: _tflite(Classifier(), _image(1), int8=True, integer_io=True),
    "tflite_detector_f32": lambda: _tflite(SingleImageDetector(False), _image(1), int8=False),
    "tflite_detector_int8": lambda: _tflite(SingleImageDetector(False), _image(1), int8=True),
}


def main() -> None:
    name, xml = sys.argv[1], Path(sys.argv[2])
    _seed()
    model = BUILDERS[name]()
    ov.save_model(model, str(xml), compress_to_fp16=False)


if __name__ == "__main__":
    main()
