"""``execir doctor``: is everything the README promises on this machine, and what to install
where it is not (:mod:`execir.doctor.checks`; the probes it judges: :mod:`execir.doctor.probes`)."""

from execir.doctor.checks import Check, Report, diagnose

__all__ = ["Check", "Report", "diagnose"]
