"""One small Convolution layer in the spec examples' fragment form, for CLI, API and format tests.

Data 1x3x10x10 and kernel 8x3x3x3 with stride 1 and no pads give 1x8x8x8 (10 - 3 + 1 = 8), so
``h=9`` or ``w=7`` declares a wrong output dim (IRS301, on line 8) and ``strides=False`` leaves
out the strides attribute (IRS101 warning).
"""

from __future__ import annotations

_TEMPLATE = """<layer id="{id}" name="{name}" type="Convolution" version="opset1">
    <data {strides}pads_begin="0,0" pads_end="0,0" dilations="1,1" auto_pad="explicit"/>
    <input>
        <port id="0"><dim>1</dim><dim>3</dim><dim>10</dim><dim>10</dim></port>
        <port id="1"><dim>8</dim><dim>3</dim><dim>3</dim><dim>3</dim></port>
    </input>
    <output>
        <port id="2"><dim>1</dim><dim>8</dim><dim>{h}</dim><dim>{w}</dim></port>
    </output>
</layer>
"""


def conv(*, id: int = 1, name: str = "conv", strides: bool = True, h: int = 8, w: int = 8) -> str:
    return _TEMPLATE.format(id=id, name=name, strides='strides="1,1" ' if strides else "", h=h, w=w)


GOOD = conv()
BAD = conv(h=9)  # IRS301 error on line 8
WARN = conv(strides=False)  # IRS101 warning: strides missing
