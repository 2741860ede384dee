"""Differential fuzzing of irshape against OpenVINO's read_model, by hand, at any budget.

    python tools/fuzz_openvino.py --count 50000            # seeds 0..49999, two processes
    python tools/fuzz_openvino.py --start 100000 --count 5000 --workers 2 --json out.json

Each seed is an IR written by ov.save_model with one to three edits drawn from the grammars of
tests/fuzz_openvino/ (the test suite runs a fixed budget of the same generator). It prints the
figures, the disagreements by class (those of tests/fuzz_openvino/known_disagreements.py
apart), and one example seed of each; --json writes every disagreement. Exit 1 when a
disagreement is not a known one, or on an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz_openvino.edits import edited
from tests.fuzz_openvino.known_disagreements import known_class
from tests.fuzz_openvino.oracle import run_many


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=50000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--save",
        metavar="SEED:NAME",
        action="append",
        default=[],
        help="write the file of SEED as fixtures/fuzz/NAME.xml (+ .bin) and stop",
    )
    args = parser.parse_args()
    if args.save:
        for item in args.save:
            seed, name = item.split(":", 1)
            d = edited(int(seed))
            folder = Path(__file__).resolve().parents[1] / "fixtures" / "fuzz"
            folder.mkdir(exist_ok=True)
            (folder / f"{name}.xml").write_bytes(d.xml.encode("utf-8"))
            (folder / f"{name}.bin").write_bytes(d.bin)
            print(f"{name}: seed {seed}, {d.base}, {d.edits}")
        return 0
    began = time.monotonic()
    classes: Counter[str] = Counter()
    known: Counter[str] = Counter()
    examples: dict[str, list[int]] = defaultdict(list)
    found = []
    ov_rejected = 0
    internal = 0
    done = 0
    for v in run_many(range(args.start, args.start + args.count), workers=args.workers):
        done += 1
        ov_rejected += v.ov_error is not None
        internal += v.disagreement == "internal-error"
        if v.disagreement is not None:
            name = known_class(v)
            if name is not None:
                known[name] += 1
            else:
                classes[v.disagreement] += 1
                examples[v.disagreement].append(v.seed)
            found.append(
                {
                    "seed": v.seed,
                    "class": v.disagreement,
                    "known": name,
                    "base": v.base,
                    "edits": v.edits,
                    "openvino": v.ov_error,
                    "detail": v.detail,
                }
            )
        if done % 1000 == 0:
            print(
                f"... {done} files, {sum(classes.values())} unknown disagreements, "
                f"{time.monotonic() - began:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"files edited: {done} (seeds {args.start}..{args.start + args.count - 1}); "
        f"OpenVINO rejected {ov_rejected}, read {done - ov_rejected}; {time.monotonic() - began:.0f} s"
    )
    print(f"internal errors (IRS901): {internal}")
    print(f"known disagreements (known_disagreements.py): {sum(known.values())}")
    for name, n in known.most_common():
        print(f"  {n:6d}  {name}")
    print(f"other disagreements: {sum(classes.values())}")
    for name, n in classes.most_common():
        print(f"  {n:6d}  {name}   e.g. seeds {examples[name][:5]}")
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1, ensure_ascii=False))
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())
