"""Build irshape's real-network corpus: narrow torch models converted by OpenVINO.

Run by hand, never in CI (it needs torch, which no requirement of irshape names). In a venv of
its own:

    python3 -m venv /work/torchvenv
    /work/torchvenv/bin/pip install torch==2.13.0          # first: the CPU wheel, no CUDA
    /work/torchvenv/bin/pip install torchvision==0.28.0 timm transformers onnx openvino==2026.4.1 numpy lxml
    /work/torchvenv/bin/pip install nncf openvino-tokenizers==2026.4.1.0   # compressed models, tokenizers
    # and optimum-intel in a venv of its own: see fixtures/networks/README.md
    /work/torchvenv/bin/python tools/make_networks.py      # rewrites fixtures/networks/

Every model has random weights (torchvision ``weights=None``, timm ``pretrained=False``,
transformers models from config objects written here), seeded, and narrow, so each ``.bin``
stays well under 1 MB. Each is converted with ``openvino.convert_model`` (TorchScript tracing),
written with ``ov.save_model``, and read back from the saved file to write
``<name>.expected.json`` (see ``tests/networks.py``). ``--only NAME`` rebuilds some files.
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from networks import NETWORKS_DIR, derive_expected, dump_expected  # noqa: E402

# torchvision's C++ ops do not load into the CPU torch wheel: the two its detectors call are
# defined here, in Python, before torchvision is imported. Tracing records each as one node
# (torchvision::nms, torchvision::roi_align), which OpenVINO's PyTorch frontend converts to
# NonMaxSuppression and ROIAlign; the Python bodies only make the traced run's values.
_TORCHVISION_OPS = torch.library.Library("torchvision", "DEF")
_TORCHVISION_OPS.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
_TORCHVISION_OPS.define(
    "roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, "
    "SymInt pooled_width, int sampling_ratio, bool aligned) -> Tensor"
)


def _nms(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Greedy NMS: the indices of the kept boxes, by score descending."""
    order = scores.argsort(descending=True)
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    suppressed = torch.zeros(len(order), dtype=torch.bool)
    keep = []
    for rank, index in enumerate(order.tolist()):
        if suppressed[rank]:
            continue
        keep.append(index)
        rest = order[rank + 1 :]
        width = (torch.minimum(x2[index], x2[rest]) - torch.maximum(x1[index], x1[rest])).clamp(min=0)
        height = (torch.minimum(y2[index], y2[rest]) - torch.maximum(y1[index], y1[rest])).clamp(min=0)
        overlap = width * height
        suppressed[rank + 1 :] |= overlap / (areas[index] + areas[rest] - overlap) > iou_threshold
    return torch.tensor(keep, dtype=torch.long)


def _roi_align(*args: Any) -> torch.Tensor:
    from torchvision.ops.roi_align import _roi_align as python_roi_align  # torchvision's own

    return python_roi_align(*args)  # type: ignore[no-any-return]


_TORCHVISION_OPS.impl("nms", _nms, "CPU")
_TORCHVISION_OPS.impl("roi_align", _roi_align, "CPU")


def _has_ops() -> bool:  # (real functions: TorchScript compiles them in torchvision's helpers)
    return True


def _assert_has_ops() -> None:
    return None


def _import_torchvision() -> Any:
    """torchvision 0.28's fake-kernel registration fails against the CPU torch wheel
    (``operator torchvision::nms does not exist``); the models need none of those kernels, so a
    failing registration leaves the function unregistered instead of failing the import. Its
    ops modules are then told the ops exist (the two defined above)."""
    register_fake = torch.library.register_fake

    def tolerant(*args: Any, **kwargs: Any) -> Any:
        try:
            decorator = register_fake(*args, **kwargs)
        except RuntimeError:
            return lambda fn: fn
        if not callable(decorator):
            return decorator

        def apply(fn: Any) -> Any:
            try:
                return decorator(fn)
            except RuntimeError:
                return fn

        return apply

    torch.library.register_fake = tolerant
    try:
        import torchvision
    finally:
        torch.library.register_fake = register_fake
    for name in ("torchvision.extension", "torchvision.ops.boxes", "torchvision.ops.roi_align"):
        module = sys.modules[name]
        for attribute, function in (("_has_ops", _has_ops), ("_assert_has_ops", _assert_has_ops)):
            if hasattr(module, attribute):
                setattr(module, attribute, function)
    return torchvision


torchvision = _import_torchvision()
import onnx  # noqa: E402
import openvino as ov  # noqa: E402
import timm  # noqa: E402
import transformers  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from openvino._offline_transformations import apply_make_stateful_transformation  # noqa: E402

SEED = 20261124


# -- the models ------------------------------------------------------------------------------


def resnet() -> nn.Module:
    """timm ResNet, BasicBlocks one per stage, channels 8-16-24-32, a deep 3x3 stem 4-4-8 and
    average-pool downsampling (the ResNet-D layout), max-pool after the stem."""
    return timm.models.resnet.ResNet(
        block=timm.models.resnet.BasicBlock,
        layers=(1, 1, 1, 1),
        channels=(8, 16, 24, 32),
        stem_width=4,
        stem_type="deep",
        avg_down=True,
        num_classes=10,
    )


# MobileNetV2's (expansion t, channels c, repeats n, stride s) per stage, with fewer repeats than
# torchvision's default (two where a residual Add is wanted).
MOBILENET_V2_STAGES = [
    [1, 16, 1, 1],
    [6, 24, 2, 2],
    [6, 32, 1, 2],
    [6, 64, 2, 2],
    [6, 96, 1, 1],
    [6, 160, 1, 2],
]


def mobilenet_v2() -> nn.Module:
    """torchvision MobileNetV2, width_mult 0.25, stages (t, c, n, s) 1-16-1-1, 6-24-2-2, 6-32-1-2,
    6-64-2-2, 6-96-1-1, 6-160-1-2, the 1280-wide last conv (torchvision keeps it below width 1)
    replaced by a 128-wide one: ReLU6 -> Clamp, depthwise GroupConvolution, residual Adds."""
    model = torchvision.models.mobilenet_v2(
        weights=None, width_mult=0.25, num_classes=10, inverted_residual_setting=MOBILENET_V2_STAGES
    )
    last_in = model.features[-1][0].in_channels
    model.features[-1] = torchvision.ops.Conv2dNormActivation(
        last_in, 128, kernel_size=1, activation_layer=nn.ReLU6
    )
    model.classifier[-1] = nn.Linear(128, 10)
    return model


def mobilenet_v3() -> nn.Module:
    """torchvision MobileNetV3-Small, width_mult 0.25, reduced tail: hardswish, SE blocks
    (adaptive pooling, hardsigmoid), adaptive pooling, dropout (gone in eval)."""
    return torchvision.models.mobilenet_v3_small(
        weights=None, width_mult=0.25, reduced_tail=True, num_classes=10
    )


def efficientnet() -> nn.Module:
    """timm EfficientNet-B0 layout, channel multiplier 0.125, depth 0.25: SiLU, SE, depthwise."""
    return timm.models.efficientnet._gen_efficientnet(
        "efficientnet_b0", channel_multiplier=0.125, depth_multiplier=0.25, num_classes=10
    )


def convnext() -> nn.Module:
    """timm ConvNeXt, dims 8-16-24-32, one block a stage: LayerNorm -> MVN, GELU, permutes."""
    return timm.models.convnext.ConvNeXt(depths=(1, 1, 1, 1), dims=(8, 16, 24, 32), num_classes=10)


def vit() -> nn.Module:
    """timm ViT: 32x32 images, 8x8 patches, embed 32, 2 blocks of 2 heads, a class token."""
    return timm.models.vision_transformer.VisionTransformer(
        img_size=32, patch_size=8, embed_dim=32, depth=2, num_heads=2, mlp_ratio=2.0, num_classes=10
    )


def deit() -> nn.Module:
    """timm DeiT (distilled: class and distillation tokens), embed 32, 1 block."""
    return timm.models.deit.VisionTransformerDistilled(
        img_size=32, patch_size=8, embed_dim=32, depth=1, num_heads=2, mlp_ratio=2.0, num_classes=10
    )


class _OneOutput(nn.Module):
    """A transformers model called with input_ids and attention_mask, returning one field of its
    output (a plain tensor, which tracing needs)."""

    def __init__(self, model: nn.Module, field_name: str) -> None:
        super().__init__()
        self.model = model
        self.field_name = field_name

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        out = self.model(input_ids=input_ids, attention_mask=attention_mask)
        return getattr(out, self.field_name)


def bert() -> nn.Module:
    """transformers BERT encoder: 2 layers, hidden 32, 2 heads; input_ids and attention_mask."""
    config = transformers.BertConfig(
        vocab_size=128,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        type_vocab_size=2,
    )
    return _OneOutput(transformers.BertModel(config, add_pooling_layer=False), "last_hidden_state")


def gpt2() -> nn.Module:
    """transformers GPT-2 LM: 2 layers, n_embd 32, 2 heads, causal mask, no KV cache, eager
    attention (its mask's torch.where -> Select; OpenVINO still fuses the attention itself
    into ScaledDotProductAttention, as it does timm's unfused attention)."""
    config = transformers.GPT2Config(
        vocab_size=128,
        n_positions=128,
        n_embd=32,
        n_layer=2,
        n_head=2,
        n_inner=64,
        use_cache=False,
        attn_implementation="eager",
        bos_token_id=1,
        eos_token_id=1,
    )
    return _OneOutput(transformers.GPT2LMHeadModel(config), "logits")


class KVDecoder(nn.Module):
    """A GPT-style decoder of two layers with a KV cache, written out (transformers' cache
    object does not trace): token and position embeddings, pre-norm causal self-attention whose
    keys and values are the past ones concatenated with the new ones (torch SDPA), a GELU MLP.
    (input_ids, past key0, value0, key1, value1) -> (logits, present key0, value0, key1,
    value1): the layout optimum-intel exports before making the model stateful."""

    def __init__(self, vocab: int = 128, width: int = 32, heads: int = 2, layers: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.tokens, self.positions = nn.Embedding(vocab, width), nn.Embedding(128, width)
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(2 * layers))
        self.qkv = nn.ModuleList(nn.Linear(width, 3 * width) for _ in range(layers))
        self.out = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.mlp = nn.ModuleList(
            nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))
            for _ in range(layers)
        )
        self.head = nn.Linear(width, vocab, bias=False)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        return x.reshape(batch, length, self.heads, width // self.heads).transpose(1, 2)

    def forward(
        self,
        input_ids: torch.Tensor,
        past0: torch.Tensor,
        past1: torch.Tensor,
        past2: torch.Tensor,
        past3: torch.Tensor,
    ) -> Any:
        past = (past0, past1, past2, past3)  # named: convert_model passes a dict's items by name
        start = past0.shape[2]
        positions = torch.arange(start, start + input_ids.shape[1]).unsqueeze(0)
        x = self.tokens(input_ids) + self.positions(positions)
        present = []
        for layer, (qkv, out, mlp) in enumerate(zip(self.qkv, self.out, self.mlp, strict=True)):
            q, k, v = (self._split(t) for t in qkv(self.norms[2 * layer](x)).chunk(3, dim=-1))
            k = torch.cat([past[2 * layer], k], dim=2)
            v = torch.cat([past[2 * layer + 1], v], dim=2)
            present += [k, v]
            mask = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).tril(k.shape[2] - q.shape[2])
            attended = nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            x = x + out(attended.transpose(1, 2).flatten(2))
            x = x + mlp(self.norms[2 * layer + 1](x))
        return (self.head(x), *present)


class UNet(nn.Module):
    """A two-level UNet: conv blocks, max pooling, a ConvTranspose up and an Interpolate up
    (to the skip's size, read from its shape), Concat skips, and a 1x1 head."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
            )

        self.enc1, self.enc2, self.mid = block(3, width), block(width, 2 * width), block(2 * width, 4 * width)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.ConvTranspose2d(4 * width, 2 * width, 2, stride=2)
        self.dec2 = block(4 * width, 2 * width)
        self.dec1 = block(3 * width, width)
        self.head = nn.Conv2d(width, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], dim=1))
        up1 = nn.functional.interpolate(d2, size=e1.shape[-2:], mode="bilinear", align_corners=False)
        d1 = self.dec1(torch.cat([up1, e1], dim=1))
        return self.head(d1)


class FPN(nn.Module):
    """A small FPN: a strided backbone, lateral 1x1 convs, nearest x2 upsampling and adds,
    then the levels resized to the finest and concatenated."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        chans = [width, 2 * width, 4 * width]
        self.stages = nn.ModuleList()
        cin = 3
        for c in chans:
            self.stages.append(nn.Sequential(nn.Conv2d(cin, c, 3, stride=2, padding=1), nn.ReLU()))
            cin = c
        self.lateral = nn.ModuleList(nn.Conv2d(c, width, 1) for c in chans)
        self.smooth = nn.Conv2d(3 * width, width, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        laterals = [conv(f) for conv, f in zip(self.lateral, feats, strict=True)]
        tops = [laterals[-1]]
        for lateral in reversed(laterals[:-1]):
            tops.append(lateral + nn.functional.interpolate(tops[-1], scale_factor=2.0, mode="nearest"))
        finest = tops[-1]
        levels = [nn.functional.interpolate(t, size=finest.shape[-2:], mode="nearest") for t in tops[:-1]]
        return self.smooth(torch.cat([*levels, finest], dim=1))


class RecurrentTagger(nn.Module):
    """Features -> bidirectional LSTM -> GRU -> per-step linear and softmax (LSTMSequence,
    GRUSequence, Softmax)."""

    def __init__(self, features: int = 16, hidden: int = 24) -> None:
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = self.lstm(x)
        y, _ = self.gru(y)
        return self.out(y).softmax(-1)


class AudioEncoder(nn.Module):
    """A speech-style encoder on [batch, mels, time]: strided Conv1d front end, GELU, a
    transpose to [batch, time, channels], a GRU and a per-frame classifier."""

    def __init__(self, mels: int = 20, width: int = 32) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(mels, width, 3, padding=1)
        self.conv2 = nn.Conv1d(width, width, 3, stride=2, padding=1)
        self.norm = nn.LayerNorm(width)
        self.gru = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, 12)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = nn.functional.gelu(self.conv1(x))
        x = nn.functional.gelu(self.conv2(x))
        y, _ = self.gru(self.norm(x.transpose(1, 2)))
        return self.out(y).log_softmax(-1)


def whisper_encoder() -> nn.Module:
    """transformers Whisper encoder: 2 layers, d_model 32, 20 mel bins, 64 source positions."""
    config = transformers.WhisperConfig(
        vocab_size=128,
        num_mel_bins=20,
        d_model=32,
        encoder_layers=2,
        encoder_attention_heads=2,
        encoder_ffn_dim=64,
        decoder_layers=1,
        decoder_attention_heads=2,
        decoder_ffn_dim=64,
        max_source_positions=64,
        max_target_positions=32,
        pad_token_id=1,
        bos_token_id=2,
        eos_token_id=2,
        decoder_start_token_id=3,
    )
    return _WhisperEncoder(transformers.WhisperModel(config).get_encoder())


class _WhisperEncoder(nn.Module):
    def __init__(self, encoder: nn.Module) -> None:
        super().__init__()
        self.encoder = encoder

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.encoder(features).last_hidden_state


# -- the corpus ------------------------------------------------------------------------------

IMAGE = (1, 3, 64, 64)
TOKENS = (1, 16)
KV_PAST = (1, 2, 3, 16)  # batch, heads, past tokens, head size


@dataclass
class Network:
    """One corpus file: a model, the example input it is traced with, how it is converted."""

    name: str
    build: Callable[..., Any]  # () -> nn.Module; (path) -> None for an ONNX network
    example: tuple[int, ...] | dict[str, tuple[int, ...]]
    inputs: list[str] | None = None  # convert_model(input=...): PartialShape texts, one per input
    reshape: str | None = None  # model.reshape(...) after conversion, to this PartialShape
    fp16: bool = False  # ov.save_model's default weight compression
    # the inputs past the first become variables (ReadValue), the outputs past the first
    # their updates (Assign): OpenVINO's MakeStateful, as optimum-intel applies it
    stateful: bool = False
    # through the ONNX frontend: build(path) writes an .onnx file, read by convert_model(path)
    onnx: bool = False
    # build() returns the ov.Model itself (openvino's opset API, openvino_tokenizers)
    ov_model: bool = False
    # NNCF after conversion: nncf.compress_weights(model, **compress) (with "mode" the name of
    # an nncf.CompressWeightsMode), or nncf.quantize(model, <seeded samples>, **quantize)
    compress: dict[str, Any] | None = None
    quantize: dict[str, Any] | None = None
    variant: str | None = None  # how an ov_model or exported network is made, for the manifest
    # build(xml) writes the IR itself (an exporter's files, e.g. optimum-intel's), not save_model
    exported: bool = False


