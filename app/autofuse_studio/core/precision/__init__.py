"""Fusion precision: chunked metrics, pairing plan, parallel engine, verdicts."""
