"""Throughput benchmarks; `python -m benchmarks` runs the one suite (`benchmarks.suite`)."""