def _tokens(shape: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    return {"input_ids": shape, "attention_mask": shape}


NETWORKS = [
    # (a) static shapes, fp32 weights
    Network("resnet_static_f32", resnet, IMAGE),
    Network("mobilenet_v2_static_f32", mobilenet_v2, IMAGE),
    Network("mobilenet_v3_static_f32", mobilenet_v3, IMAGE),
    Network("efficientnet_static_f32", efficientnet, IMAGE),
    Network("convnext_static_f32", convnext, IMAGE),
    Network("vit_static_f32", vit, (1, 3, 32, 32)),
    Network("deit_static_f32", deit, (1, 3, 32, 32)),
    Network("bert_static_f32", bert, _tokens(TOKENS)),
    Network("gpt2_static_f32", gpt2, _tokens(TOKENS)),
    Network("unet_static_f32", UNet, IMAGE),
    Network("fpn_static_f32", FPN, IMAGE),
    Network("recurrent_static_f32", RecurrentTagger, (2, 10, 16)),
    Network("audio_static_f32", AudioEncoder, (1, 20, 50)),
    Network("whisper_encoder_static_f32", whisper_encoder, (1, 20, 128)),
    # (b) static shapes, ov.save_model's default fp16 weights (Const f16 -> Convert)
    Network("resnet_static_f16", resnet, IMAGE, fp16=True),
    Network("mobilenet_v3_static_f16", mobilenet_v3, IMAGE, fp16=True),
    Network("bert_static_f16", bert, _tokens(TOKENS), fp16=True),
    # (c) dynamic inputs
    Network("resnet_dyn_batch_hw", resnet, IMAGE, inputs=["[?,3,?,?]"], fp16=True),
    Network("mobilenet_v2_dyn_hw", mobilenet_v2, IMAGE, inputs=["[1,3,?,?]"]),
    Network("mobilenet_v3_interval", mobilenet_v3, IMAGE, inputs=["[1..4,3,64..224,64..224]"], fp16=True),
    Network("convnext_interval", convnext, IMAGE, inputs=["[1..4,3,64..224,64..224]"], fp16=True),
    Network("unet_interval", UNet, IMAGE, inputs=["[1..4,3,64..224,64..224]"]),
    Network("fpn_dyn_hw", FPN, IMAGE, inputs=["[1,3,?,?]"]),
    Network("efficientnet_reshaped_batch", efficientnet, IMAGE, reshape="[?,3,64,64]", fp16=True),
    Network("vit_reshaped_batch", vit, (1, 3, 32, 32), reshape="[1..8,3,32,32]"),
    Network("bert_dyn_tokens", bert, _tokens(TOKENS), inputs=["[?,?]", "[?,?]"]),
    Network("gpt2_interval_tokens", gpt2, _tokens(TOKENS), inputs=["[1,1..128]", "[1,1..128]"]),
    Network("recurrent_dyn", RecurrentTagger, (2, 10, 16), inputs=["[?,?,16]"]),
    Network("recurrent_interval", RecurrentTagger, (2, 10, 16), inputs=["[1..8,1..100,16]"]),
    Network("audio_dyn_time", AudioEncoder, (1, 20, 50), inputs=["[1,20,?]"]),
    Network("whisper_encoder_dyn_time", whisper_encoder, (1, 20, 128), inputs=["[1,20,?]"], fp16=True),
    # (d) stateful: a KV cache of ReadValue/Assign pairs
    Network(
        "decoder_stateful_kv",
        KVDecoder,
        {"input_ids": (1, 4), **{f"past{i}": KV_PAST for i in range(4)}},
        inputs=["[?,?]", *["[?,2,?,16]"] * 4],
        stateful=True,
    ),
]


def _example(network: Network) -> Any:
    if isinstance(network.example, dict):
        return {key: _example_tensor(key, shape) for key, shape in network.example.items()}
    return torch.randn(network.example)


# the real inputs named in an example dict (past* KV caches too); the others are token ids
REAL_INPUTS = {"pixel_values", "input_points"}


def _example_tensor(key: str, shape: tuple[int, ...]) -> torch.Tensor:
    if key.startswith("past") or key in REAL_INPUTS:
        return torch.randn(shape)
    return torch.ones(shape, dtype=torch.long)


def _tensors(example: Any) -> list[torch.Tensor]:
    return list(example.values()) if isinstance(example, dict) else [example]


def convert(network: Network) -> ov.Model:
    """The network built with seeded random weights and converted by OpenVINO."""
    torch.manual_seed(SEED)
    if network.ov_model:
        return network.build()
    if network.onnx:
        with tempfile.TemporaryDirectory(prefix="irshape-onnx-") as tmp:
            path = Path(tmp) / f"{network.name}.onnx"
            network.build(path)
            if network.inputs is None:
                return ov.convert_model(str(path))
            return ov.convert_model(str(path), input=[ov.PartialShape(text) for text in network.inputs])
    model = network.build().eval()
    example = _example(network)
    # Without input=, convert_model leaves every input dimension dynamic: a static network names
    # its example's shapes.
    shapes = network.inputs or [str(list(t.shape)) for t in _tensors(example)]
    kwargs = {"example_input": example, "input": [ov.PartialShape(text) for text in shapes]}
    with torch.no_grad():
        converted = ov.convert_model(model, **kwargs)
    if network.reshape is not None:
        converted.reshape(ov.PartialShape(network.reshape))
    if network.stateful:
        pairs = list(zip(converted.get_parameters()[1:], converted.get_results()[1:], strict=True))
        apply_make_stateful_transformation(converted, pairs)
    return _compressed(network, converted)


def _compressed(network: Network, model: ov.Model) -> ov.Model:
    """The model as NNCF compresses or quantizes it, if the network says so (else itself)."""
    if network.compress is None and network.quantize is None:
        return model
    import nncf  # (only these networks need it)

    if network.compress is not None:
        options = dict(network.compress)
        mode = getattr(nncf.CompressWeightsMode, options.pop("mode"))
        return nncf.compress_weights(model, mode=mode, **options)
    options = dict(network.quantize or {})
    if "model_type" in options:
        options["model_type"] = getattr(nncf.ModelType, options["model_type"])
    samples = _calibration_samples(network, CALIBRATION_SAMPLES)
    return nncf.quantize(model, nncf.Dataset(samples), subset_size=len(samples), **options)


CALIBRATION_SAMPLES = 4


def _calibration_samples(network: Network, count: int) -> list[Any]:
    """Seeded inputs at the example's shapes: reals standard normal, token ids in [0, 128),
    attention masks all ones."""
    rng = np.random.default_rng(SEED)
    if not isinstance(network.example, dict):
        return [rng.standard_normal(network.example).astype(np.float32) for _ in range(count)]
    return [
        {
            key: np.ones(shape, np.int64) if "mask" in key else rng.integers(0, 128, shape)
            for key, shape in network.example.items()
        }
        for _ in range(count)
    ]


def write(network: Network, directory: Path) -> None:
    xml = directory / f"{network.name}.xml"
    if network.exported:
        network.build(xml)  # the exporter's own files, as it wrote them
    else:
        ov.save_model(convert(network), str(xml), compress_to_fp16=network.fp16)
    expected = directory / f"{network.name}.expected.json"
    expected.write_text(dump_expected(derive_expected(xml)), encoding="utf-8")
    size = xml.with_suffix(".bin").stat().st_size
    print(f"{network.name}: {xml.stat().st_size} B xml, {size} B bin", flush=True)


# -- the manifest ----------------------------------------------------------------------------

LIBRARIES = {
    resnet: "timm",
    mobilenet_v2: "torchvision",
    mobilenet_v3: "torchvision",
    efficientnet: "timm",
    convnext: "timm",
    vit: "timm",
    deit: "timm",
    bert: "transformers",
    gpt2: "transformers",
    KVDecoder: "torch.nn (here)",
    UNet: "torch.nn (here)",
    FPN: "torch.nn (here)",
    RecurrentTagger: "torch.nn (here)",
    AudioEncoder: "torch.nn (here)",
    whisper_encoder: "transformers",
}

# -- corpus16: dynamic networks whose shape subgraphs the entries above do not have ----------
# (one block: the models, their entries and their libraries; issue 14)


def swin() -> nn.Module:
    """timm Swin, 64x64 images, 4x4 patches, embed 16, window 4, one stage of 2 blocks (2 heads),
    dynamic image size: window partition pads H and W to the window from their shapes,
    Roll for the shifted windows, the attention mask built from the padded size."""
    return timm.models.swin_transformer.SwinTransformer(
        img_size=64,
        patch_size=4,
        window_size=4,
        embed_dim=16,
        depths=(2,),
        num_heads=(2,),
        mlp_ratio=2.0,
        num_classes=10,
        strict_img_size=False,
        dynamic_img_size=True,
    )


class _LastHidden(nn.Module):
    """A transformers model called with one tensor (positionally), returning last_hidden_state."""

    def __init__(self, model: nn.Module, **kwargs: Any) -> None:
        super().__init__()
        self.model = model
        self.kwargs = kwargs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x, **self.kwargs).last_hidden_state


def swin_hf() -> nn.Module:
    """transformers Swin: patch 4, embed 16, window 4, stages of 2 and 1 blocks (maybe_pad: Pad
    by (window - W % window) % window computed from the shape)."""
    config = transformers.SwinConfig(
        image_size=64,
        patch_size=4,
        embed_dim=16,
        depths=[2, 1],
        num_heads=[1, 2],
        window_size=4,
        mlp_ratio=2.0,
    )
    return _LastHidden(transformers.SwinModel(config, add_pooling_layer=False))


def vit_interpolated() -> nn.Module:
    """transformers ViT, patch 8, hidden 32, 1 layer, called with interpolate_pos_encoding=True:
    the 4x4 position grid is resized (bicubic Interpolate) to the image's patch grid."""
    config = transformers.ViTConfig(
        image_size=32,
        patch_size=8,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
    )
    return _LastHidden(transformers.ViTModel(config, add_pooling_layer=False), interpolate_pos_encoding=True)


class _Logits(nn.Module):
    """A transformers language model called with input_ids and attention_mask, returning its
    logits."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, attention_mask=attention_mask).logits


class _SegmentationLogits(nn.Module):
    """SegFormer's logits (at 1/4 of the image) resized to the image's size, read from its shape."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        logits = self.model(pixel_values=pixel_values).logits
        return nn.functional.interpolate(
            logits, size=pixel_values.shape[-2:], mode="bilinear", align_corners=False
        )


def segformer() -> nn.Module:
    """transformers SegFormer: 2 stages of 1 block, widths 8-16, spatial reduction 4-2, a 16-wide
    all-MLP decoder whose levels are Interpolated to the first level's size (size=shape[2:]),
    then the logits resized to the image's size."""
    config = transformers.SegformerConfig(
        num_encoder_blocks=2,
        depths=[1, 1],
        hidden_sizes=[8, 16],
        decoder_hidden_size=16,
        num_attention_heads=[1, 2],
        sr_ratios=[4, 2],
        strides=[4, 2],
        patch_sizes=[7, 3],
        mlp_ratios=[2, 2],
        num_labels=3,
    )
    return _SegmentationLogits(transformers.SegformerForSemanticSegmentation(config))


