"""Benchmark start-up: ``irshape check`` on a one-layer-family fixture against ``python -c pass``.

Run from the repository root, irshape installed (``pip install -e .``)::

    python bench/bench_startup.py            # best of 30 runs each
    python bench/bench_startup.py --runs 100
    python bench/bench_startup.py --python /tmp/wheelvenv/bin/python   # irshape installed from a wheel
    python bench/bench_startup.py --instructions   # also callgrind's counts, which load does not move

A venv for ``--python``, as users and CI have it: ``python -m venv V && V/bin/pip install -U pip
&& V/bin/pip install click lxml && V/bin/pip install --no-deps .`` (pip upgraded: the console
script Python 3.11's bundled pip 23 writes compiles a regular expression at every start, pip 26's
does not).

It times, each in a fresh process, best of N (the commands take turns, one run each a round,
so that the shared machine's slow minutes slow them alike):

- ``python -c pass``, a bare interpreter start (with ``site``, as every command has);
- ``python -c "import click, lxml.etree"``, the floor of any click and lxml program;
- ``bench/click_program.py check FIXTURE``, a click program with ``irshape check``'s command line
  that parses the fixture with lxml and ends as irshape does (no teardown): what click and lxml
  cost a command of that shape, so that ``irshape check`` against it is irshape's own part;
- ``python -c "import irshape.cli"``, the imports of the command line;
- ``irshape check fixtures/ir/conv_relu_deconv.xml`` (the installed console script);
- ``python -m irshape check fixtures/ir/conv_relu_deconv.xml``;

and prints each against the bare start and the click+lxml floor, then ``irshape check``'s
ratio to the floor and its cost beyond the click program. The targets: ``irshape check`` under
3x a bare Python start (issue 6), within 1.3x of the floor (issue 12), within 1.1x of it (issue
26). Then it times the work after the imports (``main()`` called once in a process that has
imported ``irshape.cli``: reading the configuration and the op schemas, checking, reporting) and
lists the modules whose own import time is largest (``-X importtime``), which is where the
rest of the start-up goes.

The children run with bytecode, as an installed irshape has it (see ``bench/bytecode.py``);
a first, untimed run of each command fills its cache, and keeps the scanner's compiled patterns
beside it (``irshape.ir.regex_cache``), as a user's first check does.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bytecode import bytecode_env

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixtures" / "ir" / "conv_relu_deconv.xml"
BARE = "python -c pass"
FLOOR = "python -c 'import click, lxml.etree'"
MODULE = "python -m irshape check FIXTURE"
SCRIPT = "irshape check FIXTURE"
CLICK_PROGRAM = "click_program.py check FIXTURE"
# Imported, not run as a script, so that its bytecode is cached as an installed program's is.
_CLICK_PROGRAM = (
    f"import sys; sys.path[0] = {str(REPO / 'bench')!r}; import click_program; click_program.run()"
)
TARGET = 1.1  # issue 26: irshape check within 10% of the click+lxml floor


def best_of(commands: dict[str, list[str]], runs: int, env: dict[str, str], cwd: str) -> dict[str, float]:
    """The fastest of ``runs`` runs of each command, in seconds.

    The commands take turns, one run of each per round, so that a minute when the shared
    machine is slow slows them all alike and the ratios between them stay fair.
    """
    for command in commands.values():  # warm up: fill the bytecode cache
        subprocess.run(command, stdout=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
    fastest = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for label, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
            fastest[label] = min(fastest[label], time.perf_counter() - start)
    return fastest


# Run in a child: the first call of main() after the imports, as a plain `irshape check` makes it
# (the command's modules imported first: the group imports them when the command runs).
_AFTER_IMPORTS = """
import sys, time
from irshape.cli.group import main
import irshape.cli.check, irshape.files
start = time.perf_counter()
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print((time.perf_counter() - start) * 1000, file=sys.stderr)
"""


def work_after_imports(python: str, runs: int, env: dict[str, str], cwd: str) -> float:
    """The first ``irshape check FIXTURE`` in a process, imports excluded (best of ``runs``), ms."""
    fastest = float("inf")
    for _ in range(runs):
        proc = subprocess.run(
            [python, "-c", _AFTER_IMPORTS, "check", str(FIXTURE)],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            check=True,
        )
        fastest = min(fastest, float(proc.stderr.split()[-1]))
    return fastest


def heaviest_imports(python: str, env: dict[str, str], cwd: str, count: int = 12) -> list[tuple[str, float]]:
    """The modules with the largest own import time (``-X importtime``, best of 5), in ms."""
    best_self: dict[str, float] = {}
    for _ in range(5):
        proc = subprocess.run(
            [python, "-X", "importtime", "-m", "irshape", "check", str(FIXTURE)],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            check=False,
        )
        for line in proc.stderr.splitlines():
            if line.startswith("import time:") and "|" in line and "self [us]" not in line:
                own, _, name = line.removeprefix("import time:").split("|")
                us = int(own)
                best_self[name.strip()] = min(best_self.get(name.strip(), us), us)
    return [(name, us / 1000) for name, us in Counter(best_self).most_common(count)]


def instructions(commands: dict[str, list[str]], env: dict[str, str], cwd: str) -> dict[str, float] | None:
    """Millions of instructions of each command (valgrind's callgrind, ``PYTHONHASHSEED=0``, its
    bytecode cached by the timed runs before), or None without valgrind. They do not move with
    the machine's load, as wall time does: the figures to compare a change by."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counted: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="irshape-callgrind-") as directory:
        out = os.path.join(directory, "callgrind.out")
        for label, command in commands.items():
            proc = _callgrind(
                [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", *command], env, cwd
            )
            collected = [line for line in proc.stderr.splitlines() if "Collected :" in line]
            if collected:
                counted[label] = int(collected[-1].split()[-1]) / 1e6
    return counted


def _callgrind(command: list[str], env: dict[str, str], cwd: str) -> subprocess.CompletedProcess[str]:
    """``command`` (valgrind's, wrapping a Python) run with ``PYTHONHASHSEED=0``, its stderr kept."""
    return subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**env, "PYTHONHASHSEED": "0"},
        cwd=cwd,
        check=False,
    )


