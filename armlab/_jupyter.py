"""A Jupyter server extension for the book's readers: Validate on a chapter explains itself.

nbgrader's Validate button sits on every notebook's toolbar, so a reader may press
it on a chapter (``book/*.md``, a MyST notebook). nbgrader then tries to read the
chapter as ``.ipynb`` JSON and shows a Python traceback. With this extension
(enabled by ``postBuild``), Validate on anything but an ``.ipynb`` file answers
in one sentence what Validate is for and where the exercises are. Exercise
notebooks are validated by nbgrader as before.
"""

import posixpath
import textwrap

MESSAGE = ("{path} is a page of the book, not an exercise notebook: there is nothing to "
           "validate here. Validate checks the exercise notebooks in the exercises/ folder "
           "(exercises/<chapter>/<chapter>.ipynb) before you hand them in.")


def _explain_non_notebooks(validate_notebook):
    def validate(self, path):
        if not str(path).endswith(".ipynb"):
            text = MESSAGE.format(path=posixpath.basename(path))
            return {"success": False, "value": textwrap.fill(text, width=72)}
        return validate_notebook(self, path)

    validate.__wrapped__ = validate_notebook
    return validate


def _jupyter_server_extension_points():
    return [{"module": "armlab._jupyter"}]


def _load_jupyter_server_extension(serverapp):
    try:
        from nbgrader.server_extensions.validate_assignment import handlers
    except ImportError:                 # no nbgrader: no Validate button either
        return
    handler = handlers.ValidateAssignmentHandler
    if not hasattr(handler.validate_notebook, "__wrapped__"):
        handler.validate_notebook = _explain_non_notebooks(handler.validate_notebook)
    serverapp.log.info("armlab: Validate explains itself on the book's chapters")