class _Seq2Seq(nn.Module):
    """An encoder-decoder called with input_ids, attention_mask and decoder_input_ids."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, decoder_input_ids: torch.Tensor
    ) -> torch.Tensor:
        out = self.model(
            input_ids=input_ids, attention_mask=attention_mask, decoder_input_ids=decoder_input_ids
        )
        return out.last_hidden_state


def t5() -> nn.Module:
    """transformers T5 encoder-decoder: 1+1 layers, d_model 32, 2 heads of 16, 8 relative
    position buckets (Range on both lengths, Abs/Log/Minimum/Select on the distances), no cache."""
    config = transformers.T5Config(
        vocab_size=128,
        d_model=32,
        d_kv=16,
        d_ff=64,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        relative_attention_num_buckets=8,
        relative_attention_max_distance=16,
        use_cache=False,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
    )
    return _Seq2Seq(transformers.T5Model(config))


def llama() -> nn.Module:
    """transformers LLaMA LM: 2 layers, hidden 32, 2 heads sharing 1 KV head, rotary embeddings
    (positions from a Range on the length), causal mask built from the shapes, no cache."""
    config = transformers.LlamaConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    return _Logits(transformers.LlamaForCausalLM(config))


def deberta() -> nn.Module:
    """transformers DeBERTa-v2 encoder: 1 layer, hidden 32, 2 heads, relative attention with 16
    log buckets (Sign/Abs/Log/Ceiling on the relative positions of a Range on the length)."""
    config = transformers.DebertaV2Config(
        vocab_size=128,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        relative_attention=True,
        position_buckets=16,
        max_relative_positions=64,
        pos_att_type=["p2c", "c2p"],
        type_vocab_size=0,
        position_biased_input=False,
    )
    return _OneOutput(transformers.DebertaV2Model(config), "last_hidden_state")


def bloom() -> nn.Module:
    """transformers BLOOM LM: 1 layer, hidden 32, 2 heads, ALiBi biases from the attention mask's
    CumSum, no cache."""
    config = transformers.BloomConfig(
        vocab_size=128,
        hidden_size=32,
        n_layer=1,
        n_head=2,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    return _Logits(transformers.BloomForCausalLM(config))


def wav2vec2() -> nn.Module:
    """transformers Wav2Vec2 on raw audio: a 3-conv feature extractor (kernels 10-3-3, strides
    5-2-2, 16 wide, GroupNorm), a grouped positional conv whose extra frame is sliced off, 1
    encoder layer of hidden 32."""
    config = transformers.Wav2Vec2Config(
        vocab_size=32,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        conv_dim=(16, 16, 16),
        conv_stride=(5, 2, 2),
        conv_kernel=(10, 3, 3),
        num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4,
        feat_extract_norm="group",
        mask_time_prob=0.0,
    )
    return _LastHidden(transformers.Wav2Vec2Model(config))


def tf_efficientnet() -> nn.Module:
    """timm TF EfficientNet-B0 layout (channel multiplier 0.125, depth 0.25) with TF 'SAME'
    padding: each strided conv pads by ceil(x / s) arithmetic on its input's shape (Convert,
    Divide, Ceiling, Maximum, Pad)."""
    return timm.models.efficientnet._gen_efficientnet(
        "tf_efficientnet_b0", channel_multiplier=0.125, depth_multiplier=0.25, num_classes=10, pad_type="same"
    )


class YoloHead(nn.Module):
    """A YOLO-style detector: strided convs, two 1x1 heads (stride 8 and 16) viewed as [batch,
    anchors, h, w, 8], a grid from meshgrid(arange(h), arange(w)) of the feature size, box decoding
    and the levels concatenated."""

    def __init__(self, width: int = 8, classes: int = 3, anchors: int = 2) -> None:
        super().__init__()
        self.anchors, self.outputs = anchors, classes + 5
        self.stem = nn.Sequential(
            nn.Conv2d(3, width, 3, 2, 1), nn.SiLU(), nn.Conv2d(width, width, 3, 2, 1), nn.SiLU()
        )
        self.down = nn.ModuleList(
            [
                nn.Sequential(nn.Conv2d(width, 2 * width, 3, 2, 1), nn.SiLU()),
                nn.Sequential(nn.Conv2d(2 * width, 4 * width, 3, 2, 1), nn.SiLU()),
            ]
        )
        self.heads = nn.ModuleList(nn.Conv2d(c, anchors * self.outputs, 1) for c in (2 * width, 4 * width))
        self.register_buffer(
            "anchor_wh", torch.tensor([[10.0, 13.0], [30.0, 60.0]]).view(1, anchors, 1, 1, 2)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        boxes = []
        for stride, down, head in zip((8, 16), self.down, self.heads, strict=True):
            x = down(x)
            p = head(x)
            bs, _, ny, nx = p.shape
            p = p.view(bs, self.anchors, self.outputs, ny, nx).permute(0, 1, 3, 4, 2).sigmoid()
            yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
            grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()
            xy = (p[..., :2] * 2 - 0.5 + grid) * stride
            wh = (p[..., 2:4] * 2) ** 2 * self.anchor_wh
            boxes.append(torch.cat((xy, wh, p[..., 4:]), -1).view(bs, -1, self.outputs))
        return torch.cat(boxes, 1)


class _SinePositions(nn.Module):
    """DETR's PositionEmbeddingSine, from a mask of ones of the feature map's size (CumSum,
    Power, Sin/Cos, stack and flatten)."""

    def __init__(self, feats: int, temperature: float = 10000.0) -> None:
        super().__init__()
        self.feats, self.temperature = feats, temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mask = torch.ones(x.shape[0], x.shape[2], x.shape[3], dtype=torch.bool)
        y_embed = mask.cumsum(1, dtype=torch.float32)
        x_embed = mask.cumsum(2, dtype=torch.float32)
        y_embed = y_embed / (y_embed[:, -1:, :] + 1e-6) * 6.2831
        x_embed = x_embed / (x_embed[:, :, -1:] + 1e-6) * 6.2831
        dim_t = torch.arange(self.feats, dtype=torch.float32)
        dim_t = self.temperature ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / self.feats)
        pos_x, pos_y = x_embed[:, :, :, None] / dim_t, y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
        return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)


class DetrLike(nn.Module):
    """A DETR-like detector: three strided convs (16 wide), sine positions of the feature map,
    torch.nn.Transformer (1+1 layers, 2 heads) on the flattened map, 10 learned queries repeated
    to the batch, class and box heads."""

    def __init__(self, width: int = 16, queries: int = 10, classes: int = 4) -> None:
        super().__init__()
        self.backbone = nn.Sequential(
            *(m for cin in (3, width, width) for m in (nn.Conv2d(cin, width, 3, 2, 1), nn.ReLU()))
        )
        self.position = _SinePositions(width // 2)
        self.transformer = nn.Transformer(width, 2, 1, 1, 2 * width, dropout=0.0, batch_first=True)
        self.queries = nn.Embedding(queries, width)
        self.classes = nn.Linear(width, classes + 1)
        self.boxes = nn.Linear(width, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.backbone(x)
        src = (f + self.position(f)).flatten(2).transpose(1, 2)
        tgt = self.queries.weight.unsqueeze(0).repeat(x.shape[0], 1, 1)
        h = self.transformer(src, tgt)
        return self.classes(h), self.boxes(h).sigmoid()


class TasNet(nn.Module):
    """A Conv-TasNet-like separator on raw audio [batch, time]: a strided Conv1d encoder,
    GroupNorm, a dilated depthwise TCN with PReLU, two sigmoid masks, a ConvTranspose1d decoder,
    and a Pad back to the input's length (computed from both shapes)."""

    def __init__(self, basis: int = 16, kernel: int = 16, width: int = 16, speakers: int = 2) -> None:
        super().__init__()
        self.speakers = speakers
        self.encoder = nn.Conv1d(1, basis, kernel, stride=kernel // 2, bias=False)
        self.norm = nn.GroupNorm(1, basis)
        self.tcn = nn.Sequential(
            nn.Conv1d(basis, width, 1),
            nn.PReLU(),
            nn.Conv1d(width, width, 3, padding=2, dilation=2, groups=width),
            nn.PReLU(),
            nn.Conv1d(width, basis * speakers, 1),
        )
        self.decoder = nn.ConvTranspose1d(basis, 1, kernel, stride=kernel // 2, bias=False)

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        w = torch.relu(self.encoder(audio.unsqueeze(1)))
        masks = torch.sigmoid(self.tcn(self.norm(w))).view(w.shape[0], self.speakers, w.shape[1], -1)
        sources = (masks * w.unsqueeze(1)).view(-1, w.shape[1], w.shape[2])
        out = self.decoder(sources).view(audio.shape[0], self.speakers, -1)
        return nn.functional.pad(out, (0, audio.shape[-1] - out.shape[-1]))


class ShapeOps(nn.Module):
    """Assorted shape-computing resizes: Interpolate by scale 0.5 (recompute_scale_factor) and
    0.75, one resized to the other's size, adaptive average pooling to 5x5, pixel shuffle
    (DepthToSpace), unfold (im2col: Range on the shape), top-k with k = min(h * w, 10)."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, width, 3, 2, 1)
        self.conv2 = nn.Conv2d(width, 4 * width, 3, 1, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = torch.relu(self.conv(x))
        half = nn.functional.interpolate(y, scale_factor=0.5, mode="bilinear", recompute_scale_factor=True)
        three_quarters = nn.functional.interpolate(y, scale_factor=0.75, mode="nearest")
        resized = nn.functional.interpolate(half, size=three_quarters.shape[-2:], mode="nearest")
        pooled = nn.functional.adaptive_avg_pool2d(y, (5, 5))
        shuffled = nn.functional.pixel_shuffle(self.conv2(y), 2)
        patches = nn.functional.unfold(y, 3, stride=2)
        flat = y.flatten(2)
        scores, indices = flat.topk(min(flat.shape[-1], 10), dim=-1)
        return resized + three_quarters, pooled, shuffled, patches, scores, indices


class UpsampleSelect(nn.Module):
    """ConvTranspose2d with output_size from the skip's shape, ceil-mode max pooling,
    repeat_interleave and tile, and boolean-mask selection (NonZero, GatherND)."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        self.down = nn.Conv2d(3, width, 3, 2, 1)
        self.down2 = nn.Conv2d(width, width, 3, 2, 1)
        self.up = nn.ConvTranspose2d(width, width, 3, stride=2, padding=1)
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        a = self.down(x)
        up = self.up(self.down2(a), output_size=a.shape[-2:])
        p = self.pool(up + a)
        scores = p.amax(1).flatten(1)[0]
        return p.repeat_interleave(2, dim=1), p.tile(1, 1, 2, 1), scores[scores > 0.1]


class GreedyDecoder(nn.Module):
    """The model of ``greedy_decoder``: the only corpus file with Loop and If (and their bodies)."""

    def __init__(self, width: int = 8, vocab: int = 16) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.cell = nn.Linear(2 * width, width)
        self.out = nn.Linear(width, vocab)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.mean(1)
        token = torch.zeros(x.shape[0], dtype=torch.long)
        logits = []
        for _ in range(x.shape[1]):
            h = torch.tanh(self.cell(torch.cat([self.embed(token), h], 1)))
            step = self.out(h)
            token = step.argmax(-1)
            logits.append(step)
        y = torch.stack(logits, 1)
        if x.shape[0] > 1:
            y = y * 2.0
        return torch.relu(y) + 1.0


def greedy_decoder() -> nn.Module:
    """A greedy decoder, scripted (torch.jit.script, not traced): a Loop-5 of as many steps as the
    input is long (embedding of the last token, a tanh cell, ArgMax), the steps stacked, an If-8
    on the batch size; width 8, 16 tokens."""
    return torch.jit.script(GreedyDecoder())


def _encoder_decoder(tokens: tuple[int, int], targets: tuple[int, int]) -> dict[str, tuple[int, ...]]:
    return {**_tokens(tokens), "decoder_input_ids": targets}


NETWORKS += [
    Network("swin_dyn_hw", swin, IMAGE, inputs=["[1,3,?,?]"]),
    Network("swin_hf_interval", swin_hf, IMAGE, inputs=["[1..2,3,64..224,64..224]"]),
    Network("vit_interpolated_dyn_hw", vit_interpolated, (1, 3, 32, 32), inputs=["[1,3,?,?]"]),
    Network("segformer_interval", segformer, IMAGE, inputs=["[1..4,3,64..224,64..224]"]),
    Network("t5_dyn_tokens", t5, _encoder_decoder(TOKENS, (1, 8)), inputs=["[?,?]", "[?,?]", "[?,?]"]),
    Network("llama_interval_tokens", llama, _tokens(TOKENS), inputs=["[1,1..128]", "[1,1..128]"]),
    Network("deberta_dyn_tokens", deberta, _tokens(TOKENS), inputs=["[?,?]", "[?,?]"]),
    Network("bloom_dyn_tokens", bloom, _tokens(TOKENS), inputs=["[?,?]", "[?,?]"]),
    Network("wav2vec2_dyn_time", wav2vec2, (1, 1600), inputs=["[1,?]"]),
    Network("tasnet_interval", TasNet, (1, 800), inputs=["[1,160..16000]"]),
    Network(
        "tf_efficientnet_interval", tf_efficientnet, IMAGE, inputs=["[1..4,3,64..224,64..224]"], fp16=True
    ),
    Network("yolo_dyn_batch_hw", YoloHead, IMAGE, inputs=["[?,3,?,?]"]),
    Network("yolo_reshaped_batch", YoloHead, IMAGE, reshape="[?,3,64,64]"),
    Network("detr_interval", DetrLike, IMAGE, inputs=["[1..2,3,64..256,64..256]"]),
    Network("shape_ops_interval", ShapeOps, IMAGE, inputs=["[1..4,3,64..224,64..224]"], fp16=True),
    Network("upsample_select_interval", UpsampleSelect, IMAGE, inputs=["[1,3,63..224,64..225]"]),
    Network("greedy_decoder_interval", greedy_decoder, (2, 5, 8), inputs=["[1..4,1..10,8]"]),
]

LIBRARIES.update(
    {
        swin: "timm",
        swin_hf: "transformers",
        vit_interpolated: "transformers",
        segformer: "transformers",
        t5: "transformers",
        llama: "transformers",
        deberta: "transformers",
        bloom: "transformers",
        wav2vec2: "transformers",
        tf_efficientnet: "timm",
        YoloHead: "torch.nn (here)",
        DetrLike: "torch.nn (here)",
        TasNet: "torch.nn (here)",
        ShapeOps: "torch.nn (here)",
        UpsampleSelect: "torch.nn (here)",
        greedy_decoder: "torch.nn (here), torch.jit.script",
    }
)

# -- end of the corpus16 block -----------------------------------------------------------------

# -- deployed: detectors with their post-processing, ONNX control flow (issue 24) ------------
# (one block: the models, their entries and their libraries)

DETECTOR_SIZE = 128  # the detectors' own transform resizes every image to this (min = max size)
DETECTOR_WIDTH = 16  # FPN channels
DETECTOR_CLASSES = 3  # background and two


def _spread(model: nn.Module) -> nn.Module:
    """torch's default initialisation for every conv and linear layer: torchvision's heads start
    at std 0.01, which leaves every score near sigmoid(0) = 0.5, where NMS's order is decided by
    the last bit of the plugin's rounding."""
    for module in model.modules():
        if isinstance(module, nn.Conv2d | nn.Linear):
            module.reset_parameters()
    return model


class _FirstImage(nn.Module):
    """A torchvision detector called with a ``[1, 3, H, W]`` tensor, returning the named fields
    of the first image's detections (tracing needs tensors in and out)."""

    def __init__(self, model: nn.Module, fields: tuple[str, ...]) -> None:
        super().__init__()
        self.model = _spread(model)
        self.fields = fields

    def forward(self, images: torch.Tensor) -> tuple[torch.Tensor, ...]:
        detections = self.model([images[0]])[0]
        return tuple(detections[field] for field in self.fields)


class _NoExtraLevel(torchvision.ops.feature_pyramid_network.ExtraFPNBlock):
    """No pooled level past the FPN's two: torchvision's LastLevelMaxPool makes a level whose
    pixels are the previous level's, so the shared RPN head scores them the same and the order
    of those equal scores after NMS rests on the plugin's rounding of each copy."""

    def forward(self, results: list[Any], x: list[Any], names: list[str]) -> tuple[list[Any], list[str]]:
        return results, names


def _fpn_backbone(extra: nn.Module | None = None) -> nn.Module:
    """torchvision's MobileNetV3-Small features (width 0.25, reduced tail) under a 16-wide FPN on
    its last two stages, as torchvision's mobilenet detectors build it."""
    features = torchvision.models.mobilenet_v3_small(
        weights=None, width_mult=0.25, reduced_tail=True
    ).features
    stages = [0] + [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)] + [len(features) - 1]
    returned = stages[-2:]
    return torchvision.models.detection.backbone_utils.BackboneWithFPN(
        features,
        {str(stage): str(level) for level, stage in enumerate(returned)},
        [features[stage].out_channels for stage in returned],
        DETECTOR_WIDTH,
        extra_blocks=extra or _NoExtraLevel(),
    )


def _rcnn_arguments() -> dict[str, Any]:
    detection = torchvision.models.detection
    pool = torchvision.ops.MultiScaleRoIAlign(["0", "1"], 7, 2)
    return {
        "min_size": DETECTOR_SIZE,
        "max_size": DETECTOR_SIZE,
        "rpn_anchor_generator": detection.anchor_utils.AnchorGenerator(
            ((16, 32, 64),) * 2, ((0.5, 1.0, 2.0),) * 2
        ),
        "rpn_pre_nms_top_n_test": 40,
        "rpn_post_nms_top_n_test": 12,
        "box_roi_pool": pool,
        "box_head": detection.faster_rcnn.TwoMLPHead(DETECTOR_WIDTH * 49, 32),
        "box_predictor": detection.faster_rcnn.FastRCNNPredictor(32, DETECTOR_CLASSES),
        "box_score_thresh": 0.3,
        "box_detections_per_img": 8,
    }


def faster_rcnn() -> nn.Module:
    """torchvision Faster R-CNN, whole: its transform (normalise, resize to 128 computed in f32
    from the image's shape), a MobileNetV3-Small (0.25) + 16-wide FPN backbone, the RPN (anchors
    of 2 levels, top-k, box decoding, clipping, batched NMS inside an If), MultiScaleRoIAlign
    over 2 levels (ROIAlign), a 32-wide box head, per-class score threshold 0.3, NMS, 8
    detections, boxes scaled back to the input's size."""
    model = torchvision.models.detection.FasterRCNN(_fpn_backbone(), **_rcnn_arguments())
    return _FirstImage(model, ("boxes", "scores", "labels"))


def mask_rcnn() -> nn.Module:
    """torchvision Mask R-CNN as faster_rcnn, with a 16-wide mask head (one conv, ROIAlign 7x7, a
    ConvTranspose to 14x14) and the masks pasted into the image by a Loop over the detections."""
    detection = torchvision.models.detection
    model = detection.MaskRCNN(
        _fpn_backbone(),
        mask_roi_pool=torchvision.ops.MultiScaleRoIAlign(["0", "1"], 7, 2),
        mask_head=detection.mask_rcnn.MaskRCNNHeads(DETECTOR_WIDTH, [16], 1),
        mask_predictor=detection.mask_rcnn.MaskRCNNPredictor(16, 8, DETECTOR_CLASSES),
        **_rcnn_arguments(),
    )
    return _FirstImage(model, ("boxes", "scores", "labels", "masks"))


def keypoint_rcnn() -> nn.Module:
    """torchvision Keypoint R-CNN as faster_rcnn, with a 16-wide keypoint head (one conv,
    ROIAlign 7x7) for 5 keypoints, decoded from their heatmaps (a Loop over the detections)."""
    detection = torchvision.models.detection
    model = detection.KeypointRCNN(
        _fpn_backbone(),
        keypoint_roi_pool=torchvision.ops.MultiScaleRoIAlign(["0", "1"], 7, 2),
        keypoint_head=detection.keypoint_rcnn.KeypointRCNNHeads(DETECTOR_WIDTH, [16]),
        keypoint_predictor=detection.keypoint_rcnn.KeypointRCNNPredictor(16, 5),
        **_rcnn_arguments(),
    )
    return _FirstImage(model, ("boxes", "scores", "labels", "keypoints", "keypoints_scores"))


def _dense_arguments() -> dict[str, Any]:
    return {
        "min_size": DETECTOR_SIZE,
        "max_size": DETECTOR_SIZE,
        "score_thresh": 0.3,
        "topk_candidates": 20,
        "detections_per_img": 8,
    }


def _p6p7() -> nn.Module:
    return torchvision.ops.feature_pyramid_network.LastLevelP6P7(DETECTOR_WIDTH, DETECTOR_WIDTH)


def retinanet() -> nn.Module:
    """torchvision RetinaNet, whole: the same backbone with P6/P7 levels (4 levels), 3 anchors a
    location, a head of one GroupNorm conv per branch, per-level score threshold and top-k,
    box decoding, batched NMS in an If, 8 detections."""
    detection = torchvision.models.detection
    anchors = detection.anchor_utils.AnchorGenerator(((16,), (32,), (64,), (128,)), ((0.5, 1.0, 2.0),) * 4)
    head = detection.retinanet.RetinaNetHead(DETECTOR_WIDTH, 3, DETECTOR_CLASSES, norm_layer=_group_norm)
    model = detection.RetinaNet(
        _fpn_backbone(_p6p7()), DETECTOR_CLASSES, anchor_generator=anchors, head=head, **_dense_arguments()
    )
    return _FirstImage(model, ("boxes", "scores", "labels"))


def _group_norm(channels: int) -> nn.Module:
    return nn.GroupNorm(4, channels)


def fcos() -> nn.Module:
    """torchvision FCOS, whole: the same backbone with P6/P7 levels, one anchor point a location,
    classification, regression and centerness branches of one GroupNorm conv, sqrt(score x
    centerness), per-level threshold and top-k, batched NMS in an If, 8 detections."""
    detection = torchvision.models.detection
    anchors = detection.anchor_utils.AnchorGenerator(((8,), (16,), (32,), (64,)), ((1.0,),) * 4)
    head = detection.fcos.FCOSHead(DETECTOR_WIDTH, 1, DETECTOR_CLASSES, num_convs=0)
    head.classification_head = detection.fcos.FCOSClassificationHead(
        DETECTOR_WIDTH, 1, DETECTOR_CLASSES, num_convs=1, norm_layer=_group_norm
    )
    head.regression_head = detection.fcos.FCOSRegressionHead(
        DETECTOR_WIDTH, 1, num_convs=1, norm_layer=_group_norm
    )
    model = detection.FCOS(
        _fpn_backbone(_p6p7()), DETECTOR_CLASSES, anchor_generator=anchors, head=head, **_dense_arguments()
    )
    return _FirstImage(model, ("boxes", "scores", "labels"))


def ssdlite() -> nn.Module:
    """torchvision SSDLite320 layout: MobileNetV3-Large features (width 0.25, reduced tail) split
    at C4, extra blocks at width 0.125, SSDLite heads (depthwise convs) on 6 levels, default
    boxes, the image resized to 128x128, softmax scores, threshold 0.3, top-k 20 a class,
    batched NMS in an If, 8 detections."""
    detection = torchvision.models.detection
    norm = functools.partial(nn.BatchNorm2d, eps=0.001, momentum=0.03)
    features = torchvision.models.mobilenet_v3_large(
        weights=None, width_mult=0.25, reduced_tail=True, norm_layer=norm
    ).features
    c4 = [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)][-1]
    backbone = detection.ssdlite.SSDLiteFeatureExtractorMobileNet(
        features, c4, norm, width_mult=0.125, min_depth=8
    )
    anchors = detection.anchor_utils.DefaultBoxGenerator(
        [[2, 3] for _ in range(6)], min_ratio=0.2, max_ratio=0.95
    )
    channels = detection._utils.retrieve_out_channels(backbone, (DETECTOR_SIZE, DETECTOR_SIZE))
    head = detection.ssdlite.SSDLiteHead(channels, anchors.num_anchors_per_location(), DETECTOR_CLASSES, norm)
    model = detection.ssd.SSD(
        backbone,
        anchors,
        (DETECTOR_SIZE, DETECTOR_SIZE),
        DETECTOR_CLASSES,
        head=head,
        image_mean=[0.5] * 3,
        image_std=[0.5] * 3,
        score_thresh=0.37,  # (above the equal scores of a level whose features are all 0)
        nms_thresh=0.55,
        detections_per_img=8,
        topk_candidates=20,
    )
    return _FirstImage(model, ("boxes", "scores", "labels"))


def tf_mobilenetv3() -> nn.Module:
    """timm TF MobileNetV3-Small layout (channel multiplier 0.25) with TF 'SAME' padding, static:
    each strided conv's padding computed from its input's shape (ShapeOf, Convert to f32,
    Divide, Ceiling, Multiply, Subtract, Maximum, Convert to i64, Pad); the 1024-wide head conv
    (timm keeps it at any multiplier) replaced by a 128-wide one."""
    model = timm.models.mobilenetv3._gen_mobilenet_v3(
        "tf_mobilenetv3_small_100", channel_multiplier=0.25, num_classes=10, pad_type="same"
    )
    model.conv_head = nn.Conv2d(model.conv_head.in_channels, 128, 1)
    model.classifier = nn.Linear(128, 10)
    return model


# -- hand-built ONNX: what the onnx.helper builders of this file share -------------------------


def _onnx_value(name: str, element: int, shape: list[Any]) -> Any:
    """A graph's or body's input or output: its name, element type (TensorProto) and shape."""
    return helper.make_tensor_value_info(name, element, shape)


def _onnx_constant(name: str, array: Any) -> Any:
    """A Constant node of this value, its output named name."""
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(array), name))


def _onnx_branch(name: str, node: Any, output: Any) -> Any:
    """A branch of an If: one node, no inputs (it reads the outer graph's values), one output."""
    return helper.make_graph([node], name, [], [output])


def _onnx_loop_body(
    name: str, nodes: list[Any], carried: list[Any], results: list[Any], prefix: str = ""
) -> Any:
    """The body of an ONNX Loop: the iteration number (``{prefix}step``) and the condition
    (``{prefix}condition_in``) in before the carried values, the condition
    (``{prefix}condition_out``) out before the carried values' updates and the scan outputs."""
    return helper.make_graph(
        nodes,
        name,
        [
            _onnx_value(f"{prefix}step", TensorProto.INT64, []),
            _onnx_value(f"{prefix}condition_in", TensorProto.BOOL, []),
            *carried,
        ],
        [_onnx_value(f"{prefix}condition_out", TensorProto.BOOL, []), *results],
    )


@dataclass
class _OnnxGraph:
    """An ONNX graph written node by node: its nodes in order (the order OpenVINO converts them
    in, which numbers the layers' names) and the names of the results that are graph outputs."""

    nodes: list[Any] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)

    def constant(self, name: str, array: Any) -> None:
        self.nodes.append(_onnx_constant(name, array))

    def op(
        self, kind: str, inputs: list[str], results: list[str], out: bool = True, **attributes: Any
    ) -> None:
        """A node of this kind; its results are graph outputs unless out is False."""
        self.nodes.append(helper.make_node(kind, inputs, results, **attributes))
        if out:
            self.outputs.extend(results)


