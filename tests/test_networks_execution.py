"""Every network of fixtures/networks/ executes end to end with irshape, and every layer's
outputs equal OpenVINO's CPU plugin's (f32) on the same inputs (``irshape compare``'s
comparison: every op output exposed on OpenVINO's side); and ``check --dry-run`` executes every
layer of each with no error. Dynamic networks run at concrete shapes inside their intervals.

The tokenizer files' extension ops (openvino_tokenizers', ``version="extension"``) are not
irshape's to run: there OpenVINO reads the file with the extension added, every layer irshape
runs equals OpenVINO's, and the only layers it does not run are the extension layers and those
below them (IRS502 "irshape does not know" on an extension layer, in the dry run).

The quantized files (FakeQuantize on activations, NNCF's) are compared layer by layer in
isolation (``compare_document(isolate=True)``: each layer on OpenVINO's outputs of the layers
above it): a FakeQuantize turns the last-bit differences of a convolution above it into a whole
quantization step wherever a value lies on a rounding boundary, and every layer below would
inherit it. Even on OpenVINO's own inputs, the plugin, which fuses a FakeQuantize into the layer
before it, puts a value exactly on a boundary of the output it exposes on the other level now
and then (a FakeQuantize alone takes the kernel's level: tests/execution/test_normalization.py):
a FakeQuantize may differ there by one quantization step, at a few elements
(``BOUNDARY_ELEMENTS``), no other layer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from networks import extension_core, extension_layer_ids, extension_library, load_expected

import irshape
from irshape.dims import static_shape
from irshape.execute.compare import OutputComparison, compare_document, describe
from irshape.execute.dryrun import DryRunOptions
from irshape.execute.run import parameter_shape, parameters, random_input
from irshape.ir.model import Document
from irshape.ir.reader import read_file

NETWORKS = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "networks").glob("*.xml"))

# The shapes a dynamic network runs at: inside its intervals, the sizes it was traced with or
# others its graph admits (a Whisper encoder's time axis meets a 64-long positional embedding
# after its stride-2 convolution), batches of 2 and odd sizes where they are free, so that a
# kernel that mixes up axes or rounds a window the wrong way shows. A network whose dynamic
# inputs differ in rank names a shape for each (by input name).
SHAPES: dict[str, tuple[int, ...] | dict[str, tuple[int, ...]]] = {
    "audio_dyn_time": (1, 20, 50),
    "convnext_interval": (2, 3, 64, 96),
    "deeplabv3_interval": (1, 3, 72, 100),  # (sizes no stride divides: the resizes' rounding)
    "detr_interval": (1, 3, 64, 96),
    "efficientnet_reshaped_batch": (2, 3, 64, 64),
    "faster_rcnn_interval": (1, 3, 240, 288),  # (the smallest height; the detector resizes to 128)
    "fpn_dyn_hw": (1, 3, 64, 96),
    "greedy_decoder_interval": (2, 5, 8),
    "mobilenet_v2_dyn_hw": (1, 3, 64, 96),
    "onnx_control_flow_dyn": (5, 8),  # (a Loop of 5 steps)
    "onnx_lstm_dyn": (2, 10, 16),
    "onnx_rare_ops_dyn": {"x": (5, 8), "image": (1, 8, 3, 4), "grid": (1, 5, 7, 2)},
    "onnx_segmenter_interval": (1, 3, 45, 61),  # (odd sizes: the stride-2 stages' rounding, the pad)
    "onnx_wild_ops_interval": {"x": (5, 6), "image": (1, 4, 6, 8)},  # (SpaceToDepth by 2: even h, w)
    "onnx_yolo_dyn": (2, 3, 64, 96),
    "onnx_scan_dyn": (2, 7, 8),
    "resnet_int8_dyn_batch_hw": (2, 3, 64, 96),
    "rt_detr_interval": (1, 3, 96, 128),  # (anchors made from each level's shape)
    "sam_points_interval": (1, 1, 3, 2),  # (the input points; the image is static)
    "ti_lstm_dyn": (2, 7, 16),
    "ti_lstm_interval": (3, 9, 16),
    "mobilenet_v3_interval": (2, 3, 64, 96),
    "recurrent_dyn": (2, 10, 16),
    "recurrent_interval": (2, 10, 16),
    "resnet_dyn_batch_hw": (2, 3, 64, 96),
    "segformer_interval": (1, 3, 64, 96),
    "shape_ops_interval": (2, 3, 64, 96),
    "swin_dyn_hw": (1, 3, 64, 64),
    "swin_hf_interval": (1, 3, 64, 64),
    "tasnet_interval": (1, 1600),
    "tf_efficientnet_interval": (1, 3, 67, 97),
    "tf_detector_anchors_dyn_hw": (1, 45, 61, 3),
    "tf_detector_anchors_interval": (1, 45, 61, 3),
    "tf_detector_map_nms_dyn_batch": (2, 64, 64, 3),  # (NHWC: TensorFlow's layout)
    "tf_keras_classifier_dyn_batch": (2, 64, 64, 3),
    "tf_image_ops_dyn_hw": (1, 45, 61, 3),  # (odd sizes: SAME padding's rounding, the resizes')
    "tf_image_ops_interval": (1, 45, 61, 3),
    "tf_misc_ops_dyn": {"x": (5, 8), "image": (1, 7, 9, 4)},  # (space_to_batch pads 1: odd h, w)
    "tf_misc_ops_interval": {"x": (5, 8), "image": (1, 7, 9, 4)},
    "tf_sequence_interval": (3, 9),
    "tf_while_loop_dyn": (2, 6),
    "unet_interval": (1, 3, 64, 96),
    "upsample_select_interval": (1, 3, 127, 128),  # (an odd height, a width one more: as traced)
    "vit_interpolated_dyn_hw": (1, 3, 32, 48),
    "video_resnet_interval": (2, 3, 5, 37, 45),  # (odd frames and sizes: the 3-D windows' rounding)
    "vit_reshaped_batch": (1, 3, 32, 32),  # its traced class token fixes the batch at 1
    "wav2vec2_dyn_time": (1, 1600),
    "whisper_encoder_dyn_time": (1, 20, 128),
    "yolo_dyn_batch_hw": (2, 3, 64, 96),
    "yolo_reshaped_batch": (1, 3, 64, 64),  # a traced reshape fixes the batch at 1
}
TOKENS = {
    "decoder_stateful_kv": (1, 4),
    "decoder_stateful_kv_int8_sym": (1, 4),
    "gpt2_interval_tokens": (1, 7),
    "llama_interval_tokens": (1, 7),
    "llama_nf4_g16_interval_tokens": (1, 7),
    "mamba2_dyn_tokens": (2, 24),  # (whole chunks of 8: the padding branch was traced untaken)
}
# A tokenizer's batch of texts (its string Parameter [?]).
TEXTS = np.array(["the quick brown fox", "irshape checks openvino models, layer by layer!", ""], dtype=object)
DEFAULT_TOKENS = (2, 7)  # the [?,?] token inputs of the encoders
# A dry run sizes every dynamic dim alike (--dim-value, clamped into intervals): 64 but where the
# graph needs another length (audio convolution stacks, the Whisper encoder's 64 after stride 2).
DRY_RUN_DIM_VALUE = {
    "audio_dyn_time": 50,
    "wav2vec2_dyn_time": 1600,
    "whisper_encoder_dyn_time": 128,
    "onnx_wild_ops_interval": 8,  # (SpaceToDepth by 2: an even height and width)
    "tf_misc_ops_dyn": 63,  # (space_to_batch pads 1 before blocks of 2: an odd height and width)
    "tf_misc_ops_interval": 33,  # (an odd height and width; x clamped to 8 rows)
    "upsample_select_interval": 63,  # clamped: 63 high, 64 wide
    "vit_reshaped_batch": 1,
    "yolo_reshaped_batch": 1,
}


def network_inputs(document: Document, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded data for every Parameter of a network: reals standard normal, token ids in
    [0, 10), attention masks all ones, TEXTS for a string; a dynamic one at its shape in SHAPES
    or TOKENS."""
    rng = np.random.default_rng(seed)
    stem = Path(document.path).stem
    if stem in OPTIMUM_STATEFUL:
        return optimum_inputs(rng)
    inputs = {}
    for layer in parameters(document):
        name, shape = layer.name or "", parameter_shape(layer)
        if layer.data.get("element_type") == "string":
            inputs[name] = TEXTS
            continue
        if not shape.is_static:
            dims = SHAPES.get(stem) or TOKENS.get(stem, DEFAULT_TOKENS)
            shape = static_shape(dims[name] if isinstance(dims, dict) else dims)
        value = random_input(layer, shape, rng, None)
        inputs[name] = np.ones_like(value) if "mask" in name else value
    return inputs