WORK = "(the work after the imports)"
CHECK = "(the check of the file)"  # irshape.files.check_files, the imports it makes excluded

# Run in a child under callgrind with --dump-before=getppid: `irshape check` as the console
# script runs it, with a dump before and after each module's import, so that each module's own
# instructions (those of the modules it imports excluded) can be told apart; and around the
# check of the file (reading and walking it), so that the work after the imports is split into
# the check and the rest (click's parse of the command line, the settings, the report).
_MODULE_MARKS = f"""
import os, sys
import importlib._bootstrap as bootstrap
mark, events, find_and_load = os.getppid, [], bootstrap._find_and_load
def phase(function, label):
    def marked_call(*args, **kwargs):
        events.append(("+", label)); mark()
        try:
            return function(*args, **kwargs)
        finally:
            events.append(("-", label)); mark()
    return marked_call
def marked(name, import_):
    if name in sys.modules:
        return find_and_load(name, import_)
    events.append(("+", name)); mark()
    try:
        module = find_and_load(name, import_)
    finally:
        events.append(("-", name)); mark()
    if name == "irshape.files":  # before irshape.cli.inputs takes the name
        module.check_files = phase(module.check_files, {CHECK!r})
    return module
bootstrap._find_and_load = marked
import irshape.lifetime
def end(code):
    events.append(("=", "")); mark()
    print(repr(events), file=sys.stderr)
    os._exit(code)
irshape.lifetime.hard_exit = end
events.append(("+", {WORK!r})); mark()
from irshape.cli import run
run()
"""


