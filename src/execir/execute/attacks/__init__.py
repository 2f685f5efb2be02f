"""The selftest's attack data: adversarial programs and ordinary-code controls, per protocol and per
language, each with the verdict it must get (run by :mod:`execir.execute.selftest`)."""
