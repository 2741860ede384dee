"""RGBtoNV12-17 and BGRtoNV12-17, which OpenVINO 2026.4 runs nowhere (no CPU node, no evaluate):
irshape's kernel follows OpenVINO's reference (irshape/kernels/colour.py), tested on pixels
worked by hand from the reference's formulas, and by a round trip through NV12toRGB-8 / NV12toBGR-8
on the CPU plugin, which gives the image back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset8 as ov8
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import execute
from irshape.ir.reader import read_file

from .harness import CPU_CONFIG, parameter

RED, GREEN, BLUE, WHITE, BLACK = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)
# Worked by hand with Y = 0.257R + 0.504G + 0.098B + 16, U = -0.148R - 0.291G + 0.439B + 128,
# V = 0.439R - 0.368G - 0.071B + 128 (u8: rounded half away from zero, then clamped):
#   red:   Y 81.535 -> 82,   U 90.26 -> 90,    V 239.945 -> 240
#   green: Y 144.52 -> 145,  U 53.795 -> 54,   V 34.16 -> 34
#   blue:  Y 40.99 -> 41,    U 239.945 -> 240, V 109.895 -> 110
#   white: Y 235.045 -> 235, U 128,  V 128;  black: Y 16, U 128, V 128
# The block [red, red; green, blue]: U (90 + 90 + 54 + 240) / 4 = 118.5 -> 119 (half away from
# zero: numpy's rint would give 118), V (240 + 240 + 34 + 110) / 4 = 156.
# The block [white, black; black, white]: U 128, V 128.
IMAGE = np.array([[[RED, RED, WHITE, BLACK], [GREEN, BLUE, BLACK, WHITE]]], np.uint8)  # [1, 2, 4, 3]
Y_PLANE = np.array([[[82, 82, 235, 16], [145, 41, 16, 235]]], np.uint8)
UV_PLANE = np.array([[[[119, 156], [128, 128]]]], np.uint8)  # [1, 1, 2, 2]


def _model(op: str, dtype: Any, shape: tuple[int, ...], single_plane: bool, directory: Path) -> Path:
    image = parameter(shape, dtype)
    image.set_friendly_name("image")
    node = NodeFactory("opset17").create(op, [image.output(0)], {"single_plane": single_plane})
    xml = directory / f"{op}_{np.dtype(dtype).name}_{single_plane}.xml"
    ov.save_model(ov.Model(list(node.outputs()), [image]), xml, compress_to_fp16=False)
    return xml


def _run(op: str, image: np.ndarray, single_plane: bool, directory: Path) -> list[np.ndarray]:
    document = read_file(_model(op, image.dtype, image.shape, single_plane, directory)).document
    assert document is not None
    return list(execute(document, {"image": image}).results.values())


@pytest.mark.parametrize("op", ["RGBtoNV12", "BGRtoNV12"])
def test_openvino_cannot_run_it(tmp_path: Path, op: str) -> None:
    """Why the expectations are worked by hand: neither the plugin nor OpenVINO's core runs it."""
    xml = _model(op, np.uint8, (1, 2, 4, 3), True, tmp_path)
    with pytest.raises(RuntimeError, match="Unsupported operation"):
        ov.Core().compile_model(xml, "CPU", CPU_CONFIG)


@pytest.mark.parametrize("op", ["RGBtoNV12", "BGRtoNV12"])
def test_u8_pixels_worked_by_hand(tmp_path: Path, op: str) -> None:
    image = IMAGE if op == "RGBtoNV12" else IMAGE[..., ::-1].copy()
    y, uv = _run(op, image, False, tmp_path)
    np.testing.assert_array_equal(y, Y_PLANE[..., None])
    np.testing.assert_array_equal(uv, UV_PLANE)
    (single,) = _run(op, image, True, tmp_path)
    # one plane: Y's two rows, then one row of U, V, U, V (a pair a 2 x 2 block)
    np.testing.assert_array_equal(
        single[0, :, :, 0], [[82, 82, 235, 16], [145, 41, 16, 235], [119, 156, 128, 128]]
    )


def test_f32_pixels_are_not_rounded(tmp_path: Path) -> None:
    """f32: the formulas' values clamped to [0, 255], the block means unrounded."""
    image = np.array([[[RED, RED], [GREEN, (300.0, -20.0, 0.5)]]], np.float32)
    y, uv = _run("RGBtoNV12", image, False, tmp_path)
    # the last pixel past the range: Y = 77.1 - 10.08 + 0.049 + 16 = 83.069; U = -44.4 + 5.82 +
    # 0.2195 + 128 = 89.6395; V = 131.7 + 7.36 - 0.0355 + 128 = 267.0245 -> 255 (clamped)
    expected_y = [[81.535, 81.535], [144.52, 83.069]]
    np.testing.assert_allclose(y[0, :, :, 0], expected_y, atol=2e-4)
    u = (90.26 + 90.26 + 53.795 + 89.6395) / 4
    v = (239.945 + 239.945 + 34.16 + 255) / 4
    np.testing.assert_allclose(uv[0, 0, 0], [u, v], atol=2e-4)


def test_f16_planes_in_f16(tmp_path: Path) -> None:
    y, uv = _run("BGRtoNV12", IMAGE[..., ::-1].astype(np.float16), False, tmp_path)
    assert y.dtype == uv.dtype == np.float16
    np.testing.assert_allclose(
        y[0, :, :, 0], [[81.535, 81.535, 235.045, 16], [144.52, 40.99, 16, 235.045]], atol=0.07
    )


@pytest.mark.parametrize(("op", "back"), [("RGBtoNV12", ov8.nv12_to_rgb), ("BGRtoNV12", ov8.nv12_to_bgr)])
@pytest.mark.parametrize("single_plane", [True, False])
def test_round_trip_through_the_plugins_nv12_to_rgb(
    tmp_path: Path, op: str, back: Any, single_plane: bool
) -> None:
    """An image of 2 x 2 blocks of one colour each (nothing for the chroma subsampling to lose),
    to NV12 by irshape, back to RGB by OpenVINO's CPU plugin: the image again, within the
    coefficients' rounding (BT.601's two matrices are not exact inverses: at most 2 levels off)."""
    rng = np.random.default_rng(23)
    blocks = rng.integers(0, 256, (2, 4, 5, 3), dtype=np.uint8)
    image = blocks.repeat(2, axis=1).repeat(2, axis=2)  # [2, 8, 10, 3]
    planes = _run(op, image, single_plane, tmp_path)
    parameters = [ov8.parameter(list(p.shape), ov.Type.u8) for p in planes]
    model = ov.Model([back(*parameters).output(0)], parameters)
    restored = ov.Core().compile_model(model, "CPU", CPU_CONFIG)(planes)[0]
    difference = np.abs(restored.astype(np.int16) - image.astype(np.int16))
    assert difference.max() <= 2, difference.max()
    # and the Y plane alone carries the brightness: a black and a white block stay apart
    assert planes[0].dtype == np.uint8
