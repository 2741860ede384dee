"""The op declarations' sources: one TOML file per op version, ``<Op>-<N>.toml``, which people
edit and the package ships. A check neither reads them nor imports this package:
``python tools/compile_schemas.py`` compiles them into :mod:`irshape.ops.declarations`.
"""
