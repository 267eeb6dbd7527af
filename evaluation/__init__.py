"""Evaluation: demo, fuzzing and benchmarks."""