OPTIMUM_STATEFUL = {"optimum_llama_int4_stateful"}  # optimum-intel's stateful LLM layout
PAST = 3  # the tokens of the KV cache initial_state makes


def optimum_inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The next 4 tokens of an optimum-intel LLM after PAST cached ones: the attention mask
    covers the past and the new tokens, the positions follow the past, beam 0 keeps its cache."""
    tokens = 4
    return {
        "input_ids": rng.integers(0, 300, (1, tokens)),
        "attention_mask": np.ones((1, PAST + tokens), np.int64),
        "position_ids": np.arange(PAST, PAST + tokens)[None],
        "beam_idx": np.zeros(1, np.int32),
    }


def initial_state(document: Document, seed: int = 1) -> dict[str, np.ndarray]:
    """A KV cache of 3 past tokens for each variable (a ReadValue's variable_shape, ? at 1 for
    the batch and 3 for the tokens): from the empty cache OpenVINO itself cannot run the first
    token of a batch of 1 (its Concat meets a batch of 0). A variable of a dynamic rank (a
    tokenizer's truncation flag, ``...``) starts from its initialiser."""
    rng = np.random.default_rng(seed)
    state = {}
    for layer in document.layers:
        if (layer.type or "").lower() == "readvalue" and "variable_shape" in layer.data:
            if layer.data["variable_shape"] == "...":
                continue
            dims = [
                1 if axis == 0 else PAST if text == "?" else int(text)
                for axis, text in enumerate(layer.data["variable_shape"].split(","))
            ]
            state[layer.data["variable_id"]] = rng.standard_normal(dims).astype(np.float32)
    return state


@pytest.mark.parametrize("xml", NETWORKS, ids=lambda p: p.stem)
def test_every_layer_equals_openvino_cpu(xml: Path) -> None:
    document = read_file(xml).document
    assert document is not None
    extension = extension_layer_ids(xml)
    if extension:
        extension_core()  # (keeps the extension's library loaded for the process: see there)
    quantized = "FakeQuantize/opset1" in load_expected(xml)["op_counts"]
    steps = quantization_steps(xml) if quantized else {}
    comparison = compare_document(
        document,
        network_inputs(document),
        variables=initial_state(document),
        extensions=[str(extension_library())] if extension else [],
        isolate=quantized,
    )
    not_run = [f for f in comparison.not_run if f.layer.id not in extension]
    assert not not_run, [f.message() for f in not_run[:5]]
    divergent = [c for c in comparison.divergent if not _a_boundary_step(c, steps)]
    assert not divergent, [describe(c) for c in divergent[:5]]
    assert comparison.outputs  # (something was compared)


def quantization_steps(xml: Path) -> dict[str, float]:
    """FakeQuantize layer name -> its largest quantization step, max |oh - ol| / (levels - 1),
    as OpenVINO reads its limits."""
    import openvino as ov

    steps = {}
    for op in ov.Core().read_model(str(xml)).get_ordered_ops():
        if op.get_type_name() == "FakeQuantize":
            low, high = (op.input_value(i).get_node().get_data() for i in (3, 4))
            steps[op.get_friendly_name()] = float(np.abs(high - low).max()) / (
                op.get_attributes()["levels"] - 1
            )
    return steps


BOUNDARY_ELEMENTS = 3  # the most elements a FakeQuantize output may have a step off at


def _a_boundary_step(comparison: OutputComparison, steps: dict[str, float]) -> bool:
    """A FakeQuantize output off by at most one quantization step at a few elements."""
    step = steps.get(comparison.layer.name or "")
    return (
        step is not None
        and comparison.max_error <= step * 1.001
        and comparison.differing <= BOUNDARY_ELEMENTS
    )


@pytest.mark.parametrize("xml", NETWORKS, ids=lambda p: p.stem)
def test_dry_run_executes_every_layer(xml: Path) -> None:
    dim_value = DRY_RUN_DIM_VALUE.get(xml.stem, 64)
    report = irshape.check_file(xml, dry_run=DryRunOptions(dim_value=dim_value))
    extension = extension_layer_ids(xml)
    dry = [
        d
        for d in report.diagnostics
        if d.code.startswith("IRS5")
        if not (d.code == "IRS502" and d.layer_id in extension and "irshape does not know" in d.message)
    ]
    assert not dry, [f"{d.code} {d.layer_id} {d.message}" for d in dry[:5]]
    assert report.dry_run is not None
    not_executed = dict(report.dry_run.not_executed)
    if extension:  # an extension layer, and those below it
        assert set(not_executed) == {"of an op irshape does not know", "below a layer not run"}
        assert report.dry_run.executed > 0
    else:
        assert not_executed == {}
    sources = ("parameter", "const", "result")
    assert report.dry_run.executed + sum(not_executed.values()) == sum(
        1 for layer in report.layers if (layer.type or "").lower() not in sources
    )
