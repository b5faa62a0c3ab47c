"""One submission's grading as data: made once, where it is graded; every output is written
from it.

A :class:`Result` holds what the round needs of a graded notebook: each test cell's points
(as nbgrader scored them) and its checks' verdicts in words, the faults of the grading, the
calls of armlab's references, the designs that ignore their cases, whether the notebook ran
in a sandbox, what the runs cost, and the identity of its cases. It travels as JSON
(:meth:`Result.to_json`), so a grading process writes it to a file and the round reads it
back; nothing of it is carried in the graded notebook.

>>> r = Result("ann", scores={"test_a": 2.0}, faults=[["grading fault", "a run died"]])
>>> Result.from_json(r.to_json()) == r
True
>>> r.problems()
[('grading fault', 'a run died'), ('graded without isolation', '--no-sandbox: the notebook ran as this user, outside a sandbox')]
"""

import dataclasses
import hashlib
import json

CONSTANT_DESIGN = ("{} returned the same design at every case and did not meet every "
                   "case's spec: that check scored 0")
"""The report's words for a design that ignores its cases (:func:`judge.design_result`)."""
CARRIED = "{}: half of that check's points"
"""The report's words for a check credited as a carried slip (:func:`judge.carried`)."""


def cases_identity(key):
    """A name for a student's cases that does not reveal their key: the first 16 hex digits
    of its SHA-256 (``"default"`` for the default cases, key ``""``)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16] if key else "default"


@dataclasses.dataclass
class Result:
    """One submission, graded.

    Attributes
    ----------
    student : str
        The student's id in the gradebook.
    success : bool
        False when nbgrader could not grade the notebook (``log`` says why).
    log : str
        nbgrader's log of the grading, its last 20,000 characters.
    scores : dict
        ``{grade id: points}`` of every test cell, as the gradebook holds them.
    gradebook : dict
        What nbgrader's ``autograde`` recorded in the grading's own gradebook, which the
        round writes into its gradebook (:func:`armlab.grading.gradebook.submission_rows`).
    verdicts : dict
        ``{grade id: [[kind, words], ...]}``, each check's verdict (``pass``, ``partial``,
        ``fail``, ``fault``) and its message.
    faults : list
        ``[[kind, detail], ...]``: what went wrong that is not the student's answer.
    armlab_calls : list
        armlab's functions an answer called where its part asks for its own code.
    constant_designs : list
        The checks whose design was the same at every case and failed some.
    carried : list
        The checks whose only fault was a slip already made in an earlier part, credited
        :data:`~armlab.grading.judge.CARRIED` of their points, each in words
        (:func:`armlab.grading.judge.carried`).
    isolated : bool
        Whether the notebook ran in sandboxes.
    cost : dict
        Runs, their seconds and CPU seconds, the grader's served CPU seconds.
    cases : str
        The identity of the student's cases (:func:`cases_identity`).
    graded : bool
        Whether nbgrader kept a graded notebook.
    recorded : bool
        Whether the grading recorded the fields from ``verdicts`` on (False: the notebook
        was graded without :class:`~armlab.grading.execute.SandboxExecute`).
    """

    student: str
    success: bool = True
    log: str = ""
    scores: dict = dataclasses.field(default_factory=dict)
    gradebook: dict = dataclasses.field(default_factory=dict)
    verdicts: dict = dataclasses.field(default_factory=dict)
    faults: list = dataclasses.field(default_factory=list)
    armlab_calls: list = dataclasses.field(default_factory=list)
    constant_designs: list = dataclasses.field(default_factory=list)
    carried: list = dataclasses.field(default_factory=list)
    isolated: bool = False
    cost: dict = dataclasses.field(default_factory=dict)
    cases: str = "default"
    graded: bool = True
    recorded: bool = True

    def to_json(self):
        return json.dumps(dataclasses.asdict(self), indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text))

    def problems(self):
        """The report's rows for this submission: ``[(problem, detail), ...]``."""
        rows = []
        if not self.success:
            last = [line for line in self.log.splitlines() if line.strip()][-1:] or ["?"]
            rows.append(("grading failed",
                         f"nbgrader could not grade it ({last[0].strip()[:150]})"))
        if not self.graded:
            return rows + ([] if not self.success else [("grading failed",
                                                         "no graded notebook")])
        if not self.recorded:
            return rows + [("grading failed", "the graded notebook has no grading record")]
        rows += [tuple(f) for f in self.faults]
        rows += [("used armlab's reference",
                  f"the answer calls {call} where its part asks for its own code")
                 for call in self.armlab_calls]
        rows += [("design ignores its cases", CONSTANT_DESIGN.format(check))
                 for check in self.constant_designs]
        rows += [("slip counted once", CARRIED.format(check)) for check in self.carried]
        if not self.isolated:
            rows.append(("graded without isolation",
                         "--no-sandbox: the notebook ran as this user, outside a sandbox"))
        return rows

    def total(self):
        return sum(self.scores.values())