def _onnx_model(graph: Any, opset: int) -> Any:
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _save_onnx(model: Any, path: Path) -> None:
    """The model written to path once onnx's checker passes it."""
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def onnx_control_flow(path: Path) -> None:
    """Hand-built ONNX (onnx.helper, opset 17) read by OpenVINO's ONNX frontend: a Loop of as
    many steps as the input has rows (trip count from Shape/Gather), a carried state through
    MatMul/Add/Tanh and a scan output of every step (Loop-5 with a back edge and a concatenated
    output), then an If on the state's mean (ReduceMean, Greater) with a Relu and a Sigmoid
    branch (If-8)."""
    rng = np.random.default_rng(SEED)
    width = 8
    f32 = TensorProto.FLOAT
    weight = numpy_helper.from_array(rng.standard_normal((width, width)).astype(np.float32) * 0.5, "weight")
    body = _onnx_loop_body(
        "step",
        [
            helper.make_node("Gather", ["rows", "step"], ["row"], axis=0),
            helper.make_node("MatMul", ["state_in", "weight"], ["mixed"]),
            helper.make_node("Add", ["mixed", "row"], ["summed"]),
            helper.make_node("Tanh", ["summed"], ["state_out"]),
            helper.make_node("Identity", ["condition_in"], ["condition_out"]),
            helper.make_node("Identity", ["state_out"], ["step_out"]),
        ],
        [_onnx_value("state_in", f32, [width])],
        [_onnx_value("state_out", f32, [width]), _onnx_value("step_out", f32, [width])],
    )
    then_branch = _onnx_branch(
        "then", helper.make_node("Relu", ["steps"], ["then_out"]), _onnx_value("then_out", f32, ["n", width])
    )
    else_branch = _onnx_branch(
        "else",
        helper.make_node("Sigmoid", ["steps"], ["else_out"]),
        _onnx_value("else_out", f32, ["n", width]),
    )
    constants = {
        "zero": np.array(0, np.int64),
        "true": np.array(True),
        "start": np.zeros(width, np.float32),
        "threshold": np.array(0.0, np.float32),
    }
    graph = helper.make_graph(
        [
            *(_onnx_constant(name, array) for name, array in constants.items()),
            helper.make_node("Shape", ["rows"], ["shape"]),
            helper.make_node("Gather", ["shape", "zero"], ["trip_count"], axis=0),
            helper.make_node("Loop", ["trip_count", "true", "start"], ["state", "steps"], body=body),
            helper.make_node("ReduceMean", ["state"], ["mean"], keepdims=0),
            helper.make_node("Greater", ["mean", "threshold"], ["positive"]),
            helper.make_node("If", ["positive"], ["out"], then_branch=then_branch, else_branch=else_branch),
        ],
        "control_flow",
        [_onnx_value("rows", f32, ["n", width])],
        [_onnx_value("out", f32, ["n", width]), _onnx_value("state", f32, [width])],
        initializer=[weight],
    )
    _save_onnx(_onnx_model(graph, 17), path)


class LstmTagger(nn.Module):
    """A one-layer LSTM (16 in, 24 hidden) and a linear tagger; exported to ONNX."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(16, 24, batch_first=True)
        self.out = nn.Linear(24, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = self.lstm(x)
        return self.out(y)


def onnx_lstm(path: Path) -> None:
    """An LSTM tagger exported by torch.onnx.export (TorchScript exporter, opset 17: ONNX LSTM,
    Transpose, MatMul), batch and time dynamic, read by OpenVINO's ONNX frontend."""
    model = LstmTagger().eval()
    torch.onnx.export(
        model,
        (torch.randn(2, 10, 16),),
        str(path),
        opset_version=17,
        input_names=["features"],
        output_names=["tags"],
        dynamic_axes={"features": {0: "batch", 1: "time"}, "tags": {0: "batch", 1: "time"}},
        dynamo=False,
    )


DETECTOR_IMAGE = (1, 3, 320, 320)

NETWORKS += [
    Network("faster_rcnn_static_f32", faster_rcnn, DETECTOR_IMAGE),
    Network("mask_rcnn_static_f32", mask_rcnn, DETECTOR_IMAGE),
    Network("keypoint_rcnn_static_f32", keypoint_rcnn, DETECTOR_IMAGE),
    Network("retinanet_static_f32", retinanet, DETECTOR_IMAGE),
    Network("fcos_static_f32", fcos, DETECTOR_IMAGE),
    Network("ssdlite_static_f16", ssdlite, DETECTOR_IMAGE, fp16=True),
    Network("faster_rcnn_interval", faster_rcnn, DETECTOR_IMAGE, inputs=["[1,3,240..480,240..480]"]),
    Network("tf_efficientnet_static_f32", tf_efficientnet, IMAGE),
    Network("tf_mobilenetv3_static_f16", tf_mobilenetv3, IMAGE, fp16=True),
    Network("onnx_control_flow_dyn", onnx_control_flow, (), onnx=True),
    Network("onnx_lstm_dyn", onnx_lstm, (), onnx=True),
]

LIBRARIES.update(
    {
        faster_rcnn: "torchvision",
        mask_rcnn: "torchvision",
        keypoint_rcnn: "torchvision",
        retinanet: "torchvision",
        fcos: "torchvision",
        ssdlite: "torchvision",
        tf_mobilenetv3: "timm",
        onnx_control_flow: "onnx.helper (here), ONNX frontend",
        onnx_lstm: "torch.onnx.export, ONNX frontend",
    }
)

# -- end of the deployed block ---------------------------------------------------------------

# -- corpus3: compressed and quantized models, tokenizers, TensorIterator (issue 24) ----------
# NNCF's weight compression of a tiny LLM and quantization of a CNN and an encoder (the
# networks above, their entries naming NNCF's options), openvino_tokenizers' tokenizer and
# detokenizer models (string tensors and extension ops), and TensorIterators from the ONNX
# frontend (Scan) and from openvino's opset API (LSTMCell bodies, as the Model Optimizer wrote
# recurrent layers).

# A BPE and a WordPiece vocabulary trained here, on a few sentences (no hub download).
TOKENIZER_TEXT = [
    "the quick brown fox jumps over the lazy dog",
    "irshape checks openvino models layer by layer",
    "hello world, tokenizers in openvino read strings",
    "a tiny corpus of text to train a vocabulary on",
]


def _bpe_tokenizer() -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token=None))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(TOKENIZER_TEXT * 4, trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, eos_token="<|endoftext|>", bos_token="<|endoftext|>"
    )


def _wordpiece_tokenizer() -> Any:
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    tokenizer.train_from_iterator(
        TOKENIZER_TEXT * 4, trainers.WordPieceTrainer(vocab_size=120, special_tokens=special)
    )
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]"
    )


def _converted_tokenizer(hf_tokenizer: Any, detokenizer: bool) -> ov.Model:
    import openvino_tokenizers

    models = openvino_tokenizers.convert_tokenizer(hf_tokenizer, with_detokenizer=True)
    return models[1 if detokenizer else 0]


def bpe_tokenizer() -> ov.Model:
    """openvino_tokenizers' tokenizer of a byte-level BPE vocabulary (300 tokens, trained here
    with the tokenizers library, GPT-2 style): a string tensor [?] in, StringTensorUnpack-15,
    the extension ops SpecialTokensSplit, RegexSplit, BPETokenizer, Truncate, CombineSegments,
    RaggedToDense, input_ids and attention_mask out; a ReadValue/Assign pair holds the
    truncation side."""
    return _converted_tokenizer(_bpe_tokenizer(), detokenizer=False)


def bpe_detokenizer() -> ov.Model:
    """openvino_tokenizers' detokenizer of the same BPE vocabulary: token ids [?,?] in,
    the extension ops VocabDecoder, FuzeRagged, UTF8Validate, StringTensorPack-15, strings out."""
    return _converted_tokenizer(_bpe_tokenizer(), detokenizer=True)


def wordpiece_tokenizer() -> ov.Model:
    """openvino_tokenizers' tokenizer of a BERT-style WordPiece vocabulary (120 tokens, trained
    here, lower-cased, [CLS] ... [SEP]): the extension ops CharsMapNormalization,
    RegexNormalization, RegexSplit, WordpieceTokenizer and the rest of the BPE one's."""
    return _converted_tokenizer(_wordpiece_tokenizer(), detokenizer=False)


def wordpiece_detokenizer() -> ov.Model:
    """openvino_tokenizers' detokenizer of the same WordPiece vocabulary (VocabDecoder, the
    '##' joins as RegexNormalization, StringTensorPack-15)."""
    return _converted_tokenizer(_wordpiece_tokenizer(), detokenizer=True)


def onnx_scan(path: Path, static: bool) -> None:
    """Hand-built ONNX (onnx.helper, opset 17) read by OpenVINO's ONNX frontend, which turns a
    Scan into a TensorIterator-1: an Elman RNN over the time axis (8 in, 12 hidden: MatMul, Add,
    Tanh) from a zero state of the input's batch (Shape, Gather, Concat, ConstantOfShape), its
    every step (a concatenated output) and its last state (a back edge)."""
    rng = np.random.default_rng(SEED)
    width, hidden = 8, 12
    batch, time = (2, 10) if static else ("batch", "time")

    def value(name: str, shape: list[Any]) -> Any:
        return _onnx_value(name, TensorProto.FLOAT, shape)

    def weight(name: str, rows: int) -> Any:
        return numpy_helper.from_array((rng.standard_normal((rows, hidden)) * 0.3).astype(np.float32), name)

    body = helper.make_graph(
        [
            helper.make_node("MatMul", ["x_t", "w"], ["xw"]),
            helper.make_node("MatMul", ["h_in", "u"], ["hu"]),
            helper.make_node("Add", ["xw", "hu"], ["pre"]),
            helper.make_node("Tanh", ["pre"], ["h_out"]),
            helper.make_node("Identity", ["h_out"], ["y_t"]),
        ],
        "cell",
        [value("h_in", [batch, hidden]), value("x_t", [batch, width])],
        [value("h_out", [batch, hidden]), value("y_t", [batch, hidden])],
    )
    graph = helper.make_graph(
        [
            _onnx_constant("zero", np.array([0], np.int64)),
            _onnx_constant("hidden", np.array([hidden], np.int64)),
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
            helper.make_node("Concat", ["batch", "hidden"], ["state_shape"], axis=0),
            helper.make_node("ConstantOfShape", ["state_shape"], ["h0"]),
            helper.make_node(
                "Scan",
                ["h0", "x"],
                ["h_last", "ys"],
                body=body,
                num_scan_inputs=1,
                scan_input_axes=[1],
                scan_output_axes=[1],
            ),
        ],
        "rnn",
        [value("x", [batch, time, width])],
        [value("ys", [batch, time, hidden]), value("h_last", [batch, hidden])],
        initializer=[weight("w", width), weight("u", hidden)],
    )
    _save_onnx(_onnx_model(graph, 17), path)


def onnx_scan_static(path: Path) -> None:
    onnx_scan(path, static=True)


def onnx_scan_dyn(path: Path) -> None:
    onnx_scan(path, static=False)


onnx_scan_static.__doc__ = onnx_scan_dyn.__doc__ = onnx_scan.__doc__

TI_FEATURES, TI_HIDDEN = 16, 12


def _lstm_direction(x: Any, h0: Any, reverse: bool, rng: np.random.Generator) -> tuple[Any, Any]:
    """One direction of an LSTM as the Model Optimizer wrote it: a TensorIterator over the time
    axis whose body squeezes the step, runs an LSTMCell-4 and unsqueezes its hidden state;
    (every step's hidden state concatenated, the last one)."""
    from openvino import opset1, opset4

    def const(array: Any) -> Any:
        return opset1.constant(np.asarray(array))

    def weights(*shape: int) -> Any:
        return const((rng.standard_normal(shape) * 0.3).astype(np.float32))

    step = opset1.parameter([-1, 1, TI_FEATURES], np.float32, name="x_t")
    hidden = opset1.parameter([-1, TI_HIDDEN], np.float32, name="h")
    cell_state = opset1.parameter([-1, TI_HIDDEN], np.float32, name="c")
    cell = opset4.lstm_cell(
        opset1.squeeze(step, const([1])),
        hidden,
        cell_state,
        weights(4 * TI_HIDDEN, TI_FEATURES),
        weights(4 * TI_HIDDEN, TI_HIDDEN),
        weights(4 * TI_HIDDEN),
        TI_HIDDEN,
    )
    results = [
        opset1.result(cell.output(0)),
        opset1.result(cell.output(1)),
        opset1.result(opset1.unsqueeze(cell.output(0), const([1]))),
    ]
    body = ov.Model(results, [step, hidden, cell_state], "lstm_step")
    loop = opset1.tensor_iterator()
    loop.set_body(body)
    # (start, stride, part_size, end, axis): forwards 0..-1, backwards -1..0 with stride -1
    slicing = (-1, -1, 1, 0, 1) if reverse else (0, 1, 1, -1, 1)
    loop.set_sliced_input(step, x.output(0), *slicing)
    loop.set_merged_input(hidden, h0.output(0), results[0].output(0))
    loop.set_merged_input(cell_state, h0.output(0), results[1].output(0))
    steps = loop.get_concatenated_slices(results[2].output(0), *slicing)
    return steps, loop.get_iter_value(results[0].output(0), -1)


def ti_lstm(shape: str) -> ov.Model:
    """A bidirectional LSTM tagger built with openvino's opset API as the Model Optimizer wrote
    one: two TensorIterator-1 over time (one backwards: stride -1), each an LSTMCell-4 body with
    merged hidden and cell states, their zero state broadcast to the input's batch (ShapeOf,
    Gather, Concat, Broadcast); both directions' steps concatenated, a MatMul to 5 tags and a
    SoftMax, and the last hidden states."""
    from openvino import opset1, opset3, opset8

    rng = np.random.default_rng(SEED)
    x = opset1.parameter(ov.PartialShape(shape), np.float32, name="features")
    batch = opset8.gather(opset3.shape_of(x), opset1.constant(np.array([0])), opset1.constant(np.array(0)))
    state_shape = opset1.concat([batch, opset1.constant(np.array([TI_HIDDEN]))], 0)
    h0 = opset3.broadcast(opset1.constant(np.float32(0)), state_shape)
    forwards, forwards_last = _lstm_direction(x, h0, False, rng)
    backwards, backwards_last = _lstm_direction(x, h0, True, rng)
    tags = opset1.matmul(
        opset1.concat([forwards, backwards], 2),
        opset1.constant((rng.standard_normal((2 * TI_HIDDEN, 5)) * 0.3).astype(np.float32)),
        False,
        False,
    )
    last = opset1.concat([forwards_last, backwards_last], 1)
    return ov.Model([opset8.softmax(tags, -1), last], [x], "ti_lstm")


def ti_lstm_static() -> ov.Model:
    return ti_lstm("[2,10,16]")


def ti_lstm_dyn() -> ov.Model:
    return ti_lstm("[?,?,16]")


def ti_lstm_interval() -> ov.Model:
    return ti_lstm("[1..8,1..100,16]")


ti_lstm_static.__doc__ = ti_lstm_dyn.__doc__ = ti_lstm_interval.__doc__ = ti_lstm.__doc__


def llama_one_layer() -> nn.Module:
    """The LLaMA LM of `llama` with one decoder layer (hidden 32, 2 heads sharing 1 KV head, an
    MLP of 64, vocabulary 128): the LLM that NNCF compresses here."""
    config = transformers.LlamaConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    return _Logits(transformers.LlamaForCausalLM(config))


def deeplabv3() -> nn.Module:
    """torchvision DeepLabV3 on a dilated MobileNetV3-Large (width 0.125, reduced tail: the last
    stages' convolutions dilated instead of strided), its ASPP head narrowed to 16 channels
    (atrous rates 12, 24, 36, and image pooling: AdaptiveAvgPool, then Interpolate back to the
    feature's size from its shape), the logits resized to the image's size (bilinear Interpolate
    to the input's shape); the model's 'out' map."""
    from torchvision.models._utils import IntermediateLayerGetter
    from torchvision.models.segmentation.deeplabv3 import ASPP, DeepLabV3

    features = torchvision.models.mobilenet_v3_large(
        weights=None, width_mult=0.125, dilated=True, reduced_tail=True
    ).features
    last = len(features) - 1
    width = 16
    head = nn.Sequential(
        ASPP(features[last].out_channels, [12, 24, 36], width),
        nn.Conv2d(width, width, 3, padding=1, bias=False),
        nn.BatchNorm2d(width),
        nn.ReLU(),
        nn.Conv2d(width, 3, 1),
    )
    body = IntermediateLayerGetter(features, return_layers={str(last): "out"})
    return _OutMap(DeepLabV3(body, head))


