"""nbgrader preprocessors the autograder adds to nbgrader's own.

``TruncateOutput`` runs right after execution, merges each cell's consecutive stream
outputs (their split depends on timing) and bounds what a cell can put
in the graded notebook (characters of text, size of rich data, widget views);
``HideHiddenTests`` runs when feedback is generated and removes the hidden
tests' source and the tracebacks that would quote it, keeping each failed
check's message.
"""

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Integer, Unicode

from armlab.grading.messages import FAILED_MARK, TRUNCATED, wrap


class TruncateOutput(Preprocessor):
    """Bound every code cell's output (text characters and rich-data size)."""

    enabled = Bool(True).tag(config=True)
    max_chars = Integer(20_000, help="characters of stream text kept per cell").tag(config=True)
    max_data = Integer(200_000, help="bytes of one rich output kept").tag(config=True)

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)          # widget state: never needed for grading
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        # Merge consecutive stream outputs of the same stream: how a print is split
        # into messages depends on timing, and the graded files must not.
        merged = []
        for out in cell.get("outputs", []):
            if (out.output_type == "stream" and merged and merged[-1].output_type == "stream"
                    and merged[-1].name == out.name):
                merged[-1].text += out.text
            else:
                merged.append(out)
        kept, used, cut = [], 0, False
        for out in merged:
            if out.output_type == "stream":
                room = self.max_chars - used
                if room <= 0:
                    cut = True
                    continue
                text = out.text
                if len(text) > room:
                    out.text = text[:room] + "\n"
                    cut = True
                used += len(out.text)
            elif out.output_type in ("display_data", "execute_result"):
                data = out.get("data", {})
                if "application/vnd.jupyter.widget-view+json" in data:
                    out.data = {"text/plain": "[a widget: not shown when grading]"}
                elif sum(len(str(v)) for v in data.values()) > self.max_data:
                    out.data = {"text/plain": TRUNCATED}
                    cut = True
            kept.append(out)
        if cut:
            kept.append({"output_type": "stream", "name": "stdout", "text": TRUNCATED + "\n"})
            from nbformat import from_dict
            kept = [from_dict(o) for o in kept]
        if "outputs" in cell:
            cell.outputs = kept
        return cell, resources


class HideHiddenTests(Preprocessor):
    """Remove hidden tests from graded cells, keep only the message of their errors."""

    enabled = Bool(True).tag(config=True)
    begin = Unicode("### BEGIN HIDDEN TESTS").tag(config=True)
    end = Unicode("### END HIDDEN TESTS").tag(config=True)

    def preprocess_cell(self, cell, resources, index):
        nbgrader = cell.get("metadata", {}).get("nbgrader", {})
        if not nbgrader.get("grade") or cell.cell_type != "code":
            return cell, resources
        lines, hiding, hidden = [], False, False
        for line in cell.source.splitlines():
            if self.begin in line:
                hiding = hidden = True
                continue
            if self.end in line:
                hiding = False
                continue
            if not hiding:
                lines.append(line)
        if hidden:
            lines.append("# (hidden tests run here; their source is not shown)")
        cell.source = "\n".join(lines)
        for out in cell.get("outputs", []):
            if out.output_type == "error":          # a failed check shows as in the notebook
                out.traceback = [wrap(FAILED_MARK + out.evalue) if out.ename == "CheckFailed"
                                 else f"{out.ename}: {out.evalue}"]
        return cell, resources
