"""The one boundary between pla_proof and users' code.

Every call into a variant's or an estimator's code goes through this package: loading
it (:mod:`.loading`), the per-run clock (:mod:`.limits`), and the calls themselves
(:mod:`.calls`), which turn whatever the user's code does -- raise, return the wrong
type, print, never return -- into the user's error, naming the hook and the user's
file and line, never into "a bug in pla_proof".
"""

from .calls import (
    HookError,
    call_before_runs,
    call_hook,
    defined_at,
    hook_error,
    one_line,
    quiet_output,
    raised_in,
    returned,
    stuck_in,
    user_frames,
)
from .limits import (
    DEFAULT_TIME_LIMIT,
    TOTAL_FACTOR,
    RunTimeout,
    check_deadline,
    past_deadline,
    time_limit,
)
from .loading import import_user_module, load_attribute, user_error

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "TOTAL_FACTOR",
    "HookError",
    "RunTimeout",
    "call_before_runs",
    "call_hook",
    "check_deadline",
    "defined_at",
    "hook_error",
    "import_user_module",
    "load_attribute",
    "one_line",
    "past_deadline",
    "quiet_output",
    "raised_in",
    "returned",
    "stuck_in",
    "time_limit",
    "user_error",
    "user_frames",
]