class _OutMap(nn.Module):
    """A torchvision segmentation model's 'out' map (a plain tensor, which tracing needs)."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x)["out"]  # type: ignore[no-any-return]


# optimum-intel 2.2 needs transformers < 5.6 (the torch venv has a later one): it runs in a venv of
# its own whose site-packages hold transformers 5.0.0 and optimum-intel and reach the torch venv's
# through a .pth file (see fixtures/networks/README.md); this tool runs there with
# --optimum-export, as a child process.
OPTIMUM_PYTHON = Path(os.environ.get("IRSHAPE_OPTIMUM_PYTHON", "/work/optvenv/bin/python"))


def optimum_llama(xml: Path) -> None:
    """transformers LLaMA LM of one layer (hidden 32, 2 heads sharing 1 KV head, vocabulary 300
    of a byte-level BPE trained here) saved with its tokenizer, exported by optimum-intel as
    people deploy LLMs: `optimum-cli export openvino --task text-generation-with-past
    --weight-format int4 --group-size 16 --ratio 1.0`: stateful (the KV cache in ReadValue-6 and
    Assign-6 variables reordered by a beam_idx input through Gather), input_ids,
    attention_mask, position_ids, rotary embeddings, ScaledDotProductAttention-13, u4 weights in
    groups of 16 and the embedding and the head in u8, per channel; its openvino_model.xml
    committed as optimum-intel wrote it."""
    with tempfile.TemporaryDirectory(prefix="irshape-optimum-") as tmp:
        command = [str(OPTIMUM_PYTHON), str(Path(__file__).resolve()), "--optimum-export", tmp]
        subprocess.run(command, check=True)
        for suffix in (".xml", ".bin"):
            shutil.copyfile(Path(tmp) / f"openvino_model{suffix}", xml.with_suffix(suffix))


def _export_with_optimum(directory: Path) -> None:
    """The export optimum_llama runs in the optimum-intel venv."""
    from optimum.commands.optimum_cli import main as optimum_cli

    torch.manual_seed(SEED)
    config = transformers.LlamaConfig(
        vocab_size=300,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        bos_token_id=0,
        eos_token_id=0,
        pad_token_id=0,
    )
    with tempfile.TemporaryDirectory(prefix="irshape-llm-") as source:
        transformers.LlamaForCausalLM(config).eval().save_pretrained(source)
        _bpe_tokenizer().save_pretrained(source)
        export = ["export", "openvino", "--model", source, "--task", "text-generation-with-past"]
        weights = ["--weight-format", "int4", "--group-size", "16", "--ratio", "1.0"]
        sys.argv = ["optimum-cli", *export, *weights, str(directory)]
        optimum_cli()


LLM_TOKENS = ["[?,?]", "[?,?]"]
_TOKENIZER = "`openvino_tokenizers.convert_tokenizer(hf_tokenizer, with_detokenizer=True)`"

NETWORKS += [
    # NNCF weight compression of a one-layer LLaMA LM: decompression subgraphs before every
    # MatMul and Gather (Const u8/i4/u4/nf4/u3/u2/f4e2m1 -> Convert -> [Subtract zero point] ->
    # Multiply by f16, f8e4m3 or f8e8m0 scales -> [Reshape the groups] -> Convert; CB4's u4
    # indices Gather their values from an f8e4m3 codebook)
    # optimum-intel's export, as deployed (its int4 keeps the embedding and head INT8_ASYM)
    Network(
        "optimum_llama_int4_stateful",
        optimum_llama,
        (),
        exported=True,
        variant="`optimum-cli export openvino --task text-generation-with-past --weight-format int4 "
        "--group-size 16 --ratio 1.0`, as written",
    ),
    Network(
        "llama_int4_sym_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "INT4_SYM", "group_size": 16, "ratio": 1.0},
    ),
    Network(
        "llama_int4_asym_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        fp16=True,
        compress={"mode": "INT4_ASYM", "group_size": 16, "ratio": 1.0},
    ),
    Network(
        "llama_nf4_g16_interval_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=["[1,1..128]", "[1,1..128]"],
        compress={"mode": "NF4", "group_size": 16, "ratio": 1.0},
    ),
    Network(
        "llama_int3_sym_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "INT3_SYM", "group_size": 16, "ratio": 1.0},
    ),
    Network(
        "llama_int2_sym_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "INT2_SYM", "group_size": 16, "ratio": 1.0},
    ),
    Network(
        "llama_cb4_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "CB4", "group_size": 16},
    ),
    Network(
        "llama_mxfp4_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "MXFP4", "group_size": 32},
    ),
    Network(
        "llama_nvfp4_g16_dyn_tokens",
        llama_one_layer,
        _tokens(TOKENS),
        inputs=LLM_TOKENS,
        compress={"mode": "NVFP4", "group_size": 16},
    ),
    Network(
        "decoder_stateful_kv_int8_sym",
        KVDecoder,
        {"input_ids": (1, 4), **{f"past{i}": KV_PAST for i in range(4)}},
        inputs=["[?,?]", *["[?,2,?,16]"] * 4],
        stateful=True,
        compress={"mode": "INT8_SYM"},
    ),
    # NNCF post-training quantization: FakeQuantize on activations and weights, the weights i8
    # Consts behind Convert and Multiply once saved
    Network("mobilenet_v2_int8_static", mobilenet_v2, IMAGE, quantize={}),
    Network("resnet_int8_dyn_batch_hw", resnet, IMAGE, inputs=["[?,3,?,?]"], quantize={}),
    Network(
        "bert_int8_dyn_tokens",
        bert,
        _tokens(TOKENS),
        inputs=["[?,?]", "[?,?]"],
        quantize={"model_type": "TRANSFORMER"},
    ),
    # openvino_tokenizers: string tensors and extension ops (version="extension")
    Network("bpe_tokenizer", bpe_tokenizer, (), ov_model=True, variant=_TOKENIZER + ", the tokenizer"),
    Network("bpe_detokenizer", bpe_detokenizer, (), ov_model=True, variant=_TOKENIZER + ", the detokenizer"),
    Network(
        "wordpiece_tokenizer", wordpiece_tokenizer, (), ov_model=True, variant=_TOKENIZER + ", the tokenizer"
    ),
    Network(
        "wordpiece_detokenizer",
        wordpiece_detokenizer,
        (),
        ov_model=True,
        variant=_TOKENIZER + ", the detokenizer",
    ),
    # TensorIterator-1
    Network("onnx_scan_static", onnx_scan_static, (), onnx=True),
    Network("onnx_scan_dyn", onnx_scan_dyn, (), onnx=True),
    Network("ti_lstm_static", ti_lstm_static, (), ov_model=True, variant="openvino's opset API, static"),
    Network("ti_lstm_dyn", ti_lstm_dyn, (), ov_model=True, variant="openvino's opset API, `[?,?,16]`"),
    Network(
        "ti_lstm_interval",
        ti_lstm_interval,
        (),
        ov_model=True,
        variant="openvino's opset API, `[1..8,1..100,16]`",
    ),
    # segmentation as deployed: dilated convolutions, ASPP, resizes to shapes read from tensors
    Network("deeplabv3_interval", deeplabv3, (1, 3, 128, 128), inputs=["[1,3,64..512,64..512]"], fp16=True),
]

LIBRARIES.update(
    {
        llama_one_layer: "transformers, NNCF",
        optimum_llama: "transformers, optimum-intel",
        bpe_tokenizer: "tokenizers, openvino_tokenizers",
        bpe_detokenizer: "tokenizers, openvino_tokenizers",
        wordpiece_tokenizer: "tokenizers, openvino_tokenizers",
        wordpiece_detokenizer: "tokenizers, openvino_tokenizers",
        onnx_scan_static: "onnx.helper (here), ONNX frontend",
        onnx_scan_dyn: "onnx.helper (here), ONNX frontend",
        ti_lstm_static: "openvino opset API (here)",
        ti_lstm_dyn: "openvino opset API (here)",
        ti_lstm_interval: "openvino opset API (here)",
        deeplabv3: "torchvision",
    }
)

# -- end of the corpus3 block ----------------------------------------------------------------

# -- onnx6: models through the ONNX frontend (issue 24) -------------------------------------
# (one block: the models, their entries and their libraries) torch.onnx.export (the
# TorchScript exporter) of a torchvision detector, an encoder, a segmenter and a YOLO-style head,
# and a hand-built ONNX graph of ops exporters rarely write; each .onnx read by convert_model.


def _export_onnx(model: nn.Module, example: tuple[Any, ...], path: Path, opset: int, **kwargs: Any) -> None:
    """torch.onnx.export with the TorchScript exporter (the dynamo one needs onnxscript)."""
    with torch.no_grad():
        torch.onnx.export(model.eval(), example, str(path), opset_version=opset, dynamo=False, **kwargs)


def onnx_keypoint_rcnn(path: Path) -> None:
    """keypoint_rcnn (above) exported to ONNX at opset 11 by torchvision's own export path, static
    [1,3,320,320]: the resize computed from the shape (Cast, Div, Floor, Resize), RoiAlign,
    TopK with k = min(k, anchors) computed, NonMaxSuppression inside If bodies, the keypoints
    decoded by an ONNX Loop over the detections."""
    _export_onnx(keypoint_rcnn(), (torch.rand(DETECTOR_IMAGE),), path, 11, input_names=["images"])


def onnx_retinanet(path: Path) -> None:
    """retinanet (above) exported to ONNX at opset 11, static [1,3,320,320]: GroupNorm as
    InstanceNormalization (MVN), per-level top-k with computed k, GatherND, Mod and Xor of the
    batched NMS's class offsets, NonMaxSuppression inside an If."""
    _export_onnx(retinanet(), (torch.rand(DETECTOR_IMAGE),), path, 11, input_names=["images"])


