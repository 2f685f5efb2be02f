"""Execute stage: the sandboxed, cached execution oracle that labels candidates PASS/FAIL.

Public API: :class:`Oracle`, :class:`OracleConfig`, :class:`Job`, :class:`Limits`,
:class:`ExecResult`, :class:`Admission`.
"""

from execir.execute.jobs import Admission, ExecResult, Job
from execir.execute.limits import Limits
from execir.execute.oracle import Oracle, OracleConfig, OracleError

__all__ = ["Admission", "ExecResult", "Job", "Limits", "Oracle", "OracleConfig", "OracleError"]
