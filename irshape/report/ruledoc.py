"""The documentation of a diagnostic code, from the registry: ``irshape rule CODE`` and SARIF.

Every code gets what it means, why it matters, an example (the rule's own, and the message
irshape prints, with its fields as ``<placeholders>``) and the fix.
"""

from __future__ import annotations

import string
import textwrap

from irshape.diagnostics import Rule

_FORMATTER = string.Formatter()


def example_message(rule: Rule) -> str:
    """The rule's message template with each field shown as ``<field>``."""
    out = []
    for literal, field, _spec, _conversion in _FORMATTER.parse(rule.template):
        out.append(literal)
        if field is not None:
            out.append(f"<{field}>")
    return "".join(out)


def rule_text(rule: Rule) -> str:
    """Plain-text documentation of ``rule``."""
    wrap = textwrap.TextWrapper(width=88, initial_indent="  ", subsequent_indent="  ")
    parts = [
        f"{rule.code} {rule.name} ({rule.severity.value})",
        "",
        "What:",
        wrap.fill(rule.summary),
        "",
        "Why:",
        wrap.fill(rule.why),
        "",
        "Example:",
    ]
    if rule.example:
        parts.append(textwrap.indent(rule.example, "  "))
    parts += [
        wrap.fill(f"irshape says: {rule.code} [{rule.severity.value}] {example_message(rule)}"),
        "",
        "Fix:",
        wrap.fill(rule.fix),
    ]
    return "\n".join(parts)


def rule_markdown(rule: Rule) -> str:
    """Markdown documentation of ``rule`` (SARIF ``help.markdown``)."""
    parts = [
        f"**{rule.code} {rule.name}** ({rule.severity.value})",
        "",
        f"**What:** {rule.summary}",
        "",
        f"**Why:** {rule.why}",
        "",
        "**Example:**",
        "",
    ]
    if rule.example:
        parts += ["```", rule.example, "```", ""]
    parts += [
        "```",
        f"{rule.code} [{rule.severity.value}] {example_message(rule)}",
        "```",
        "",
        f"**Fix:** {rule.fix}",
    ]
    return "\n".join(parts)
