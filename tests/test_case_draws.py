"""Every student's fresh cases can be drawn, quickly, whatever the course secret.

A generator that rejects draws until one meets its condition can spin for ever for
the keys whose arm cannot meet it (a light arm without gravity never needs 0.5 N m):
those students would lose the part's hidden points to a lottery. Each generator
must finish in a bounded number of draws for every key.
"""

import gc
import signal
import time

import pytest

from armlab.grading.cases import student_key
from armlab.grading.references import lookup, quantities

KEYS = 2000
SPUN = 60            # the first keys, drawn by the quick test below
LIMIT = 1.0          # CPU seconds for one quantity's cases; most take under a millisecond
COSTLY = 0.002       # CPU seconds of a first draw past which a set is drawn for fewer keys


class _Stuck(Exception):
    pass


def _stop(signum, frame):
    raise _Stuck()


def _sets():
    return [(q, s) for q in quantities() for s in ["fresh", *lookup(q).set_names()]]


def _draw_all(keys, costly=None):
    """``[(quantity, set, key, problem)]`` for every draw that raised or took too long.

    ``costly``: a set whose first draw costs more than :data:`COSTLY` CPU seconds (its
    generator simulates or searches) is drawn for the first ``costly`` keys only, so that
    the whole check stays within minutes on two cores."""
    problems = []
    old = signal.signal(signal.SIGPROF, _stop)           # CPU time: load stretches the clock
    try:
        for quantity, which in _sets():
            ref = lookup(quantity)
            limit = len(keys)
            for k, key in enumerate(keys):
                if k >= limit:
                    break
                signal.setitimer(signal.ITIMER_PROF, 3 * LIMIT)
                gc.disable()            # the generator's own time, not a collection of the
                started = time.thread_time()        # suite's garbage (1.5 s once, measured)
                try:
                    ref.cases(which, key=key)
                    seconds = time.thread_time() - started
                    if seconds > LIMIT:
                        problems.append((quantity, which, key, f"{seconds:.2f} s"))
                except _Stuck:
                    problems.append((quantity, which, key, "never finished"))
                    seconds = LIMIT
                except Exception as exc:                    # noqa: BLE001
                    problems.append((quantity, which, key, repr(exc)))
                    seconds = 0.0
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    gc.enable()
                if k == 0 and costly and seconds > COSTLY:
                    limit = costly
    finally:
        signal.signal(signal.SIGPROF, old)
    return problems


@pytest.mark.slow
def test_every_quantity_draws_its_cases_for_2000_students():
    """With the quick test's first :data:`SPUN` keys: every set for 2,000 students, the
    costly ones for the first 100."""
    keys = [student_key("a course secret", f"student{k}") for k in range(SPUN, KEYS)]
    assert _draw_all(keys, costly=KEYS // 20 - SPUN) == []


def test_the_keys_that_used_to_spin_draw_at_once():
    """Keys for which the limits chapter's clipping cases (an arm too light to need 0.5 N m)
    and the control chapter's rest cases used to be redrawn without end."""
    keys = [student_key("a course secret", f"student{k}") for k in range(SPUN)]
    assert _draw_all(keys) == []


def test_a_generator_that_cannot_finish_is_reported():
    """The check itself can fail: a generator that spins is named, not waited for."""
    ref = lookup("kinematics.jacobian")
    kept = ref.fresh_cases

    def spin(rng):
        while True:
            rng.pose(2)

    object.__setattr__(ref, "fresh_cases", spin)
    try:
        problems = _draw_all(["k"])
    finally:
        object.__setattr__(ref, "fresh_cases", kept)
    assert ("kinematics.jacobian", "fresh", "k", "never finished") in problems
