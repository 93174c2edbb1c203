"""Links to a label in another chapter, ``[text](04_uct.ipynb#ch4-one-child)`` (a Sphinx extension).

A chapter refers to a section of another chapter with a plain Markdown link to that
notebook and the section's MyST label, because that is the one form that works in both
places a reader meets the chapters:

- in JupyterLab, jupyterlab-myst renders ``{ref}`ch4-one-child``` only when the label is
  in the same notebook (it sees one notebook at a time: any other label is logged as
  "Cross reference target was not found" and the link goes nowhere), while a relative link
  to ``04_uct.ipynb`` opens that notebook;
- in the book, myst-parser turns ``04_uct.ipynb#ch4-one-child`` into a link to the page,
  but it looks the part after ``#`` up among the page's heading slugs only
  (``myst_parser.sphinx_ext.myst_refs.MystReferenceResolver.resolve_myst_ref_doc``), so a
  ``(label)=`` target is reported as "local id not found" (an error under ``-W``).

This post-transform runs just before myst-parser's resolver (priority 9) and resolves such
links itself when the part after ``#`` is a label of the linked document: the link goes to
the element Sphinx gives that label's id (``04_uct.html#ch4-one-child``), and an empty link
text becomes the labelled section's title, as ``{ref}`` would write it. A label that exists
but in another document is an error naming both, so that a link never lands on the wrong
chapter; anything else (heading slugs, unknown ids) is left to myst-parser, which warns.
``tests/test_cross_references.py`` keeps the chapters to this form.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

LOGGER = logging.getLogger(__name__)


class LabelLinkResolver(SphinxPostTransform):
    """Resolve ``[text](other.ipynb#label)`` to the label's target in ``other``."""

    default_priority = 8  # before myst-parser's MystReferenceResolver (9)

    def run(self, **kwargs) -> None:
        std = self.env.get_domain("std")
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst" or node.get("refdomain") != "doc":
                continue
            label = node.get("reftargetid")
            if not label or label not in std.anonlabels:
                continue  # no anchor, or a heading slug: myst-parser's business
            target_doc, target_id = std.anonlabels[label]
            linked_doc = node["reftarget"]
            if target_doc != linked_doc:
                LOGGER.warning(
                    f"link to {linked_doc!r} with anchor {label!r}: that label is in "
                    f"{target_doc!r}, not in {linked_doc!r}",
                    location=node,
                    type="ref",
                    subtype="label_link",
                )
                continue
            node.replace_self(self._reference(node, target_doc, target_id, label, std))

    def _reference(self, node, target_doc, target_id, label, std) -> nodes.Node:
        classes = ["std", "std-ref"]
        if node.get("refexplicit"):
            inner = nodes.inline(node.astext(), "", classes=classes)
            inner.extend(node[0].children)
        else:
            title = std.labels.get(label, (None, None, label))[2] or label
            inner = nodes.inline(title, title, classes=classes)
        from_doc = node.get("refdoc", self.env.docname)
        return make_refnode(self.app.builder, from_doc, target_doc, target_id, inner)


def setup(app):
    app.add_post_transform(LabelLinkResolver)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
