"""What OpenVINO's ops are, as data: which version of an op each opset holds
(:mod:`~irshape.ops.opset_table`, generated from OpenVINO), each op version's declaration
(``irshape/schemas/<Op>-<version>.toml``, compiled into :mod:`~irshape.ops.declarations` and read
by :mod:`~irshape.ops.schema`), and the registry that
joins a layer's type and version to its declaration and pure shape function
(:mod:`~irshape.ops.registry`). The shape functions live by family in :mod:`irshape.shapes`.
"""
