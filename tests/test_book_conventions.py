"""The built conventions page: the book's one statement of its simulation settings.

Slow: builds the book (once per session, shared with the other book tests).
"""

import pytest

import armlab as al
from armlab import spatial
from bookpages import block, evals, soup

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("built_book")]

PAGE = "book/conventions"


def test_simulation_default_is_said_once_with_its_evidence():
    """RK4, one step per 1 ms tick: what armlab's defaults are, and on this page the sentence
    of evidence (the fall: RK4 at 1 ms 8e-09 deg off in 1,000 evaluations, semi-implicit Euler
    at 0.01 ms 3e-03 deg in 25,000; the feed-forward error 24 % low at 0.1 ms), linking the
    two forward dynamics sections that measure it"""
    defaults = al.simulate.__kwdefaults__
    assert (defaults["method"], defaults["substeps"], defaults["control_dt"]) == ("rk4", 1, 1e-3)
    assert spatial.simulate.__kwdefaults__["method"] == "rk4"
    assert "RK4, one step per tick" in soup(PAGE).get_text(" ")
    assert evals(PAGE, "On the forward dynamics chapter") == ["8e-09", "1,000", "0.01", "3e-03",
                                                               "25,000", "0.1", "24"]
    links = [a["href"] for a in block(PAGE, "On the forward dynamics chapter").find_all("a")]
    assert links == ["forward_dynamics.html#sec-fd-step-method",
                     "forward_dynamics/stability.html#sec-fd-book-settings"]
