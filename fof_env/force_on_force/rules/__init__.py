"""Scenario rule modules: rules that cannot be data, switched on by a scenario's ``rules`` block."""
