"""What a chapter's test file calls to test its exercise set (see AUTHORING.md).

:class:`ExerciseSet` reads ``solutions/<chapter>/<chapter>.ipynb`` and its
release, finds which answer cell defines which checked function (from the
test cells' ``check_function(name, "quantity", ...)`` calls), and builds the
submissions the exercise standard asks to grade:

* the source notebook (full marks) and the release (zero, without stopping
  the grader);
* one seeded mistake per part (loses that part's points and no others, and
  its feedback shows the hint);
* every checked function returning the chapter's worked value as a constant
  (at most the visible checks' points);
* one submission per part whose function calls the armlab function that
  answers it (none of that part's points).

:meth:`ExerciseSet.assert_grades_fairly` grades all of them in one round with
the real nbgrader (``armlab.grading.autograde``) and fails with the list of
everything that went wrong. :meth:`ExerciseSet.assert_references_agree`
compares the chapter's references with armlab on the worked and fresh cases
(two independent routes). :meth:`ExerciseSet.assert_meets_the_standard_on_paper`
reads the set's shape from the source notebook, :meth:`ExerciseSet.assert_release_is_fresh`
compares ``exercises/`` with a fresh release, and :meth:`ExerciseSet.worked` gives a
visible check's expected value; :meth:`ExerciseSet.assert_explanations_point_at_no_option`
checks that no choice's explanation echoes one option's words. A chapter's test file is then a few lines::

    from exercise_sets import ExerciseSet

    SET = ExerciseSet("statics")
    MISTAKES = {"jacobian_answer": ("a12 = q[0] + q[1]", "a12 = q[1]",
                                    "q2 is measured from link 1"), ...}
    CALLS = {"jacobian_answer": "def jacobian(arm, q):\\n    return al.jacobian(arm, q)", ...}

    @pytest.mark.slow
    def test_grades_fairly(tmp_path):
        SET.assert_grades_fairly(tmp_path, MISTAKES, CALLS)
"""

import ast
import copy
import csv
import html
import json
import pathlib
import re
import tempfile

from armlab.grading.execute import TRY_IT_NOTE

REPO = pathlib.Path(__file__).resolve().parents[1]
_COUNTS = dict(enumerate("one two three four five six seven eight nine ten eleven".split(), 1))
_SOLUTION = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)


def _source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def _squash(text):
    return " ".join(html.unescape(text).split())


