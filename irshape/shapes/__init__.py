"""Shape arithmetic: one module per op family over the shared :mod:`conv_arith`."""
