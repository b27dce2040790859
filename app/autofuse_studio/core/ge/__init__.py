"""GE dump graphs: JSON and protobuf-text readers, one Model, fusion mapping."""