class ExerciseSet:
    """One chapter's exercise set: its notebooks, parts and checked functions."""

    def __init__(self, chapter, notebook=None, repo=REPO, designs=None):
        self.chapter = chapter
        self.designs = dict(designs or {})
        """``{design quantity: the design a student might type in}`` (the solution's design
        at the worked case, or a function that computes it), for :meth:`constants`; None
        leaves that part unanswered."""
        name = notebook or f"{chapter}.ipynb"
        self.source_path = pathlib.Path(repo, "solutions", chapter, name)
        self.release_path = pathlib.Path(repo, "exercises", chapter, name)
        self.notebook_name = name
        self.repo = pathlib.Path(repo)

    # ------------------------------------------------------------ reading
    def source(self):
        return json.loads(self.source_path.read_text(encoding="utf-8"))

    def release(self):
        return json.loads(self.release_path.read_text(encoding="utf-8"))

    def parts(self):
        """``{part key: {"title", "points", "tests": {grade_id: points}, "answers": [ids]}}``.

        A part starts at a markdown heading ``## ...`` (its key is the cell's
        grade_id); its answer and test cells are the ones that follow.
        """
        parts, current = {}, None
        for cell in self.source()["cells"]:
            meta, text = _meta(cell), _source(cell).lstrip()
            if cell["cell_type"] == "markdown" and text.startswith("## "):
                current = meta.get("grade_id") or cell.get("id")
                parts[current] = {"title": text[3:].splitlines()[0].strip(), "points": 0.0,
                                  "tests": {}, "answers": []}
            elif current is None:
                continue
            elif meta.get("grade"):
                parts[current]["tests"][meta["grade_id"]] = float(meta.get("points", 0))
                parts[current]["points"] += float(meta.get("points", 0))
            elif meta.get("solution"):
                parts[current]["answers"].append(meta["grade_id"])
        return parts

    def total(self):
        return sum(p["points"] for p in self.parts().values())

    def part_of(self, answer_id):
        for key, part in self.parts().items():
            if answer_id in part["answers"]:
                return key
        raise KeyError(f"no part holds the answer cell {answer_id!r}")

    def visible_points(self):
        """Points of the test cells that hold no hidden tests."""
        total = 0.0
        for cell in self.source()["cells"]:
            meta = _meta(cell)
            if meta.get("grade") and "BEGIN HIDDEN TESTS" not in _source(cell):
                total += float(meta.get("points", 0))
        return total

    def checked_functions(self):
        """``{answer cell id: (function name, quantity)}`` from the test cells' calls."""
        calls = {}
        for cell in self.source()["cells"]:
            if not _meta(cell).get("grade"):
                continue
            for node in ast.walk(ast.parse(_source(cell))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "check_function" and len(node.args) >= 2
                        and isinstance(node.args[0], ast.Name)
                        and isinstance(node.args[1], ast.Constant)):
                    calls[node.args[0].id] = node.args[1].value
        out = {}
        for cell in self.source()["cells"]:
            meta = _meta(cell)
            if not meta.get("solution"):
                continue
            for node in ast.parse(_source(cell)).body:
                if isinstance(node, ast.FunctionDef) and node.name in calls:
                    out[meta["grade_id"]] = (node.name, calls[node.name])
        return out

    # ------------------------------------------------------------ submissions
    def answer(self, answer_id):
        """The solution's answer cell without the solution markers."""
        for cell in self.source()["cells"]:
            if _meta(cell).get("grade_id") == answer_id:
                return _SOLUTION.sub("", _source(cell))
        raise KeyError(answer_id)

    def filled(self, **answers):
        """The release with every answer cell filled in from the solution, except
        those given as keyword arguments (``cell_id=source``)."""
        nb = self.release()
        for cell in nb["cells"]:
            meta = _meta(cell)
            if meta.get("solution"):
                gid = meta["grade_id"]
                cell["source"] = answers.get(gid, self.answer(gid))
        return nb

    def with_mistake(self, answer_id, old, new):
        """The filled release with ``old`` replaced by ``new`` in one answer."""
        text = self.answer(answer_id)
        if old not in text:
            raise ValueError(f"{old!r} is not in the solution of {answer_id}")
        return self.filled(**{answer_id: text.replace(old, new)})

    def constants(self):
        """Every checked function returns its worked value, whatever its arguments (a
        design part the design in :attr:`designs`, as a design has no worked value);
        every other answer stays as released (unanswered)."""
        nb = self.release()
        functions = self.checked_functions()
        for cell in nb["cells"]:
            gid = _meta(cell).get("grade_id")
            if gid in functions:
                name, quantity = functions[gid]
                value = self.designs[quantity] if quantity in self.designs \
                    else worked_value(quantity)
                value = value() if callable(value) else value
                if value is not None:
                    cell["source"] = (f"def {name}(*args, **kwargs):\n"
                                      f"    return np.array({value!r})\n")
        return nb

    def worked(self, name, index=0):
        """The value a visible check expects, as an array: the reference's answer on its
        ``index``-th worked case. ``name`` is a quantity of this chapter (``"joint_torques"``)
        or of any chapter (``"kinematics.jacobian"``)."""
        import numpy as np

        return np.asarray(worked_value(name if "." in name else f"{self.chapter}.{name}", index))

    def solution(self):
        """The names the source notebook's setup and answer cells define, run in order as a
        notebook runs them (in this process: for tests of the solution itself)."""
        namespace = {"__name__": "__main__"}
        for cell in self.source()["cells"]:
            meta = _meta(cell)
            if cell["cell_type"] == "code" and (meta.get("grade_id") == "setup"
                                                or meta.get("solution")):
                exec(compile(_source(cell), meta["grade_id"], "exec"), namespace)
        return namespace

    # ------------------------------------------------------------ checking
    def visible_outcomes(self, mistakes):
        """``{answer cell: message or "pass"}``: each seeded mistake put into the solution
        (its answer cells run in order, as a student's notebook would) and the part's
        visible check run on it, in this process."""
        import numpy as np

        import armlab as al
        from armlab.grading import check_function

        functions = self.checked_functions()
        out = {}
        with np.printoptions():        # the setup cell's print options stay there
            for answer_id, (old, new, _hint) in sorted(mistakes.items()):
                if answer_id not in functions:
                    continue                    # a choice: its visible check is its form
                namespace = {"np": np, "al": al, "__name__": "__main__"}
                for cell in self.source()["cells"]:
                    meta = _meta(cell)
                    if meta.get("grade_id") == "setup":
                        exec(compile(_source(cell), "setup", "exec"), namespace)
                    elif meta.get("solution") and cell["cell_type"] == "code":
                        text = self.answer(meta["grade_id"])
                        if meta["grade_id"] == answer_id:
                            text = text.replace(old, new)
                        try:
                            exec(compile(text, meta["grade_id"], "exec"), namespace)
                        except Exception:        # noqa: BLE001  (a stub, a choice)
                            pass
                name, quantity = functions[answer_id]
                try:
                    check_function(namespace[name], quantity, "worked")
                    out[answer_id] = "pass"
                except AssertionError as exc:
                    out[answer_id] = " ".join(str(exc).split())
        return out

    def assert_visible_checks_catch(self, mistakes):
        """Every listed mistake of a function part fails that part's visible check (a
        student learns of it before handing in), with the mistake's hint."""
        problems = []
        for answer_id, text in self.visible_outcomes(mistakes).items():
            hint = mistakes[answer_id][2]
            if text == "pass":
                problems.append(f"{answer_id}: the visible check passes the mistake "
                                f"{mistakes[answer_id][1]!r}")
            elif " ".join(hint.split()) not in text:
                problems.append(f"{answer_id}: the visible check fails without the hint "
                                f"{hint!r}: {text}")
        assert problems == [], "\n".join(problems)

    def assert_meets_the_standard_on_paper(self, mistakes, calls, *, parts, points):
        """The set's shape, read from the source notebook, against the exercise standard.

        ``parts`` parts worth ``points`` in all, which the introduction states
        ("six parts (22 points)") with the line that installs armlab; each part has a
        seeded mistake in ``mistakes``; ``calls`` has an armlab call for exactly the
        checked functions; a function part starts with a visible test cell worth at most
        a third of its points; every test cell opens with a one-line docstring; every
        reference of the chapter draws its fresh cases per student (the same for one case
        key, others for another). Fails listing every problem.
        """
        from armlab.grading.references import lookup, quantities

        problems = []
        found = self.parts()
        if len(found) != parts or self.total() != points:
            problems.append(f"{len(found)} parts ({self.total():g} points), expected {parts} "
                            f"({points:g} points)")
        functions = self.checked_functions()
        if set(functions) != set(calls):
            problems.append(f"the checked functions' answer cells {sorted(functions)} are not "
                            f"the ones with an armlab call {sorted(calls)}")
        cells = {_meta(c).get("grade_id"): _source(c) for c in self.source()["cells"]}
        for key, part in found.items():
            if not any(a in mistakes for a in part["answers"]):
                problems.append(f"part {key} has no seeded mistake")
            if any(a in functions for a in part["answers"]):
                first = next(iter(part["tests"]))
                if "BEGIN HIDDEN TESTS" in cells[first]:
                    problems.append(f"part {key}: its first test cell {first} holds hidden tests")
                if part["tests"][first] > part["points"] / 3:
                    problems.append(f"part {key}: its visible check is worth "
                                    f"{part['tests'][first]:g} of {part['points']:g} points")
        for cell in self.source()["cells"]:
            first = (_source(cell).splitlines() or [""])[0]
            if _meta(cell).get("grade") and not (first.startswith('"""') and first.endswith('"""')
                                                 and len(first) > 6):
                problems.append(f"test cell {_meta(cell)['grade_id']} does not open with a "
                                "one-line docstring")
        from armlab import _site

        intro = _source(self.source()["cells"][0])
        wanted = [f"{_COUNTS.get(parts, parts)} parts ({points:g} points)",
                  _site.INSTALL_LINE_START]
        problems += [f"the introduction does not say {text!r}" for text in wanted
                     if text not in intro]
        if _site.install_line() not in _source(self.release()["cells"][0]):
            problems.append(f"the release's introduction does not say {_site.install_line()!r} "
                            "(armlab/_site.py): run make exercises")
        for quantity in quantities(self.chapter):
            ref = lookup(quantity)
            one, again, other = (repr(ref.cases("fresh", key=k)) for k in ("ann", "ann", "bob"))
            if one != again or one == other:
                problems.append(f"{quantity}: its fresh cases are not drawn per student")
        assert problems == [], "\n".join(problems)

    def choice_questions(self):
        """``{name: (stem, {letter: option}, explain, expected)}`` of the set's multiple-choice
        questions: the stem and options from the markdown cell that says "Set `name`", the
        explanation and the right letter from its hidden ``check_choice``."""
        from armlab.grading.execute import checks_of

        cells = self.source()["cells"]
        markdown = [_source(c) for c in cells if c["cell_type"] == "markdown"]
        out = {}
        for cell in cells:
            if not _meta(cell).get("grade"):
                continue
            code = re.sub(r"### (BEGIN|END) HIDDEN TESTS", "", _source(cell))
            for spec in checks_of(code):
                if spec["kind"] != "choice" or spec["expected"] is None:
                    continue
                name = spec["name"]
                text = next(t for t in markdown if re.search(rf"Set\s+`{name}`", t))
                head, rest = re.split(rf"Set\s+`{name}`", text, maxsplit=1)
                stem = re.split(r"\*\*\([a-z]\)\*\*|^## ", head, flags=re.M)[-1]
                block = re.split(r"\n\*\*\(|\n\*Checked|\n## ", rest)[0]
                options = dict(re.findall(r"^\* \*\*([a-z])\.\*\* (.*?)(?=\n\* \*\*|\Z)",
                                          block, re.S | re.M))
                out[name] = (stem + rest.split("\n* **", 1)[0], options, spec["explain"],
                             spec["expected"])
        return out

    _COMMON = {"each", "that", "this", "with", "from", "only", "when", "what", "than",
               "their", "there", "which", "where", "does", "them", "they", "into", "have",
               "every"}

    @classmethod
    def _words(cls, text):
        """The words of four letters or more of ``text`` but the commonest."""
        return set(re.findall(r"[a-z][a-z^-]{3,}", text.lower())) - cls._COMMON

    def assert_explanations_point_at_no_option(self, names):
        """The explanation a wrong pick shows shares no word with one option alone (a word
        of the question's stem, or of two options, gives nothing away): it says why a pick
        is wrong without echoing the right one. ``names`` are the set's questions."""
        questions = self.choice_questions()
        assert sorted(questions) == sorted(names)
        leaks = []
        for name, (stem, options, explain, _expected) in questions.items():
            assert len(options) >= 3 and sorted(options) == list("abcd"[:len(options)]), name
            for letter, option in options.items():
                others = set().union(*(self._words(o) for k, o in options.items() if k != letter))
                shared = self._words(explain) & (self._words(option) - others - self._words(stem))
                if shared:
                    leaks.append(f"{name}: the explanation shares {sorted(shared)} with {letter}")
        assert leaks == [], "\n".join(leaks)

    def assert_release_is_fresh(self):
        """``exercises/<chapter>/`` is what nbgrader generates from ``solutions/`` now, and
        generating it leaves no gradebook behind in the repository."""
        from armlab.grading import release

        with tempfile.TemporaryDirectory() as tmp:
            release.generate(self.chapter, tmp, solutions=self.repo / "solutions")
            fresh = pathlib.Path(tmp, "release", self.chapter, self.notebook_name).read_bytes()
        left = list(self.repo.glob("gradebook.db")) + list((self.repo / "solutions").rglob("*.db"))
        assert fresh == self.release_path.read_bytes(), "exercises/ is stale: run `make exercises`"
        assert left == [], f"generating the release left {left}"

    def assert_references_agree(self, routes, which=("worked", "fresh"), keys=("", "x", "y"),
                                rtol=1e-9, atol=1e-9):
        """Each reference against armlab on its cases: ``routes`` maps a quantity
        to a function ``(PlanarArm, *args) -> value`` computed with armlab."""
        import numpy as np

        import armlab
        from armlab.grading.cases import Arm
        from armlab.grading.references import lookup

        problems = []
        for quantity, route in routes.items():
            ref = lookup(quantity)
            cases = []
            named = ref.set_names() if "fresh" in which else []    # @ref.fresh("name") sets
            for w in (*which, *named):
                for key in (keys if w != "worked" else ("",)):
                    cases += ref.cases(w, key=key)
            for case in cases:
                args = ref.arguments(case)
                expected = ref.function(*args)
                real = [armlab.PlanarArm(**a.fields()) if isinstance(a, Arm)
                        else np.array(a, dtype=float) if isinstance(a, list) else a for a in args]
                got = np.asarray(route(*real), dtype=float)
                if not np.allclose(got, np.asarray(expected, dtype=float), rtol=rtol, atol=atol):
                    problems.append(f"{quantity} at {case!r}: armlab {got.tolist()}, "
                                    f"reference {expected}")
        assert problems == [], "\n".join(problems)

    def submissions(self, mistakes, calls):
        """``{login: (notebook, expectation)}`` for :meth:`assert_grades_fairly`."""
        out = {"source": (self.source(), "full"), "release": (self.release(), "zero"),
               "constants": (self.constants(), "constants")}
        for k, (answer_id, (old, new, _hint)) in enumerate(sorted(mistakes.items())):
            out[f"mistake{k}"] = (self.with_mistake(answer_id, old, new), ("mistake", answer_id))
        for k, (answer_id, text) in enumerate(sorted(calls.items())):
            out[f"armlab{k}"] = (self.filled(**{answer_id: text}), ("armlab", answer_id))
        return out

    def assert_grades_fairly(self, tmp_path, mistakes, calls, *, workers=2, secret=None,
                             extra=None):
        """Grade the standard's submissions in one round and check every outcome.

        ``mistakes``: ``{answer cell: (text in its solution, replacement, hint)}``,
        one per part; ``calls``: ``{answer cell: source}`` of an answer that calls
        the armlab function answering the part; ``extra``: ``{login: (notebook,
        {part: score}, problem kinds, phrases)}``, further submissions graded in the same
        round (a hostile one), each expected to score exactly that, with exactly those
        kinds of problem in the round's report and each phrase in its feedback. Fails
        listing every problem.
        """
        from armlab.grading.autograde import grade
        from armlab.grading.sandbox import available

        ok, why = available()
        if not ok:
            import pytest

            pytest.skip(f"no sandbox on this machine: {why}")
        tmp_path = pathlib.Path(tmp_path)
        missing = [key for key, part in self.parts().items()
                   if not any(a in mistakes for a in part["answers"])]
        problems = [f"part {key} has no seeded mistake" for key in missing]
        functions = self.checked_functions()
        problems += [f"answer {a} (a checked function) has no armlab call to test"
                     for a in functions if a not in calls]
        subs = self.submissions(mistakes, calls)
        subs.update({login: (nb, ("exact",) + tuple(rest))
                     for login, (nb, *rest) in (extra or {}).items()})
        export = tmp_path / "export"
        export.mkdir(parents=True, exist_ok=True)
        for k, (login, (nb, _)) in enumerate(sorted(subs.items())):
            path = export / f"{login}_{1000 + k}_1_{self.notebook_name}"
            path.write_text(json.dumps(nb), encoding="utf-8")
        out = tmp_path / "out"
        grade(self.chapter, export, out=out, workers=workers, progress=False, secret=secret)
        scores = self._scores(out)
        for login, (_nb, expect) in sorted(subs.items()):
            problems += self._against(login, scores.get(login), expect, mistakes, out)
        assert problems == [], "\n".join(problems)
        return scores

    def _against(self, login, got, expect, mistakes, out):
        """What is wrong with one submission's scores ``got`` (and, for a seeded mistake,
        its feedback page in ``out``) against what is expected of it, ``expect`` (see
        :meth:`submissions`)."""
        if got is None:
            return [f"{login}: not in grades.csv"]
        full = {key: part["points"] for key, part in self.parts().items()}
        if expect == "full":
            problems = [] if got == full else [f"source notebook scores {got}, expected {full}"]
            page = (pathlib.Path(out) / "feedback" / f"{login}.html").read_text(encoding="utf-8")
            problems += [f"source notebook's feedback shows {word}" for word in
                         ("ArmlabOff", "NotServed") if word in page]
            if _squash(TRY_IT_NOTE) not in _squash(page):
                problems.append("source notebook's feedback lacks the try-it cells' note")
            return problems
        if expect == "zero":
            return [f"release scores {got}, expected zero"] if any(got.values()) else []
        if expect == "constants":
            return [f"constants score {sum(got.values())}, more than the visible checks' "
                    f"{self.visible_points()}"] if sum(got.values()) > self.visible_points() \
                else []
        if expect[0] == "exact":
            _, scores, kinds, phrase = expect
            problems = [] if got == scores else [f"{login}: scores {got}, expected {scores}"]
            with open(pathlib.Path(out) / "report.csv", newline="", encoding="utf-8") as fh:
                reported = [r for r in csv.DictReader(fh) if r["student"] == login]
            if {r["problem"] for r in reported} != set(kinds):
                problems += [f"{login}: reported {r['problem']}: {r['detail']}"
                             for r in reported] or [f"{login}: nothing reported"]
            page = pathlib.Path(out) / "feedback" / f"{login}.html"
            text = _squash(page.read_text(encoding="utf-8")) if page.exists() else ""
            problems += [f"{login}: {p!r} is not in its feedback"
                         for p in ([phrase] if isinstance(phrase, str) else phrase)
                         if _squash(p) not in text]
            return problems
        kind, answer_id = expect
        part = self.part_of(answer_id)
        if kind != "mistake":
            want = dict(full, **{part: 0.0})
            return [] if got == want else [f"armlab call in {answer_id}: scores {got}, "
                                           f"expected {want}"]
        problems = []
        if got[part] >= full[part] or any(got[k] != full[k] for k in full if k != part):
            problems.append(f"mistake in {answer_id}: scores {got}; expected to lose {part} "
                            "only")
        hint = mistakes[answer_id][2]
        page = pathlib.Path(out) / "feedback" / f"{login}.html"
        text = _squash(page.read_text(encoding="utf-8")) if page.exists() else ""
        if _squash(hint) not in text:
            problems.append(f"mistake in {answer_id}: the hint {hint!r} is not in its feedback")
        return problems

    def _scores(self, out):
        """``{login: {part key: score}}`` from a round's grades.csv."""
        with open(pathlib.Path(out) / "grades.csv", newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        keys = list(self.parts())
        result = {}
        for row in rows:
            if row["status"] == "review":       # held back: the report says why
                result[row["student"]] = {k: None for k in keys}
                continue
            result[row["student"]] = {k: float(row[k]) for k in keys}
        return result


def worked_value(quantity, index=0):
    """The reference's answer on its ``index``-th worked case (what a visible check expects)."""
    from armlab.grading.references import lookup

    ref = lookup(quantity)
    return ref.function(*ref.arguments(ref.cases("worked")[index]))


def copy_nb(nb):
    """A deep copy of a notebook dict."""
    return copy.deepcopy(nb)


def derivation_verdict(quantity, answer, case):
    """The verdict on a derivation part's ``answer`` (a function of the case's arguments) as
    the grader gives it: the arguments as the student's function gets them, the answer
    recorded as the sandbox records it, through JSON; None when it is right."""
    from armlab.grading import judge
    from armlab.grading.cases import encode
    from armlab.grading.references import lookup
    from armlab.grading.runner import record, student_args

    ref = lookup(quantity)
    rec = record(answer(*student_args(encode(ref.arguments(case)))))
    return judge.verdict(ref, case, json.loads(json.dumps(rec)), show=True)


def assert_derivation_accepts(quantity, answer, key="ann"):
    """``answer``, another route to a derivation part's reference, is right on every worked
    case and on the fresh cases of ``key``."""
    from armlab.grading.references import lookup

    ref = lookup(quantity)
    for case in ref.cases("worked") + ref.cases("fresh", key=key):
        assert derivation_verdict(quantity, answer, case) is None, case.label


def assert_derivation_names_each_mistake(quantity, count):
    """A derivation part has ``count`` named mistakes, and each, answered on the worked case,
    is told it is not right with its own hint."""
    from armlab.grading.references import lookup

    ref = lookup(quantity)
    assert len(ref.mistakes) == count
    case = ref.cases("worked")[0]
    for wrong, hint in ref.mistakes:
        message = derivation_verdict(quantity, wrong, case)
        assert message and "which is not right" in message and message.endswith(hint), hint
