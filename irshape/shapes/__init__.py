"""Shape functions, one module per op family (named by each declaration's ``family``), over
shared helpers such as the window arithmetic of :mod:`~irshape.shapes.window`."""
