"""``irshape rules`` and ``irshape rule CODE``: the registry of diagnostic codes."""

from __future__ import annotations

import click

from irshape import rules
from irshape.cli.group import Command


@click.command(name="rules", cls=Command)
@click.option("--markdown", is_flag=True, help="Print the table docs/codes.md carries.")
def list_rules(markdown: bool) -> None:
    """List every diagnostic code with its summary."""
    if markdown:
        click.echo(rules.markdown_table())
        return
    for rule in rules.RULES.values():
        click.echo(f"{rule.code}  {rule.severity.value:<7}  {rule.name:<26}  {rule.summary}")


@click.command(cls=Command)
@click.argument("code")
def rule(code: str) -> None:
    """Document one diagnostic code (IRS306) or rule name (value-unknown): what it means, why,
    an example and the fix."""
    from irshape.report.ruledoc import rule_text  # only this command (and SARIF) documents a rule

    found = rules.lookup(code)
    if found is None:
        raise click.BadParameter(
            f"no such code or rule name {code!r}; `irshape rules` lists them", param_hint="CODE"
        )
    click.echo(rule_text(found))