def module_instructions(python: str, env: dict[str, str], cwd: str) -> list[tuple[str, float]] | None:
    """Each module's own instructions (millions) in ``irshape check FIXTURE``, the largest first,
    and the work done outside any import; None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with tempfile.TemporaryDirectory(prefix="irshape-callgrind-") as directory:
        out = os.path.join(directory, "callgrind.out")
        wrap = [valgrind, "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}"]
        proc = _callgrind([*wrap, python, "-c", _MODULE_MARKS, "check", str(FIXTURE)], env, cwd)
        events = ast.literal_eval(next(line for line in proc.stderr.splitlines() if line.startswith("[(")))
        own: Counter[str] = Counter()
        stack = ["(before the program)"]
        # Dump k holds the instructions from mark k-1 to mark k: they belong to the module on top
        # of the stack between the two.
        for index, (kind, name) in enumerate(events, start=1):
            with open(f"{out}.{index}") as dump:
                summary = next(line for line in dump if line.startswith(("summary:", "totals:")))
            own[stack[-1]] += int(summary.split()[1]) / 1e6
            if kind == "+":
                stack.append(name)
            elif kind == "-":
                stack.pop()
    return own.most_common()


# irshape's modules by area, for the totals of --instructions: where the start-up's instructions
# beyond click's and lxml's are (the first prefix that matches names the area).
AREAS = (
    (
        "the command line, configuration, selection, paths, reporters, file API",
        (
            "irshape.cli",
            "irshape.config",
            "irshape.selection",
            "irshape.paths",
            "irshape.report",
            "irshape.api",
            "irshape.files",
            "irshape.lifetime",
        ),
    ),
    (
        "the data (diagnostics, rules, dims, records, results)",
        ("irshape.diagnostics", "irshape.rules", "irshape.dims", "irshape.record", "irshape.results"),
    ),
    ("the reader (irshape.ir)", ("irshape.ir",)),
    ("the declarations (irshape.ops.declarations)", ("irshape.ops.declarations",)),
    ("the op interface, schema records, opsets, registry (irshape.ops)", ("irshape.ops",)),
    ("the checks (irshape.check)", ("irshape.check",)),
    ("the shape functions (irshape.shapes)", ("irshape.shapes",)),
    ("the package (irshape)", ("irshape",)),
    (
        "what irshape imports beyond click and lxml (click's locale, mmap, gc)",
        ("locale", "_locale", "mmap", "gc"),
    ),
)


def by_area(modules: list[tuple[str, float]]) -> list[tuple[str, int, float]]:
    """(area, modules, millions) of each area of AREAS, in its order."""
    totals = {area: [0, 0.0] for area, _ in AREAS}
    for name, millions in modules:
        for area, prefixes in AREAS:
            if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
                totals[area][0] += 1
                totals[area][1] += millions
                break
    return [(area, int(count), millions) for area, (count, millions) in totals.items()]


def by_package(imports: dict[str, float]) -> list[tuple[str, float]]:
    totals: Counter[str] = Counter()
    for name, ms in imports.items():
        totals[name.split(".")[0]] += ms
    return totals.most_common(8)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="best of N runs (default 30)")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter to time, with its irshape script beside it (default: this one). An "
        "editable install's site imports pathlib (and its finder), which a wheel's does not: time "
        "a venv with irshape installed from a wheel for the start-up users get.",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each command's instructions with valgrind's callgrind (a minute more), "
        "and each module's own in irshape check",
    )
    args = parser.parse_args(argv)

    python = args.python
    script = shutil.which("irshape", path=str(Path(python).parent)) or shutil.which("irshape")
    # The children run in an empty directory: run in the checkout, `python -c` and `python -m`
    # would import its irshape (the current directory comes first on their path), not the
    # installed one the console script imports.
    with bytecode_env() as env, tempfile.TemporaryDirectory(prefix="irshape-cwd-") as cwd:
        commands = {
            BARE: [python, "-c", "pass"],
            FLOOR: [python, "-c", "import click, lxml.etree"],
            CLICK_PROGRAM: [python, "-c", _CLICK_PROGRAM, "check", str(FIXTURE)],
            "python -c 'import irshape.cli'": [python, "-c", "import irshape.cli"],
            MODULE: [python, "-m", "irshape", "check", str(FIXTURE)],
        }
        if script:
            commands[SCRIPT] = [script, "check", str(FIXTURE)]
        print(f"{python}; FIXTURE = {FIXTURE.relative_to(REPO)}; best of {args.runs}")
        times = best_of(commands, args.runs, env, cwd)
        bare, floor = times[BARE], times[FLOOR]
        for label, seconds in times.items():
            ratios = f"{seconds / bare:6.2f}x {seconds / floor:6.2f}x click+lxml"
            print(f"{label:36} {seconds * 1000:8.1f} ms {ratios}")
        check = times.get(SCRIPT, times[MODULE])
        print(
            f"\nirshape check against the click+lxml floor: {check / floor:.3f}x "
            f"({(check - floor) * 1000:+.1f} ms; target {TARGET}x); beyond the click program with "
            f"its command line (irshape's own part): {(check - times[CLICK_PROGRAM]) * 1000:+.1f} ms"
        )
        if args.instructions:
            counted = instructions(commands, env, cwd)
            if counted is None:
                print("\n(no valgrind: no instruction counts)")
            else:
                print("\ninstructions (callgrind, PYTHONHASHSEED=0), millions:")
                for label, millions in counted.items():
                    print(f"  {label:36} {millions:8.1f}M {millions / counted[FLOOR]:6.3f}x click+lxml")
                modules = module_instructions(python, env, cwd) or []
                irshape = [(name, m) for name, m in modules if name.split(".")[0] == "irshape"]
                print(
                    f"each module's own instructions in irshape check, millions (irshape's {len(irshape)}: "
                    f"{sum(m for _, m in irshape):.1f}M; the marks add ~1M):"
                )
                work, check = dict(modules).get(WORK, 0.0), dict(modules).get(CHECK, 0.0)
                print(f"  {WORK + ', but the check':44} {work:7.2f}M")
                print(f"  {CHECK:44} {check:7.2f}M")
                for name, millions in irshape[:30]:
                    print(f"  {name:44} {millions:7.2f}M")
                print("by area (modules, their own instructions), millions:")
                for area, count, millions in by_area(modules):
                    print(f"  {area:76} {count:3} {millions:7.2f}M")
        print(
            "\nwork after imports (main() once; config, schemas, check, report): "
            f"{work_after_imports(python, max(args.runs // 3, 5), env, cwd):.1f} ms"
        )
        print("largest own import times, ms (-X importtime, best of 5; it adds its own overhead):")
        imports = dict(heaviest_imports(python, env, cwd, count=1000))
        for name, ms in sorted(imports.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {name:40} {ms:6.2f}")
        print("by top-level package:")
        for name, ms in by_package(imports):
            print(f"  {name:40} {ms:6.2f}")


if __name__ == "__main__":
    main()
