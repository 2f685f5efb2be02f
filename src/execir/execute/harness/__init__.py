"""Trusted harness files run by the sandbox server and the judge (stdlib only, no execir imports).

They are shipped as package data and started as scripts; ``codec`` and ``frames`` are also imported
by the host side through this package.
"""
