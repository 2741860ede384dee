"""Op schemas as data: one TOML file per op and version, read by irshape.schema."""
