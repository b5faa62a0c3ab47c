"""The publishing workflow (.github/workflows/book.yml) is valid and does what the README says.

It cannot run here, so it is checked by a workflow linter (check-jsonschema with its
bundled GitHub-workflow schema, offline) and by reading what it runs: the README's two
commands on the project's Python, and a deployment to GitHub Pages from main only.
"""

import pathlib
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "book.yml"


def lint(path):
    """Run check-jsonschema's GitHub-workflow schema on ``path``; return (exit code, output)."""
    proc = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def workflow():
    return yaml.safe_load(WORKFLOW.read_text())


def test_workflow_passes_the_linter():
    """The workflow file validates against the GitHub-workflow schema"""
    code, out = lint(WORKFLOW)
    assert code == 0, out


def test_linter_catches_a_broken_workflow(tmp_path):
    """A job without runs-on fails the same check (the linter is really applied)"""
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("    runs-on: ubuntu-latest\n", "", 1))
    code, out = lint(broken)
    assert code != 0 and "runs-on" in out, out


def steps(job):
    return [step.get("run", "") + step.get("uses", "") for step in job["steps"]]


def test_build_runs_the_readme_commands_on_the_project_python(workflow):
    """The build job installs the Python of runtime.txt and runs make book and .ci/run (make test)"""
    build = workflow["jobs"]["build"]
    python = (ROOT / "runtime.txt").read_text().strip().replace("-", "")      # python3.11
    assert any(f"{python} {python}-venv make" in s for s in steps(build))
    assert "make book" in steps(build)
    assert "bash .ci/run" in steps(build)
    assert "make test" in (ROOT / ".ci" / "run").read_text().splitlines()[-1]


def test_pages_are_published_from_main_only(workflow):
    """The site (_build/html) is uploaded and deployed on a push to main, never from a PR"""
    on_main = "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    upload = [s for s in build["steps"] if s.get("uses", "").startswith(
        "actions/upload-pages-artifact@")]
    assert len(upload) == 1 and upload[0]["with"]["path"] == "_build/html"
    assert upload[0]["if"] == on_main
    assert deploy["if"] == on_main and deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert [s.get("uses", "").split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
    assert workflow["permissions"] == {"contents": "read"}
