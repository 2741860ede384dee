"""The common element type of ConvertPromoteTypes-14's two inputs, as OpenVINO's
``evaluate_common_type`` finds it (``src/core/src/op/convert_promote_types.cpp``).

The rules of promotion are apart from the element-wise family, whose shape function
:func:`irshape.shapes.elementwise.convert_promote_types` uses them, because only a file with
that op needs them: imported where used (start-up).
"""

from __future__ import annotations

from irshape.ir import element_types
from irshape.shapes.findings import REAL

# The element types ConvertPromoteTypes-14 takes (OpenVINO's is_type_supported)
PROMOTABLE = frozenset(
    {"dynamic", "boolean", "f16", "f32", "f64", "bf16", "f8e4m3", "f8e5m2"}
    | {"i4", "i8", "i16", "i32", "i64", "u1", "u4", "u8", "u16", "u32", "u64"}
)
_UNSUPPORTED_PROMOTION = "Unsupported input element types for ConvertPromoteTypes with given attributes."


class Promotion:
    """OpenVINO's ``evaluate_common_type`` of ConvertPromoteTypes-14: the common type of two
    known element types, or the message of the check that fails."""

    def __init__(self, unsafe: bool, pytorch_scalars: bool, u64_target: str) -> None:
        self.unsafe, self.pytorch_scalars, self.u64_target = unsafe, pytorch_scalars, u64_target

    def common(self, a: str, b: str, a_rank: int | None, b_rank: int | None) -> tuple[str | None, str | None]:
        if a == "dynamic" or b == "dynamic":
            return "dynamic", None
        if a == b or b == "boolean":
            return a, None
        if a == "boolean":
            return b, None
        if (a in REAL) != (b in REAL):
            return self._real_and_integer(a if a in REAL else b, b if a in REAL else a)
        if self.pytorch_scalars:
            if a_rank is None or b_rank is None:  # which input is a scalar decides the type
                return "dynamic", None
            if (a_rank == 0) != (b_rank == 0):
                return self._scalar_and_tensor(b if a_rank == 0 else a, a if a_rank == 0 else b)
        if _signed(a) != _signed(b):
            return self._signed_and_unsigned(a if _signed(a) else b, b if _signed(a) else a)
        bits_a, bits_b = element_types.BITS[a], element_types.BITS[b]
        if bits_a != bits_b:
            return (a if bits_a > bits_b else b), None
        if self.unsafe and {a, b} == {"f8e4m3", "f8e5m2"}:
            return "f16", None
        if self.unsafe and {a, b} == {"f16", "bf16"}:
            return "f32", None
        return None, _UNSUPPORTED_PROMOTION

    def _real_and_integer(self, real: str, integer: str) -> tuple[str | None, str | None]:
        if self.unsafe or element_types.BITS[real] >= 2 * element_types.BITS[integer]:
            return real, None
        return None, "Integer input cannot be safely promoted to floating-point."

    def _scalar_and_tensor(self, tensor: str, scalar: str) -> tuple[str | None, str | None]:
        """PyTorch's rule: the non-scalar input's type, where (safely) it holds the scalar's."""
        bits_t, bits_s = element_types.BITS[tensor], element_types.BITS[scalar]
        same_sign = _signed(tensor) == _signed(scalar) and bits_t >= bits_s
        widened = _signed(tensor) and not _signed(scalar) and 2 * bits_t >= bits_s
        if self.unsafe or same_sign or widened:
            return tensor, None
        return None, "Scalar input cannot be PyTorch-like promoted using safe promotion rules."

    def _signed_and_unsigned(self, signed: str, unsigned: str) -> tuple[str | None, str | None]:
        """A signed integer wide enough for the unsigned one; u64 goes to u64_target, if unsafe."""
        bits_u, bits_s = element_types.BITS[unsigned], element_types.BITS[signed]
        if bits_u <= 32 and (self.unsafe or 2 * bits_u <= bits_s):
            return f"i{max(2 * bits_u, bits_s)}", None
        if self.unsafe:
            return self.u64_target, None
        return None, "Unsigned integer input cannot be safely promoted into any supported signed integer."


def _signed(element_type: str) -> bool:
    """OpenVINO's is_signed(): the reals and the i types."""
    return element_type in REAL or element_type.startswith("i")