class OnnxEncoder(nn.Module):
    """The model of onnx_encoder (its docstring)."""

    def __init__(self, vocab: int = 40, width: int = 32, heads: int = 4, layers: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(64, width)
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(2 * layers))
        self.qkv = nn.ModuleList(nn.Linear(width, 3 * width) for _ in range(layers))
        self.proj = nn.ModuleList(nn.Linear(width, width) for _ in range(layers))
        self.mlp = nn.ModuleList(
            nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))
            for _ in range(layers)
        )
        self.head = nn.Linear(width, 6)

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        batch, seq = input_ids.shape
        positions = torch.arange(seq).unsqueeze(0).expand(batch, seq)
        x = self.embed(input_ids) + self.positions(positions)
        steps = torch.arange(seq)
        allowed = (steps[None, :] <= steps[:, None])[None, None] & attention_mask.bool()[:, None, None, :]
        bias = torch.zeros(batch, 1, seq, seq).masked_fill(~allowed, -1e4)
        for layer, (qkv, proj, mlp) in enumerate(zip(self.qkv, self.proj, self.mlp, strict=True)):
            q, k, v = qkv(self.norms[2 * layer](x)).split(x.shape[-1], dim=-1)
            q, k, v = (t.reshape(batch, seq, self.heads, -1).transpose(1, 2) for t in (q, k, v))
            scores = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5 + bias
            attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, seq, -1)
            x = x + proj(attended)
            x = x + mlp(self.norms[2 * layer + 1](x))
        weights = attention_mask.unsqueeze(-1).to(x.dtype)
        pooled = (x * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        return self.head(x), pooled


def onnx_encoder(path: Path) -> None:
    """A 2-layer pre-norm transformer encoder written out (32 wide, 4 heads): token embeddings
    plus positions from arange(seq) expanded to the batch (Range, Expand), a padding mask and a
    causal mask from comparisons of Ranges, combined into an additive bias that starts as zeros
    of [batch, 1, seq, seq] (ConstantOfShape) filled by masked_fill (Where), heads split by
    reshapes to [batch, seq, 4, -1], softmax attention, a masked mean pooling; exported at
    opset 17, batch and sequence dynamic."""
    axes = {0: "batch", 1: "sequence"}
    _export_onnx(
        OnnxEncoder(),
        (torch.randint(0, 40, (2, 7)), torch.ones(2, 7, dtype=torch.long)),
        path,
        17,
        input_names=["input_ids", "attention_mask"],
        output_names=["tags", "pooled"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "tags": axes, "pooled": {0: "batch"}},
    )


class OnnxSegmenter(nn.Module):
    """The model of onnx_segmenter (its docstring)."""

    def __init__(self, classes: int = 5) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.fuse = nn.Sequential(nn.Conv2d(24, 16, 3, 1, 1), nn.ReLU())
        self.classify = nn.Conv2d(16, classes, 1)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        skip = self.stem(image)
        deep = self.down(skip)
        up = nn.functional.interpolate(deep, scale_factor=2.0, mode="nearest", recompute_scale_factor=True)
        up = nn.functional.pad(up, (0, skip.shape[-1] - up.shape[-1], 0, skip.shape[-2] - up.shape[-2]))
        logits = self.classify(self.fuse(torch.cat((up, skip), 1)))
        return nn.functional.interpolate(logits, size=image.shape[-2:], mode="bilinear", align_corners=False)


def onnx_segmenter(path: Path) -> None:
    """A small encoder-decoder segmenter (8-16-32 wide, two stride-2 stages): the deep features
    upsampled by 2 with the output size recomputed from the shape (Resize to sizes Floor(shape x
    2.0) computed in f32), concatenated with the skip, and the logits resized bilinearly to the
    input's own height and width (Resize to sizes read from the input's Shape); exported at
    opset 17, height and width dynamic."""
    _export_onnx(
        OnnxSegmenter(),
        (torch.randn(1, 3, 40, 56),),
        path,
        17,
        input_names=["image"],
        output_names=["logits"],
        dynamic_axes={"image": {2: "height", 3: "width"}, "logits": {2: "height", 3: "width"}},
    )


class OnnxYolo(nn.Module):
    """The model of onnx_yolo (its docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.head = YoloHead()

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        p = self.head(image)
        boxes = p[..., :4].clone()
        boxes[..., :2] = p[..., :2] - p[..., 2:4] / 2
        boxes[..., 2:] = p[..., :2] + p[..., 2:4] / 2
        scores, labels = (p[..., 5:] * p[..., 4:5]).max(-1)
        k = torchvision.models.detection._utils._topk_min(scores, 20, 1)
        top, index = scores.topk(k, dim=1)
        chosen = boxes.gather(1, index.unsqueeze(-1).expand(-1, -1, 4))
        return chosen, top, labels.gather(1, index)


def onnx_yolo(path: Path) -> None:
    """YoloHead (above) and its post-processing as exported models carry it: corner boxes written
    into a copy in place (ScatterND), class scores times objectness (ReduceMax, ArgMax), top-k
    with k = min(20, boxes) computed from the shape (TopK), the chosen boxes and labels
    gathered (GatherElements); exported at opset 17, batch, height and width dynamic."""
    axes = {0: "batch", 2: "height", 3: "width"}
    _export_onnx(
        OnnxYolo(),
        (torch.randn(1, 3, 64, 64),),
        path,
        17,
        input_names=["image"],
        output_names=["boxes", "scores", "labels"],
        dynamic_axes={"image": axes},
    )


def onnx_rare_ops(path: Path) -> None:
    """Hand-built ONNX (onnx.helper, opset 17) of ops exporters rarely write, on dynamic inputs
    (x [n,8], image [1,8,h,w], grid [1,gh,gw,2]): a Loop whose condition is computed in its body
    (a running sum under a limit) with a scan output of every step, an If whose branches give
    different shapes ([2n,8] and [1,8]), Einsum, GridSample on a DepthToSpace, a Resize by scales
    computed from two shapes (Div of Casts), NonZero, Unique (sorted: four outputs), CumSum
    (exclusive, reverse), OneHot of an ArgMax with the depth read from the shape, Mod (integer
    and fmod), BitShift; a Loop over the rows whose carried state grows by a row each step
    (Concat: a back edge of another shape) with a scan output of its column sums, and an If
    whose then-branch holds a Loop (nested bodies). (A carried state that starts empty, [0,8],
    as torchvision's mask pasting starts, fails in OpenVINO's ONNX frontend: 'Accessing
    out-of-range dimension'; so does torchvision's Mask R-CNN.)"""
    graph = _OnnxGraph()
    _rare_ops_constants(graph)
    _running_sum_loop(graph)
    _if_of_two_shapes(graph)
    graph.op("Einsum", ["x", "x"], ["gram"], equation="nk,mk->nm")
    _grid_sample_and_resize(graph)
    _rare_indexing_ops(graph)
    _rare_integer_ops(graph)
    _growing_loop_and_nested_if(graph)
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    inputs = [
        _onnx_value("x", f32, ["n", 8]),
        _onnx_value("image", f32, [1, 8, "h", "w"]),
        _onnx_value("grid", f32, [1, "gh", "gw", 2]),
    ]
    declared = {  # each output's element type and shape, its dims named here
        "total": (f32, []),
        "steps": (f32, ["s", 8]),
        "branch": (f32, ["b", 8]),
        "gram": (f32, ["n", "n"]),
        "sampled": (f32, [1, 2, "gh", "gw"]),
        "resized": (f32, [1, 8, "gh", "gw"]),
        "where": (i64, [2, "z"]),
        "unique": (f32, ["u"]),
        "first": (i64, ["u"]),
        "inverse": (i64, ["v"]),
        "counts": (i64, ["u"]),
        "running": (f32, ["n", 8]),
        "onehot": (f32, ["n", "n"]),
        "best_mod": (i64, ["n"]),
        "x_fmod": (f32, ["n", 8]),
        "shifted": (TensorProto.UINT32, ["n"]),
        "grown": (f32, ["g", 8]),
        "sums": (f32, ["n", 1, 8]),
        "nested": (f32, [8]),
    }
    outputs = [_onnx_value(name, *declared[name]) for name in graph.outputs]
    _save_onnx(_onnx_model(helper.make_graph(graph.nodes, "rare_ops", inputs, outputs), 17), path)


def _rare_ops_constants(graph: _OnnxGraph) -> None:
    """The constants of onnx_rare_ops and the Shape of x its OneHot's depth is read from (first:
    the nodes' order is the order OpenVINO names the layers in)."""
    graph.constant("modulus_two", np.array([2], np.int64))
    graph.op("Shape", ["x"], ["x_shape_outer"], out=False)
    graph.constant("zero", np.array(0, np.int64))
    graph.constant("zero_axis", np.array([0], np.int64))
    graph.constant("zero_f", np.array(0.0, np.float32))
    graph.constant("max_steps", np.array(9, np.int64))
    graph.constant("true", np.array(True))
    graph.constant("start_total", np.array(0.0, np.float32))
    graph.constant("onehot_values", np.array([0.0, 1.0], np.float32))
    graph.constant("modulus", np.array([3], np.int64))
    graph.constant("real_modulus", np.array([1.5], np.float32))
    graph.constant("shift", np.array([3], np.uint32))
    graph.constant("unit_scales", np.array([1.0, 1.0], np.float32))
    graph.constant("spatial", np.array([1, 2, 3], np.int64))  # Gather indices of [1, gh, gw, 2]
    graph.constant("image_spatial", np.array([2, 3], np.int64))


def _running_sum_loop(graph: _OnnxGraph) -> None:
    """A Loop of at most 9 steps whose condition its body computes: the running sum of the
    magnitudes of x's rows (taken round) while under 12, and a scan output of every step's row
    scaled by the sum."""
    f32 = TensorProto.FLOAT
    body = _onnx_loop_body(
        "accumulate",
        [
            _onnx_constant("limit", np.array(12.0, np.float32)),
            helper.make_node("Shape", ["x"], ["x_shape"]),
            helper.make_node("Gather", ["x_shape", "zero"], ["rows"], axis=0),
            helper.make_node("Mod", ["step", "rows"], ["row_index"]),
            helper.make_node("Gather", ["x", "row_index"], ["row"], axis=0),
            helper.make_node("Abs", ["row"], ["magnitude"]),
            helper.make_node("ReduceSum", ["magnitude"], ["row_sum"], keepdims=0),
            helper.make_node("Add", ["total_in", "row_sum"], ["total_out"]),
            helper.make_node("Less", ["total_out", "limit"], ["condition_out"]),
            helper.make_node("Mul", ["row", "total_out"], ["scaled"]),
        ],
        [_onnx_value("total_in", f32, [])],
        [_onnx_value("total_out", f32, []), _onnx_value("scaled", f32, [8])],
    )
    graph.op("Loop", ["max_steps", "true", "start_total"], ["total", "steps"], body=body)


def _if_of_two_shapes(graph: _OnnxGraph) -> None:
    """An If on the sign of x's sum whose branches give different shapes: x twice ([2n,8]) or
    its columns' maxima ([1,8])."""
    f32 = TensorProto.FLOAT
    twice = _onnx_branch(
        "twice",
        helper.make_node("Concat", ["x", "x"], ["twice"], axis=0),
        _onnx_value("twice", f32, ["m", 8]),
    )
    largest = _onnx_branch(
        "largest",
        helper.make_node("ReduceMax", ["x"], ["largest"], axes=[0], keepdims=1),
        _onnx_value("largest", f32, [1, 8]),
    )
    graph.op("ReduceSum", ["x"], ["x_sum"], out=False, keepdims=0)
    graph.op("Greater", ["x_sum", "zero_f"], ["positive_sum"], out=False)
    graph.op("If", ["positive_sum"], ["branch"], then_branch=twice, else_branch=largest)


def _grid_sample_and_resize(graph: _OnnxGraph) -> None:
    """GridSample on a DepthToSpace of the image, and the image resized to the grid's size by
    scales computed from the two shapes (Div of Casts)."""
    graph.op("DepthToSpace", ["image"], ["unfolded"], out=False, blocksize=2, mode="CRD")
    graph.op("GridSample", ["unfolded", "grid"], ["sampled"], mode="bilinear", padding_mode="zeros")
    graph.op("Shape", ["grid"], ["grid_shape"], out=False)
    graph.op("Gather", ["grid_shape", "spatial"], ["grid_dims"], out=False, axis=0)
    graph.op("Slice", ["grid_dims", "zero_axis", "modulus_two"], ["target"], out=False)
    graph.op("Shape", ["image"], ["image_shape"], out=False)
    graph.op("Gather", ["image_shape", "image_spatial"], ["source"], out=False, axis=0)
    graph.op("Cast", ["target"], ["target_f"], out=False, to=TensorProto.FLOAT)
    graph.op("Cast", ["source"], ["source_f"], out=False, to=TensorProto.FLOAT)
    graph.op("Div", ["target_f", "source_f"], ["ratio"], out=False)
    graph.op("Concat", ["unit_scales", "ratio"], ["scales"], out=False, axis=0)
    graph.op("Resize", ["image", "", "scales"], ["resized"], mode="linear")


def _rare_indexing_ops(graph: _OnnxGraph) -> None:
    """NonZero, Unique (sorted: four outputs), CumSum (exclusive, reverse) and OneHot of an
    ArgMax with the depth read from the shape."""
    graph.op("Greater", ["x", "zero_f"], ["positive"], out=False)
    graph.op("NonZero", ["positive"], ["where"])
    graph.op("Round", ["x"], ["rounded"], out=False)
    graph.op("Unique", ["rounded"], ["unique", "first", "inverse", "counts"], sorted=1)
    graph.op("CumSum", ["x", "zero"], ["running"], exclusive=1, reverse=1)
    graph.op("ArgMax", ["x"], ["best"], out=False, axis=1, keepdims=0)
    graph.op("Gather", ["x_shape_outer", "zero"], ["depth"], out=False, axis=0)
    graph.op("OneHot", ["best", "depth", "onehot_values"], ["onehot"], axis=-1)


def _rare_integer_ops(graph: _OnnxGraph) -> None:
    """Mod of integers and of reals (fmod), and BitShift, of the ArgMax and x."""
    graph.op("Mod", ["best", "modulus"], ["best_mod"])
    graph.op("Mod", ["x", "real_modulus"], ["x_fmod"], fmod=1)
    graph.op("Cast", ["best"], ["best_u"], out=False, to=TensorProto.UINT32)
    graph.op("BitShift", ["best_u", "shift"], ["shifted"], direction="LEFT")


def _growing_loop_and_nested_if(graph: _OnnxGraph) -> None:
    """A Loop over x's rows whose carried state grows by a row each step (a back edge of another
    shape) with a scan output of its column sums; an If whose then-branch holds a Loop that
    doubles the first row three times (nested bodies) and whose else-branch negates it."""
    f32 = TensorProto.FLOAT
    grow = _onnx_loop_body(
        "grow",
        [
            helper.make_node("Gather", ["x", "grow_step"], ["grow_row"], axis=0),
            helper.make_node("Unsqueeze", ["grow_row", "zero_axis"], ["grow_row2"]),
            helper.make_node("Concat", ["rows_in", "grow_row2"], ["rows_out"], axis=0),
            helper.make_node("Identity", ["grow_condition_in"], ["grow_condition_out"]),
            helper.make_node("ReduceSum", ["rows_out", "zero_axis"], ["column_sums"], keepdims=1),
        ],
        [_onnx_value("rows_in", f32, ["k", 8])],
        [_onnx_value("rows_out", f32, ["k", 8]), _onnx_value("column_sums", f32, [1, 8])],
        prefix="grow_",
    )
    double = _onnx_loop_body(
        "double",
        [
            helper.make_node("Add", ["doubled_in", "doubled_in"], ["doubled_out"]),
            helper.make_node("Identity", ["double_condition_in"], ["double_condition_out"]),
        ],
        [_onnx_value("doubled_in", f32, [8])],
        [_onnx_value("doubled_out", f32, [8])],
        prefix="double_",
    )
    then_loop = _onnx_branch(
        "then_loop",
        helper.make_node("Loop", ["three", "", "first_row"], ["doubled"], body=double),
        _onnx_value("doubled", f32, [8]),
    )
    else_negate = _onnx_branch(
        "else_negate", helper.make_node("Neg", ["first_row"], ["negated"]), _onnx_value("negated", f32, [8])
    )
    graph.constant("one_axis", np.array([1], np.int64))
    graph.constant("three", np.array(3, np.int64))
    graph.op("Slice", ["x", "zero_axis", "one_axis"], ["top_row"], out=False)
    graph.op("Loop", ["depth", "true", "top_row"], ["grown", "sums"], body=grow)
    graph.op("Gather", ["x", "zero"], ["first_row"], out=False, axis=0)
    graph.op("If", ["positive_sum"], ["nested"], then_branch=then_loop, else_branch=else_negate)


def onnx_wild_ops(path: Path) -> None:
    """Hand-built ONNX (onnx.helper, opset 20) of more ops found in ONNX models in the wild, on
    dynamic inputs (x [n,6], image [1,4,h,w]): QuantizeLinear/DequantizeLinear per tensor and per
    axis (FakeQuantize), DynamicQuantizeLinear, MatMulInteger, LayerNormalization (MVN), Trilu,
    ScatterElements (add) and ScatterND (max) reductions, GatherND with batch_dims, Compress,
    ReverseSequence, Hardmax, ArgMin (select_last_index), TopK (smallest), EyeLike, a float
    Range to a reduced limit, LpNormalization, Shrink, Size, DFT (onesided), CenterCropPad,
    Col2Im, Split (num_outputs), SequenceConstruct/ConcatFromSequence, Pad (reflect), Tile,
    Unique along an axis, IsNaN, BitwiseAnd, Mish, Celu, Gelu (tanh), ReduceLogSumExp,
    SpaceToDepth, Conv (SAME_UPPER), ConvTranspose to an output_shape, MaxPool (ceil_mode, with
    indices), LpPool, Resize (antialias; keep_aspect_ratio_policy), MaxRoiPool, RoiAlign
    (half_pixel, max) and NonMaxSuppression (center_point_box)."""
    graph = _OnnxGraph()
    for name, array in _wild_ops_constants().items():
        graph.constant(name, array)
    _quantized_ops(graph)
    _wild_indexing_ops(graph)
    _wild_shape_and_signal_ops(graph)
    _wild_sequence_ops(graph)
    _wild_elementwise_ops(graph)
    _wild_image_ops(graph)
    _nms_of_computed_scores(graph)
    f32 = TensorProto.FLOAT
    inputs = [_onnx_value("x", f32, ["n", 6]), _onnx_value("image", f32, [1, 4, "h", "w"])]
    model = _onnx_model(helper.make_graph(graph.nodes, "wild_ops", inputs, []), 20)
    # the outputs typed as ONNX's shape inference types them (the checker wants a type)
    inferred = {info.name: info for info in onnx.shape_inference.infer_shapes(model).graph.value_info}
    # (it leaves DFT's output untyped: the onesided spectrum of 6 samples, [n, 4, 2])
    inferred.setdefault("spectrum", _onnx_value("spectrum", f32, ["n", 4, 2]))
    model.graph.output.extend(inferred[name] for name in graph.outputs)
    _save_onnx(model, path)


def _wild_ops_constants() -> dict[str, Any]:
    """The constants of onnx_wild_ops by name, in the order its graph makes them (seeded draws)."""
    rng = np.random.default_rng(SEED)
    boxes = (rng.random((6, 4)) * [8, 8, 4, 4]).astype(np.float32)
    return {
        "scale": np.array(0.05, np.float32),
        "zero_point": np.array(3, np.uint8),
        "axis_scales": np.linspace(0.02, 0.07, 6).astype(np.float32),
        "axis_zero_points": np.array([0, 1, -1, 2, 0, -3], np.int8),
        "integer_weights": rng.integers(0, 4, (6, 3)).astype(np.uint8),
        "gamma": rng.standard_normal(6).astype(np.float32),
        "scatter_indices": np.array([[0, 1, 0, 2, 1, 0]], np.int64),
        "scatter_updates": rng.standard_normal((1, 6)).astype(np.float32),
        "nd_indices": np.array([[0], [0]], np.int64),
        "nd_updates": rng.standard_normal((2, 6)).astype(np.float32),
        "batch_indices": np.array([[[1], [0], [3]]], np.int64),
        "zero_axis": np.array([0], np.int64),
        "last_axis": np.array([-1], np.int64),
        "selected": np.array([True, False, True, True]),
        "lengths": np.array([1, 2, 2, 1, 2, 1], np.int64),  # (at most n: the plugin checks)
        "k": np.array([2], np.int64),
        "range_start": np.array(-1.5, np.float32),
        "range_step": np.array(0.75, np.float32),
        "crop": np.array([3, 9], np.int64),
        "one": np.array([1], np.int64),
        "column_block": np.array([2, 2], np.int64),
        "column_shape": np.array([1, 4, -1], np.int64),
        "pads": np.array([0, 1, 0, 2], np.int64),
        "repeats": np.array([2, 1], np.int64),
        "conv_weights": rng.standard_normal((3, 4, 3, 3)).astype(np.float32),
        "deconv_weights": rng.standard_normal((4, 2, 3, 3)).astype(np.float32),
        "half_scales": np.array([1, 1, 0.5, 0.6], np.float32),
        "fit_sizes": np.array([5, 7], np.int64),
        "pooled_rois": np.array([[0, 0, 0, 2, 3], [0, 1, 1, 3, 2]], np.float32),
        "rois": np.array([[0, 0, 2, 3], [1, 1, 3, 2], [0.5, 0, 1.5, 2]], np.float32),
        "roi_batch": np.zeros(3, np.int64),
        "nms_boxes": boxes[None],
        "two": np.array([2], np.int64),
        "nms_max": np.array([3], np.int64),
        "nms_iou": np.array([0.2], np.float32),
        "reduce_axis": np.array([1], np.int64),
    }


def _quantized_ops(graph: _OnnxGraph) -> None:
    """Quantized arithmetic as ONNX Runtime's tools write it: Quantize/DequantizeLinear per
    tensor and per axis, DynamicQuantizeLinear, MatMulInteger; and LayerNormalization."""
    graph.op("QuantizeLinear", ["x", "scale", "zero_point"], ["quantized"], out=False)
    graph.op("DequantizeLinear", ["quantized", "scale", "zero_point"], ["dequantized"])
    graph.op(
        "QuantizeLinear", ["x", "axis_scales", "axis_zero_points"], ["axis_quantized"], out=False, axis=1
    )
    graph.op(
        "DequantizeLinear",
        ["axis_quantized", "axis_scales", "axis_zero_points"],
        ["axis_dequantized"],
        axis=1,
    )
    graph.op("DynamicQuantizeLinear", ["x"], ["dynamic_quantized", "dynamic_scale", "dynamic_zero_point"])
    graph.op("MatMulInteger", ["dynamic_quantized", "integer_weights"], ["integer_product"])
    graph.op("LayerNormalization", ["x", "gamma"], ["normalized"], axis=-1)


def _wild_indexing_ops(graph: _OnnxGraph) -> None:
    """Indexing and rearranging: Trilu, the ScatterElements and ScatterND reductions, GatherND
    with batch_dims, Compress, ReverseSequence, Hardmax, ArgMin, TopK (smallest), EyeLike."""
    graph.op("Trilu", ["x"], ["lower"], upper=0)
    graph.op(
        "ScatterElements", ["x", "scatter_indices", "scatter_updates"], ["scattered"], axis=0, reduction="add"
    )
    graph.op("ScatterND", ["x", "nd_indices", "nd_updates"], ["nd_scattered"], reduction="max")
    graph.op("Unsqueeze", ["x", "zero_axis"], ["batched"], out=False)
    graph.op("GatherND", ["batched", "batch_indices"], ["gathered"], batch_dims=1)
    graph.op("Compress", ["image", "selected"], ["compressed"], axis=1)
    graph.op("Transpose", ["x"], ["columns"], out=False, perm=[1, 0])
    graph.op("ReverseSequence", ["columns", "lengths"], ["reversed"], batch_axis=0, time_axis=1)
    graph.op("Hardmax", ["x"], ["hardmax"], axis=1)
    graph.op("ArgMin", ["x"], ["last_smallest"], axis=1, select_last_index=1)
    graph.op("TopK", ["x", "k"], ["smallest", "smallest_index"], axis=1, largest=0, sorted=1)
    graph.op("EyeLike", ["x"], ["eye"], k=1)


def _wild_shape_and_signal_ops(graph: _OnnxGraph) -> None:
    """A float Range to x's maximum, LpNormalization, Shrink, Size, DFT (onesided),
    CenterCropPad, and Col2Im to a size computed from the image's shape."""
    graph.op("ReduceMax", ["x"], ["limit"], out=False, keepdims=0)
    graph.op("Range", ["range_start", "limit", "range_step"], ["steps"])
    graph.op("LpNormalization", ["x"], ["l1_normalized"], axis=1, p=1)
    graph.op("Shrink", ["x"], ["shrunk"], bias=0.5, lambd=0.7)
    graph.op("Size", ["x"], ["size"])
    graph.op("Unsqueeze", ["x", "last_axis"], ["signal"], out=False)
    graph.op("DFT", ["signal", "", "reduce_axis"], ["spectrum"], onesided=1)
    graph.op("CenterCropPad", ["x", "crop"], ["cropped"])
    graph.op("Reshape", ["image", "column_shape"], ["blocks"], out=False)
    graph.op("Shape", ["image"], ["image_shape"], out=False, start=2)
    graph.op("Add", ["image_shape", "one"], ["column_image"], out=False)
    graph.op("Col2Im", ["blocks", "column_image", "column_block"], ["folded"])


def _wild_sequence_ops(graph: _OnnxGraph) -> None:
    """Split (num_outputs), a sequence of two of its parts stacked (SequenceConstruct,
    ConcatFromSequence), Pad (reflect), Tile, Unique along an axis."""
    graph.op("Split", ["x"], ["first", "second", "third"], axis=1, num_outputs=3)
    graph.op("SequenceConstruct", ["first", "third"], ["sequence"], out=False)
    graph.op("ConcatFromSequence", ["sequence"], ["stacked"], axis=0, new_axis=1)
    graph.op("Pad", ["x", "pads"], ["reflected"], mode="reflect")
    graph.op("Tile", ["x", "repeats"], ["tiled"])
    graph.op("Round", ["x"], ["rounded"], out=False)
    graph.op(
        "Unique", ["rounded"], ["unique_rows", "unique_first", "unique_inverse", "unique_counts"], axis=0
    )


def _wild_elementwise_ops(graph: _OnnxGraph) -> None:
    """IsNaN, BitwiseAnd, Mish, Celu, Gelu (tanh) and ReduceLogSumExp."""
    graph.op("IsNaN", ["x"], ["nan"])
    graph.op("Cast", ["x"], ["integers"], out=False, to=TensorProto.INT32)
    graph.op("BitwiseAnd", ["integers", "integers"], ["bits"])
    graph.op("Mish", ["x"], ["mish"])
    graph.op("Celu", ["x"], ["celu"], alpha=0.7)
    graph.op("Gelu", ["x"], ["gelu"], approximate="tanh")
    graph.op("ReduceLogSumExp", ["x", "reduce_axis"], ["log_sum_exp"], keepdims=0)


def _wild_image_ops(graph: _OnnxGraph) -> None:
    """SpaceToDepth, Conv (SAME_UPPER), ConvTranspose to an output_shape, MaxPool (ceil_mode,
    with indices), LpPool, the two Resizes (antialias; keep_aspect_ratio_policy), MaxRoiPool and
    RoiAlign (half_pixel, max)."""
    graph.op("SpaceToDepth", ["image"], ["depth"], blocksize=2)
    graph.op("Conv", ["image", "conv_weights"], ["same"], strides=[2, 2], auto_pad="SAME_UPPER")
    graph.op(
        "ConvTranspose", ["image", "deconv_weights"], ["deconvolved"], strides=[2, 2], output_shape=[9, 11]
    )
    graph.op(
        "MaxPool", ["image"], ["pooled", "pooled_index"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1
    )
    graph.op("LpPool", ["image"], ["lp_pooled"], kernel_shape=[2, 2], p=2)
    graph.op("Resize", ["image", "", "half_scales"], ["antialiased"], mode="linear", antialias=1)
    graph.op(
        "Resize",
        ["image", "", "", "fit_sizes"],
        ["fitted"],
        mode="nearest",
        axes=[2, 3],
        keep_aspect_ratio_policy="not_larger",
    )
    graph.op("MaxRoiPool", ["image", "pooled_rois"], ["roi_pooled"], pooled_shape=[2, 2])
    graph.op(
        "RoiAlign",
        ["image", "rois", "roi_batch"],
        ["roi_aligned"],
        output_height=2,
        output_width=3,
        coordinate_transformation_mode="half_pixel",
        mode="max",
        sampling_ratio=2,
    )


def _nms_of_computed_scores(graph: _OnnxGraph) -> None:
    """NonMaxSuppression (center_point_box) of constant boxes and scores computed from x (the
    CPU plugin fails to compile an NMS of constant inputs, 'Can not create StaticMemory
    object')."""
    graph.op("Slice", ["x", "zero_axis", "two"], ["two_rows"], out=False)
    graph.op("Unsqueeze", ["two_rows", "zero_axis"], ["score_logits"], out=False)
    graph.op("Sigmoid", ["score_logits"], ["nms_scores"], out=False)
    graph.op(
        "NonMaxSuppression", ["nms_boxes", "nms_scores", "nms_max", "nms_iou"], ["kept"], center_point_box=1
    )


NETWORKS += [
    Network("onnx_keypoint_rcnn_static", onnx_keypoint_rcnn, (), onnx=True),
    Network("onnx_retinanet_static", onnx_retinanet, (), onnx=True),
    Network("onnx_encoder_dyn", onnx_encoder, (), onnx=True),
    Network("onnx_segmenter_interval", onnx_segmenter, (), onnx=True, inputs=["[1,3,32..256,32..256]"]),
    Network("onnx_yolo_dyn", onnx_yolo, (), onnx=True),
    Network("onnx_rare_ops_dyn", onnx_rare_ops, (), onnx=True),
    Network("onnx_wild_ops_interval", onnx_wild_ops, (), onnx=True, inputs=["[2..7,6]", "[1,4,3..9,4..11]"]),
]

LIBRARIES.update(
    {
        onnx_keypoint_rcnn: "torchvision, torch.onnx.export, ONNX frontend",
        onnx_retinanet: "torchvision, torch.onnx.export, ONNX frontend",
        onnx_encoder: "torch.nn (here), torch.onnx.export, ONNX frontend",
        onnx_segmenter: "torch.nn (here), torch.onnx.export, ONNX frontend",
        onnx_yolo: "torch.nn (here), torch.onnx.export, ONNX frontend",
        onnx_rare_ops: "onnx.helper (here), ONNX frontend",
        onnx_wild_ops: "onnx.helper (here), ONNX frontend",
    }
)

# -- end of the onnx6 block ------------------------------------------------------------------

# -- deploy6: the model families people deploy beyond the ones above (issue 24) ---------------
# (one block: the models, their entries and their libraries)


class _LanguageModelLogits(nn.Module):
    """A transformers language model called with input_ids only (a state-space model takes no
    attention mask), returning its logits."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, use_cache=False).logits


def qwen2_moe() -> nn.Module:
    """transformers Qwen2-MoE LM: 1 layer, hidden 32, 2 heads sharing 1 KV head; a sparse MLP of
    4 experts (16 wide) of which a softmax router's TopK picks 2 per token, their weights
    gathered by the chosen expert ids and applied as batched MatMuls (transformers'
    `batched_mm` experts), the tokens' 2 results summed (ReduceSum), beside a shared expert
    (32 wide) gated by a Sigmoid. The padding token's embedding is zero: its router scores tie
    (the CPU plugin's TopK of a dynamic shape orders ties by its heap sort)."""
    config = transformers.Qwen2MoeConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        moe_intermediate_size=16,
        shared_expert_intermediate_size=32,
        num_experts=4,
        num_experts_per_tok=2,
        norm_topk_prob=False,
        decoder_sparse_step=1,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=128,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
        experts_implementation="batched_mm",  # (the default, grouped_mm, calls aten::histc)
    )
    return _Logits(transformers.Qwen2MoeForCausalLM(config))


def mamba2() -> nn.Module:
    """transformers Mamba2 LM (the state-space model's reference PyTorch path, as without its
    CUDA kernels): 1 layer, hidden 32, 4 heads of 16, state 8, chunks of 8: a causal depthwise
    conv1d (GroupConvolution), SoftPlus on the time steps, the chunked selective scan as CumSum,
    segment sums masked by a lower triangle (Select), Exp and Einsum-7 contractions, a gated
    RMS norm. The sequence is padded to whole chunks by a traced branch: lengths must be
    multiples of 8."""
    config = transformers.Mamba2Config(
        vocab_size=128,
        hidden_size=32,
        state_size=8,
        num_heads=4,
        head_dim=16,
        n_groups=1,
        expand=2,
        conv_kernel=4,
        num_hidden_layers=1,
        chunk_size=8,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    return _LanguageModelLogits(transformers.Mamba2ForCausalLM(config))


def mamba() -> nn.Module:
    """transformers Mamba LM (the reference PyTorch path): 1 layer, hidden 32, state 8, time-step
    rank 4, a causal depthwise conv1d, SoftPlus, and the selective scan over the traced 16
    tokens (a step each: Multiply/Add of the state, MatMul with C)."""
    config = transformers.MambaConfig(
        vocab_size=128,
        hidden_size=32,
        state_size=8,
        expand=2,
        conv_kernel=4,
        time_step_rank=4,
        num_hidden_layers=1,
        use_cache=False,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    return _LanguageModelLogits(transformers.MambaForCausalLM(config))


class _SamMasks(nn.Module):
    """SAM's three masks and their IoU scores for an image and its prompt points."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, pixel_values: torch.Tensor, input_points: torch.Tensor) -> Any:
        out = self.model(pixel_values=pixel_values, input_points=input_points, multimask_output=True)
        return out.pred_masks, out.iou_scores


def sam() -> nn.Module:
    """transformers SamModel, whole: a ViT image encoder (64x64 images, 8x8 patches, hidden 32,
    2 layers: windowed attention of 4 with the window partition padded, then global attention,
    decomposed relative positions (Einsum-7), a neck to 16 channels); the prompt encoder (random
    Fourier features of the points: MatMul, Sin, Cos; label embeddings chosen by Select); the
    mask decoder (two-way transformer of 2 layers, 16 wide, output tokens, ConvTranspose
    upscaling, hypernetwork MLPs, IoU head); the number of points per prompt dynamic."""
    vision = transformers.SamVisionConfig(
        hidden_size=32,
        output_channels=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        image_size=64,
        patch_size=8,
        mlp_dim=64,
        window_size=4,
        global_attn_indexes=[1],
        num_pos_feats=8,
    )
    prompt = transformers.SamPromptEncoderConfig(
        hidden_size=16, image_size=64, patch_size=8, mask_input_channels=4
    )
    mask = transformers.SamMaskDecoderConfig(
        hidden_size=16, num_hidden_layers=2, num_attention_heads=2, mlp_dim=32, iou_head_hidden_dim=16
    )
    config = transformers.SamConfig(
        vision_config=vision.to_dict(),
        prompt_encoder_config=prompt.to_dict(),
        mask_decoder_config=mask.to_dict(),
    )
    return _SamMasks(transformers.SamModel(config))


class _Detections(nn.Module):
    """A transformers detector's class logits and boxes (plain tensors, which tracing needs)."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, pixel_values: torch.Tensor) -> Any:
        out = self.model(pixel_values=pixel_values)
        return out.logits, out.pred_boxes


def rt_detr() -> nn.Module:
    """transformers RT-DETR, its anchors made from the feature maps' shapes: an RT-DETR ResNet
    backbone (basic blocks 8-16-24-32), the hybrid encoder (an AIFI transformer layer on the last
    level, FPN/PAN fusion, 16 wide), the query selection (TopK of the 10 best encoder scores,
    GatherElements of their features and boxes), 1 decoder layer of multi-scale deformable
    attention (GridSample-9 over 3 levels, 2 points), 3 classes. Every conv, linear and norm
    layer gets torch's default initialisation: transformers' own leaves the encoder's features
    near 0 at random weights, every score tied and every sampled value near 0."""
    backbone = transformers.RTDetrResNetConfig(
        embedding_size=8,
        hidden_sizes=[8, 16, 24, 32],
        depths=[1, 1, 1, 1],
        layer_type="basic",
        out_features=["stage2", "stage3", "stage4"],
    )
    config = transformers.RTDetrConfig(
        backbone_config=backbone.to_dict(),
        use_pretrained_backbone=False,
        d_model=16,
        encoder_hidden_dim=16,
        encoder_in_channels=[16, 24, 32],
        decoder_in_channels=[16, 16, 16],
        encoder_ffn_dim=32,
        encoder_attention_heads=2,
        encode_proj_layers=[2],
        hidden_expansion=0.5,
        decoder_ffn_dim=32,
        decoder_attention_heads=2,
        decoder_layers=1,
        decoder_n_points=2,
        num_queries=10,
        num_denoising=0,
        num_labels=3,
        anchor_image_size=None,
    )
    model = _Detections(transformers.RTDetrForObjectDetection(config))
    for module in model.modules():
        if isinstance(module, nn.Conv2d | nn.Linear | nn.BatchNorm2d | nn.LayerNorm):
            module.reset_parameters()
    return model


class VideoResNet(nn.Module):
    """A narrow video ResNet from torchvision's video blocks (torchvision.models.video.resnet:
    its r3d_18/mc3_18/r2plus1d_18 are 64-512 wide): a (3,7,7) Conv3d stem of stride (1,2,2),
    BasicBlocks of Conv3DSimple (3x3x3), Conv2Plus1D (a spatial then a temporal Conv3d) of
    stride 2 and Conv3DNoTemporal, each 3-D BatchNorm folded, a (1,3,3) MaxPool3d, an adaptive 3-D
    average pool and a linear head: 5-D Convolution and pooling."""

    def __init__(self) -> None:
        super().__init__()
        from torchvision.models.video import resnet as video

        def downsample(cin: int, cout: int, stride: Any) -> nn.Module:
            return nn.Sequential(nn.Conv3d(cin, cout, 1, stride, bias=False), nn.BatchNorm3d(cout))

        self.stem = nn.Sequential(
            nn.Conv3d(3, 8, (3, 7, 7), (1, 2, 2), (1, 3, 3), bias=False), nn.BatchNorm3d(8), nn.ReLU()
        )
        self.layer1 = video.BasicBlock(8, 8, video.Conv3DSimple)
        self.layer2 = video.BasicBlock(8, 16, video.Conv2Plus1D, 2, downsample(8, 16, 2))
        self.pool = nn.MaxPool3d((1, 3, 3), (1, 2, 2), (0, 1, 1))
        self.layer3 = video.BasicBlock(16, 24, video.Conv3DNoTemporal, 2, downsample(16, 24, (1, 2, 2)))
        self.head = nn.Sequential(nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(24, 5))

    def forward(self, clip: torch.Tensor) -> torch.Tensor:
        x = self.layer2(self.layer1(self.stem(clip)))
        return self.head(self.layer3(self.pool(x)))  # type: ignore[no-any-return]


VIDEO_CLIP = (1, 3, 4, 32, 32)  # batch, channels, frames, height, width

NETWORKS += [
    Network("qwen2_moe_dyn_tokens", qwen2_moe, _tokens(TOKENS), inputs=["[?,?]", "[?,?]"]),
    Network("mamba2_dyn_tokens", mamba2, {"input_ids": TOKENS}, inputs=["[?,?]"]),
    Network("mamba_static_f16", mamba, {"input_ids": TOKENS}, fp16=True),
    Network(
        "sam_points_interval",
        sam,
        {"pixel_values": (1, 3, 64, 64), "input_points": (1, 1, 2, 2)},
        inputs=["[1,3,64,64]", "[1,1,1..8,2]"],
    ),
    Network("rt_detr_interval", rt_detr, (1, 3, 64, 64), inputs=["[1,3,64..128,64..128]"]),
    Network("video_resnet_interval", VideoResNet, VIDEO_CLIP, inputs=["[1..2,3,4..16,32..112,32..112]"]),
]

LIBRARIES.update(
    {
        qwen2_moe: "transformers",
        mamba2: "transformers",
        mamba: "transformers",
        sam: "transformers",
        rt_detr: "transformers",
        VideoResNet: "torchvision (video blocks)",
    }
)

# -- end of the deploy6 block ------------------------------------------------------------------

# -- tfnets: models through OpenVINO's TensorFlow and TensorFlow Lite frontends (issue 24) ------
# (one block) TensorFlow is not in the torch venv: tools/tf_networks.py builds and converts each
# model in a venv of its own (IRSHAPE_TF_PYTHON), as a child process, and writes the IR itself.

TF_PYTHON = Path(os.environ.get("IRSHAPE_TF_PYTHON", "/work/tfvenv/bin/python"))


def _tf_export(xml: Path) -> None:
    """The network named ``xml.stem``, built and written by tools/tf_networks.py in the TF venv."""
    runner = Path(__file__).resolve().with_name("tf_networks.py")
    subprocess.run([str(TF_PYTHON), str(runner), xml.stem, str(xml)], check=True)


def _tf_version() -> str:
    command = [
        str(TF_PYTHON),
        "-c",
        "import tensorflow, keras; print(tensorflow.__version__, keras.__version__)",
    ]
    environment = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    tensorflow, keras = subprocess.run(
        command, check=True, capture_output=True, text=True, env=environment
    ).stdout.split()
    return f"tensorflow-cpu {tensorflow}, keras {keras}"


def tf_nms_detector(xml: Path) -> None:
    """A Keras detector of one 64x64 NHWC image (four stride-2 SAME convolutions 8-16-16-24
    wide, a depthwise convolution, BatchNormalization, ReLU6, 1x1 box and score heads on an
    8x8 grid of two anchors a cell, 3 classes) with TF Object Detection API's box decoding
    (centre/size deltas scaled by 10 and 5, Exp) and post-processing: the best class's sigmoid
    score per box, tf.image.non_max_suppression_with_scores (NonMaxSuppressionV5 with a
    soft-NMS sigma), the kept boxes and labels gathered."""
    _tf_export(xml)


def tf_batch_nms_detector(xml: Path) -> None:
    """The same detector on a batch of any size, NMS per image as TF Object Detection API runs
    it: tf.map_fn over the images (a while loop: Loop-5 whose body holds the NMS) of the raw
    NonMaxSuppressionV5 padded to 10 boxes, the kept boxes, scores and labels gathered and the
    count of valid ones."""
    _tf_export(xml)


def tf_text_rnn(xml: Path) -> None:
    """Keras text model on token ids [batch, time], both dynamic: Embedding(50, 12),
    LSTM(16, return_sequences), GRU(8), Dense(4) softmax; Keras 3's recurrent layers are
    while loops (Loop-5 bodies of the cells' MatMuls and gates)."""
    _tf_export(xml)


def tf_while_loop(xml: Path) -> None:
    """A tf.while_loop whose trip count the data decides (x [?,6] times 8, halved until its
    largest magnitude is under 1, at most 20 steps: the step count, the last value, a running
    sum) writing each step's row sums into a TensorArray (a TensorList: an empty [0,1] state
    grown by ScatterUpdate in the Loop-5 body), stacked."""
    _tf_export(xml)


def tf_image_ops(xml: Path) -> None:
    """Keras SAME convolutions (3x3 stride 2, 5x5 stride 3) and a SAME 3x3 stride-2 pooling on
    odd sizes, then tf.image.resize to a computed size (floor(shape x 0.75) + 1, bilinear) and
    of the input to twice the features' size (nearest), tf.einsum('nhwc,cd->nhdw'), strided
    slices with ellipsis, new-axis and shrink masks and a reversed axis, tf.gather_nd and
    tf.tensor_scatter_nd_update; max pooling in the static files (the TFLite one: ScatterNDUpdate-4),
    average in the dynamic ones."""
    _tf_export(xml)


def tf_anchor_detector(xml: Path) -> None:
    """A Keras detector of any image size whose anchors come from the feature map's shape: SAME
    convolutions 8-16 wide (one dilated by 2: SpaceToBatch/BatchToSpace around it), a
    Conv2DTranspose upsampling cropped to the skip's computed size (StridedSlice of computed
    ends), anchors from tf.range over the grid (Range, meshgrid, stack), the boxes decoded,
    tf.math.top_k of k = min(20, anchors), NonMaxSuppressionV5, tf.image.crop_and_resize of
    the kept boxes from the features (ROIPooling-2 bilinear)."""
    _tf_export(xml)


def tf_sequence(xml: Path) -> None:
    """Token ids [batch, time], both dynamic: Embedding(40, 16, mask_zero) into a
    Bidirectional LSTM(8) (Loop-5 bodies; the mask keeps the state at padding steps: Select;
    the backward pass through ReverseSequence), MultiHeadAttention (2 heads of 8: Einsum) with
    the padding mask, LayerNormalization, a Dense tagger; and a greedy decoder, a
    tf.while_loop appending the argmax token of a table row to a growing sequence (a back edge
    whose shape grows each step) for as many steps as the input's length."""
    _tf_export(xml)


def tf_misc_ops(xml: Path) -> None:
    """TensorFlow ops of other families on x [?,8] and an image [1,?,?,4]: a dilated depthwise
    convolution (SpaceToBatch, GroupConvolution, BatchToSpace), space_to_batch_nd /
    batch_to_space with pads, extract_patches (ExtractImagePatches-3), depth_to_space, tf.roll,
    tf.sort and argsort (TopK), exclusive reverse cumsum, unsorted_segment_sum of computed ids
    (EmbeddingSegmentsSum-3), tf.unique (Unique-10), tf.where of a condition (NonZero),
    boolean_mask, one_hot, linalg.band_part, tile."""
    _tf_export(xml)


def tf_more_ops(xml: Path) -> None:
    """More TensorFlow ops on x [6,8] and an image [1,13,17,4], static: REFLECT and SYMMETRIC
    pads, a bilinear resize, LRN, l2_normalize, moments, logsumexp (IsFinite, Select), gelu
    (tanh), erf, softplus, segment_max of sorted ids (SegmentMax-16), top_k unsorted,
    max_pool_with_argmax (MaxPool-8's indices with the batch). OpenVINO 2026.4.1 converts none
    of bicubic or antialiased resizes (ResizeBicubic, ScaleAndTranslate), segment_mean,
    searchsorted (LowerBound) or cumprod ('No conversion rule found')."""
    _tf_export(xml)


def tf_classifier(xml: Path) -> None:
    """A MobileNet-style Keras classifier of a 64x64 NHWC image (a SAME stride-2 stem, ReLU6,
    depthwise-separable blocks 16-16-24 wide with BatchNormalization, an inverted residual,
    global average pooling, a Dense(5) softmax head): the Keras model given to convert_model
    itself (a dynamic batch); and frozen (Keras 3's variables as constants) and converted by
    tf.lite.TFLiteConverter: f32, and int8 by post-training quantisation calibrated on 8 seeded
    random images (FakeQuantize, i8 weights behind Convert and Multiply)."""
    _tf_export(xml)


def tflite_detector(xml: Path) -> None:
    """The detector of tf_nms_detector without its NMS (the TFLite frontend has no
    NON_MAX_SUPPRESSION_V5): the heads, the box decoding and the best class per anchor, through
    tf.lite.TFLiteConverter as tf_classifier, f32 and int8."""
    _tf_export(xml)


_TF_FUNCTION = "TensorFlow frontend: `convert_model(tf.function(..., input_signature=[{}]))`"
_TF_SAVED = "TensorFlow frontend: `convert_model(saved_model_dir)` of a tf.function of signature [{}]"
_KERAS = "TensorFlow frontend: `convert_model(keras_model, input=[{}])`"
_TFLITE = "TensorFlow Lite frontend: `convert_model(x.tflite)` of `TFLiteConverter`, [1,64,64,3], {}"
_TFLITE_OF = "TensorFlow Lite frontend: `convert_model(x.tflite)` of `TFLiteConverter`, {}, f32"
_INT8 = "int8 (`Optimize.DEFAULT`, a representative dataset of 8 random images)"

NETWORKS += [
    Network(
        "tf_detector_nms_v5_static",
        tf_nms_detector,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[1,64,64,3]"),
    ),
    Network(
        "tf_detector_map_nms_dyn_batch",
        tf_batch_nms_detector,
        (),
        exported=True,
        variant=_TF_SAVED.format("[?,64,64,3]"),
    ),
    Network("tf_text_rnn_dyn", tf_text_rnn, (), exported=True, variant=_TF_SAVED.format("[?,?] i32")),
    Network("tf_while_loop_dyn", tf_while_loop, (), exported=True, variant=_TF_FUNCTION.format("[?,6]")),
    Network(
        "tf_image_ops_static", tf_image_ops, (), exported=True, variant=_TF_FUNCTION.format("[1,45,61,3]")
    ),
    Network("tf_image_ops_dyn_hw", tf_image_ops, (), exported=True, variant=_TF_FUNCTION.format("[1,?,?,3]")),
    Network(
        "tf_detector_anchors_dyn_hw",
        tf_anchor_detector,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[1,?,?,3]"),
    ),
    Network(
        "tf_detector_anchors_interval",
        tf_anchor_detector,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[1,?,?,3]") + ", `input=[1,32..96,32..96,3]`",
    ),
    Network(
        "tf_keras_text_rnn_interval", tf_text_rnn, (), exported=True, variant=_KERAS.format("[1..4,1..50]")
    ),
    Network(
        "tf_keras_classifier_dyn_batch",
        tf_classifier,
        (),
        exported=True,
        variant=_KERAS.format("[?,64,64,3]"),
    ),
    Network("tf_sequence_dyn", tf_sequence, (), exported=True, variant=_TF_SAVED.format("[?,?] i32")),
    Network(
        "tf_misc_ops_dyn", tf_misc_ops, (), exported=True, variant=_TF_FUNCTION.format("[?,8], [1,?,?,4]")
    ),
    Network(
        "tf_image_ops_interval",
        tf_image_ops,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[1,?,?,3]") + ", `input=[1,32..96,32..96,3]`",
    ),
    Network(
        "tf_misc_ops_interval",
        tf_misc_ops,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[?,8], [1,?,?,4]") + ", `input=[[1..8,8], [1,5..33,5..33,4]]`",
    ),
    Network(
        "tf_sequence_interval",
        tf_sequence,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[?,?] i32") + ", `input=[1..4,1..20]`",
    ),
    Network(
        "tf_more_ops_static",
        tf_more_ops,
        (),
        exported=True,
        variant=_TF_FUNCTION.format("[6,8], [1,13,17,4]"),
    ),
    Network(
        "tflite_image_ops_f32", tf_image_ops, (), exported=True, variant=_TFLITE_OF.format("[1,45,61,3]")
    ),
    Network("tflite_text_rnn_f32", tf_text_rnn, (), exported=True, variant=_TFLITE_OF.format("[1,10] i32")),
    Network("tflite_classifier_f32", tf_classifier, (), exported=True, variant=_TFLITE.format("f32")),
    Network("tflite_classifier_int8", tf_classifier, (), exported=True, variant=_TFLITE.format(_INT8)),
    Network(
        "tflite_classifier_full_int8",
        tf_classifier,
        (),
        exported=True,
        variant=_TFLITE.format(_INT8 + ", int8 inputs and outputs (`TFLITE_BUILTINS_INT8`)"),
    ),
    Network("tflite_detector_f32", tflite_detector, (), exported=True, variant=_TFLITE.format("f32")),
    Network("tflite_detector_int8", tflite_detector, (), exported=True, variant=_TFLITE.format(_INT8)),
]

_TF_LIBRARY = "keras 3, TensorFlow (tools/tf_networks.py)"
LIBRARIES.update(
    {
        tf_nms_detector: _TF_LIBRARY,
        tf_batch_nms_detector: _TF_LIBRARY,
        tf_text_rnn: _TF_LIBRARY,
        tf_while_loop: _TF_LIBRARY,
        tf_image_ops: _TF_LIBRARY,
        tf_anchor_detector: _TF_LIBRARY,
        tf_sequence: _TF_LIBRARY,
        tf_misc_ops: _TF_LIBRARY,
        tf_more_ops: _TF_LIBRARY,
        tf_classifier: _TF_LIBRARY + ", tf.lite",
        tflite_detector: _TF_LIBRARY + ", tf.lite",
    }
)

# -- end of the tfnets block -------------------------------------------------------------------

README_HEAD = """\
# Real networks: irshape's ground-truth corpus

Narrow torch models with random weights, converted by OpenVINO and written by `ov.save_model`,
each beside `<name>.expected.json`: OpenVINO's answer for every layer of the saved file, read
back with `ov.Core().read_model`. Generated by `tools/make_networks.py` (by hand, never in CI:
it needs torch); checked by `tests/test_networks_openvino.py` (OpenVINO, no torch), which
derives the expectations again from the committed XML and compares them, then compares irshape
with them. `tests/networks.py` loads the corpus and its expectations.

Generated with {versions}.

## `<name>.expected.json`

- `file`, `openvino_version`;
- `op_counts`: `"Type/opsetN"` -> the number of layers of that type and version in the file;
- `layers`: XML layer id -> `type` and `version` as the XML writes them, and `outputs`, one
  per output port in port order: `port` (its id in the XML), `shape` (OpenVINO's
  `str(PartialShape)`: `[1,16,56,56]`, `[1..4,3,64..224,?]`, `[...]` for a dynamic rank),
  `dims` (the same structured: an int for a static dim, `[lo, hi]` for an interval with
  `hi` null when unbounded, and null for a dynamic rank) and `element_type` (`f32`, `i64`...).
  A Result has no output port in IR and none here.

Converted layer names are not unique, so OpenVINO's nodes are mapped back to XML ids through a
copy of the file whose layers are renamed `irshape_id_<id>` (`read_model` keeps a layer's name
as the node's friendly name); every layer of the file must be mapped, or generation fails. Only
top-level layers are listed (the bodies of the Loops and Ifs are not).

## Regenerating

```sh
python3 -m venv /work/torchvenv
/work/torchvenv/bin/pip install torch==2.13.0        # first, so pip keeps the CPU wheel
/work/torchvenv/bin/pip install torchvision==0.28.0 timm transformers onnx openvino==2026.4.1 numpy lxml
/work/torchvenv/bin/pip install nncf openvino-tokenizers==2026.4.1.0
# optimum-intel 2.2 needs transformers < 5.6: a venv of its own that reaches the torch venv's packages
python3 -m venv /work/optvenv
echo /work/torchvenv/lib/python3.11/site-packages > /work/optvenv/lib/python3.11/site-packages/torchvenv.pth
/work/optvenv/bin/pip install transformers==5.0.0 optimum-intel   # (IRSHAPE_OPTIMUM_PYTHON names another)
# TensorFlow in a venv of its own: tools/tf_networks.py builds the tf_* and tflite_* files there
python3.11 -m venv /work/tfvenv
/work/tfvenv/bin/pip install tensorflow-cpu numpy openvino==2026.4.1   # (IRSHAPE_TF_PYTHON names another)
/work/torchvenv/bin/python tools/make_networks.py    # every file, in one process
```

Generated node names (`Multiply_11422`) come from counters in OpenVINO's process, so
rebuilding one file (`--only NAME`) gives other names than a full run; shapes are the same.
Models are seeded (`torch.manual_seed({seed})` before each is built). `--manifest` rewrites only
this README; `--out DIR` writes elsewhere.

## What the variants show

- **static**: `convert_model(example_input=..., input=[the example's shapes])`; without
  `input=` the PyTorch frontend leaves every input dimension dynamic.
- **fp16**: `ov.save_model`'s default weight compression: every float Const is f16, followed by
  a Convert to f32 (more layers than the fp32 file of the same model).
- **dynamic** inputs through `convert_model(input=...)`: `?` dims, intervals
  (`[1..4,3,64..224,64..224]`, `[1,1..128]`), dynamic batch and sequence axes. The intervals
  run through every convolution (`[1..4,8,32..112,32..112]` after a stride-2 stem), pooling,
  Interpolate and Concat; the token models' causal-mask subgraphs (ShapeOf, Gather, Range,
  Slice, Select) give `?` dims where the mask's length is computed.
- **reshaped** after conversion (`model.reshape`): the ViT is traced with batch 1, so its
  class token is a `[1,1,32]` constant; reshaped to `[1..8,3,32,32]`, the Concat with the
  patches (`[1..8,16,32]`) merges the batch to 1 and every layer after it is static.
- the Whisper encoder with a dynamic time axis: its Add of the (traced, 64-long) positional
  embedding merges the time axis to 64, and everything after it is static.
- a dynamic rank (`[...]`) input does not convert (the PyTorch frontend needs a static rank), so
  no file has one.
- the shape subgraphs real converters emit: window partitions padded to the window from the
  shape (Swin), Interpolate to another tensor's size or by a scale (SegFormer, FPN, ViT's
  interpolated positions), relative-position buckets from Ranges on the lengths (T5, DeBERTa),
  rotary positions and causal masks (LLaMA), ALiBi from a CumSum (BLOOM), TF 'SAME' padding
  from Ceiling on the shape (EfficientNet-TF), detection grids from meshgrid(arange(h),
  arange(w)) (YOLO), conv feature extractors on raw audio (Wav2Vec2, TasNet); every layer of
  them is inferred as OpenVINO does.
- **deployed** models beyond classification (issue 24): torchvision's detectors converted whole
  with their post-processing (Faster/Mask/Keypoint R-CNN, RetinaNet, FCOS, SSDLite; static
  `[1,3,320,320]`, and Faster R-CNN on an interval): the transform's resize computed in f32 from
  the shape (ShapeOf -> Convert -> Divide/Multiply/Floor -> Convert -> Interpolate), anchors,
  TopK, NonZero, batched NonMaxSuppression-9 inside If bodies, ROIAlign-9 over FPN levels, the
  masks pasted and the keypoints decoded by Loops; timm `tf_*` models with TF 'SAME' padding
  (Ceiling/Maximum arithmetic on the shape -> Pad), static; and ONNX models read by OpenVINO's
  ONNX frontend (`build(path)` writes the .onnx, `convert_model(path)` reads it): a hand-built
  Loop/If and an exported LSTM. The detectors' own transform resizes every image to 128, and
  their heads get torch's default initialisation (torchvision's std 0.01 leaves every score
  near 0.5, and NMS's order to the last bit of rounding). torchvision's C++ ops do not load
  into the CPU torch wheel: the tool defines `torchvision::nms` and `torchvision::roi_align` in
  Python before importing torchvision (tracing records each as one node).
- **compressed, quantized, tokenizers, TensorIterator, segmentation** (issue 24): NNCF's
  `compress_weights` of a one-layer LLaMA LM and of the KV-cache decoder (INT8_SYM;
  INT4_SYM, INT4_ASYM, NF4, INT3_SYM, INT2_SYM, CB4 and NVFP4 with groups of 16; MXFP4 with
  groups of 32: u8/i8/i4/u4/nf4/u3/u2/f4e2m1 weight Consts behind Convert, a Subtract of the
  zero point, a Multiply by f16, f8e4m3 or f8e8m0 scales and a Reshape of the groups, CB4's u4
  indices Gathering from an f8e4m3 codebook; the 4-bit and lower modes keep the embedding and
  the head in u8); optimum-intel's own export of a one-layer LLaMA (`optimum-cli export openvino
  --task text-generation-with-past --weight-format int4`), committed as written: stateful, a
  beam_idx Gather on the KV-cache variables, position_ids, ScaledDotProductAttention-13;
  NNCF's `quantize` of
  MobileNetV2, ResNet (dynamic) and BERT (FakeQuantize on activations and weights, i8 weights
  behind Convert and Multiply once saved); openvino_tokenizers' tokenizer and detokenizer models
  of a BPE and a WordPiece vocabulary trained here (string tensors, StringTensorUnpack/Pack-15,
  extension ops `version="extension"`: a plain `read_model` fails on them, so their
  expectations are read with the extension's library added, and say so: `extensions`,
  `read_model_without_extensions`); TensorIterator-1 from an ONNX Scan and from openvino's
  opset API (LSTMCell-4 bodies forwards and backwards, as the Model Optimizer wrote LSTMs),
  static and dynamic; torchvision's DeepLabV3 on a dilated MobileNetV3 (an interval input).
- **through the ONNX frontend** (issue 24): `torch.onnx.export` (the TorchScript exporter, opset
  11 and 17) of torchvision's Keypoint R-CNN and RetinaNet whole (NonMaxSuppression inside If
  bodies, the keypoints decoded by an ONNX Loop, RoiAlign, TopK of a computed k, GatherND,
  InstanceNormalization as MVN), a transformer encoder (Range, Expand, ConstantOfShape, Where;
  batch and sequence dynamic), a segmenter (Resize to sizes computed in f32 and read from the
  shape; an interval given to `convert_model(path, input=...)`) and a YOLO head's
  post-processing (ScatterND, GatherElements); and two graphs built with `onnx.helper` of ops
  exporters rarely write (Loops with a computed condition, a growing carried state, one nested
  in an If; Einsum, GridSample, Unique, QuantizeLinear/DequantizeLinear, DFT, Col2Im...).
  torchvision's Mask R-CNN does not convert through the ONNX frontend: its mask-pasting Loop
  starts from an empty tensor ('Accessing out-of-range dimension').
- OpenVINO's frontend fuses attention into ScaledDotProductAttention even from unfused
  MatMul/Softmax code (GPT-2's eager attention), so Softmax appears only where a model applies
  it to its output.
- **more families people deploy** (issue 24): a mixture-of-experts decoder (Qwen2-MoE: a
  router's TopK, the chosen experts' weights Gathered by id and applied as batched MatMuls, a
  ReduceSum of each token's experts, a gated shared expert), state-space models (Mamba2's
  chunked scan: CumSum, segment sums masked by Select, Exp, Einsum-7; Mamba's selective scan
  step by step, SoftPlus), SAM whole (windowed ViT encoder, prompt encoder on a dynamic number
  of points, two-way mask decoder), RT-DETR (anchors from the feature maps' shapes, TopK query
  selection, multi-scale deformable attention through GridSample-9) on an interval input, and a
  video ResNet of torchvision's 3-D blocks (5-D Convolution, MaxPool and AdaptiveAvgPool) on
  intervals of frames and sizes. A padding token's zero embedding ties the MoE router's scores:
  the CPU plugin orders the ties of a TopK with `stable=false` by its heap sort (on data of
  rank 1 or 2 of a dynamic shape, or with k > 6), which irshape's kernel follows.
- **through the TensorFlow and TensorFlow Lite frontends** (issue 24): Keras 3 models with
  random weights (`keras.utils.set_random_seed`), built and converted by `tools/tf_networks.py`
  in the TensorFlow venv (`convert_model` of a `tf.function`, of a SavedModel directory, of a
  `.tflite` file): NHWC inputs behind Transposes, SAME padding as `auto_pad="same_upper"` on
  odd sizes, a detector with TF Object Detection API's box decoding and NonMaxSuppressionV5,
  static and on a dynamic batch through `tf.map_fn` (NMS inside a Loop-5 body), Keras
  LSTM/GRU layers and a `tf.while_loop` of a data-dependent trip count as Loop-5 (a
  TensorArray's empty `[0,1]` TensorList grown by ScatterUpdate in the body: OpenVINO makes a
  back edge's static 0 dims dynamic), `tf.image.resize` to computed sizes, StridedSlice
  masks, Einsum, GatherND, ScatterNDUpdate; and TFLite's f32 and int8 (post-training,
  representative data) models of a MobileNet-style classifier and the detector's heads and
  box decoding. Not converted by OpenVINO 2026.4.1: `tf.image.combined_non_max_suppression`
  (TensorFlow frontend: 'No conversion rule found for operations: CombinedNonMaxSuppression'),
  NMS through TFLite ('No translator found for NON_MAX_SUPPRESSION_V5 node'); not kept:
  `tf.image.non_max_suppression_padded` converts (TensorFlow's tiled NMS in while loops) but
  the CPU plugin crashes on it in about half of the runs (SIGSEGV in inference).

## Files
"""


def _variant(network: Network) -> str:
    if network.onnx and network.inputs is not None:
        return 'ONNX: `convert_model("x.onnx", input=[' + ", ".join(network.inputs) + "])`"
    if network.onnx:
        return 'ONNX: `convert_model("x.onnx")`, the inputs as the file declares them'
    if network.ov_model or network.exported:
        return network.variant or "built as an `ov.Model` here"
    if network.reshape is not None:
        how = f"converted static, then `model.reshape({network.reshape})`"
    elif network.inputs is not None:
        how = "dynamic: `convert_model(input=[" + ", ".join(network.inputs) + "])`"
    else:
        how = "static"
    if network.stateful:
        how += ", then made stateful (the cache inputs ReadValue, their outputs Assign)"
    if network.compress is not None:
        options = ", ".join(f"{key}={value}" for key, value in network.compress.items())
        how += f", then `nncf.compress_weights({options})`"
    if network.quantize is not None:
        options = "".join(f", {key}={value}" for key, value in network.quantize.items())
        how += f", then `nncf.quantize({CALIBRATION_SAMPLES} seeded samples{options})`"
    weights = "fp16" if network.fp16 else "fp32"
    return how + (f", the weights NNCF leaves {weights}" if network.compress else f", {weights} weights")


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def readme(directory: Path) -> str:
    """The manifest of the corpus in ``directory``, from NETWORKS and the expectation files."""
    import json

    versions = ", ".join(
        f"{lib.__name__} {lib.__version__}" for lib in (torch, torchvision, timm, transformers, onnx, ov)
    )
    versions += "".join(
        f", {name} {importlib.metadata.version(name)}" for name in ("nncf", "openvino-tokenizers")
    )
    versions += ", " + _tf_version()
    lines = [README_HEAD.format(versions=versions, seed=SEED)]
    lines.append("| file | model | variant | inputs (as OpenVINO reads them) | layers | .bin |")
    lines.append("|---|---|---|---|---|---|")
    totals: dict[str, list[int]] = {}
    size = 0
    for network in NETWORKS:
        xml = directory / f"{network.name}.xml"
        expected = json.loads((directory / f"{network.name}.expected.json").read_text("utf-8"))
        inputs = [
            port["shape"]
            for layer in expected["layers"].values()
            if layer["type"] == "Parameter"
            for port in layer["outputs"]
        ]
        model = network.build.__name__
        bin_size = xml.with_suffix(".bin").stat().st_size
        size += sum(p.stat().st_size for p in directory.glob(f"{network.name}.*"))
        lines.append(
            f"| `{network.name}` | {model} | {_variant(network)} | {' '.join(inputs)} "
            f"| {len(expected['layers'])} | {bin_size // 1024} KiB |"
        )
        for op, count in expected["op_counts"].items():
            totals.setdefault(op, [0, 0])
            totals[op][0] += count
            totals[op][1] += 1
    lines.append(f"\nAll files together: {size / 2**20:.1f} MiB.\n")
    lines.append("## Models\n")
    lines.append("| model | library | what (constructor arguments) |")
    lines.append("|---|---|---|")
    for build, library in LIBRARIES.items():
        lines.append(f"| {build.__name__} | {library} | {_one_line(build.__doc__)} |")
    lines.append("\n## Op types across the corpus\n")
    lines.append("| type/version | layers | files |")
    lines.append("|---|---|---|")
    for op, (count, files) in sorted(totals.items()):
        lines.append(f"| {op} | {count} | {files} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="names of the networks to rebuild (default: all)")
    parser.add_argument("--out", type=Path, default=NETWORKS_DIR, help="output directory")
    parser.add_argument("--manifest", action="store_true", help="only rewrite README.md")
    parser.add_argument(
        "--optimum-export",
        type=Path,
        help="(in the optimum-intel venv) export the tiny LLM to this directory",
    )
    args = parser.parse_args()
    if args.optimum_export is not None:
        _export_with_optimum(args.optimum_export)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = [n for n in NETWORKS if not args.only or n.name in args.only]
    for network in [] if args.manifest else chosen:
        write(network, args.out)
    (args.out / "README.md").write_text(readme(args.out), encoding="utf-8")


if __name__ == "__main__":
    main()
