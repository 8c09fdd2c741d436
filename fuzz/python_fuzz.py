#!/usr/bin/env python3
"""atheris harness for the Python package: the checks of python/tests/fuzz_checks.py
(the ones the Hypothesis tests run, bounded, in pytest) driven by libFuzzer.

    .venv/bin/python fuzz/python_fuzz.py -max_total_time=600 CORPUS_DIR

fuzz/run.sh python SECONDS runs it (after seeding fuzz/corpus/python/). The first byte
picks the check; the rest is decoded into its arguments by atheris'
FuzzedDataProvider. The package must be installed in the interpreter that runs this.
"""

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python" / "tests"))

with atheris.instrument_imports():
    import fuzz_checks as checks

OPS = ["append", "delete", "delete_value", "set", "sort"]


def text(fdp, most=64):
    # With surrogates: a Python str can hold them, and the API must take them.
    return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, most))


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 5)
    if which == 0:
        checks.check_url(fdp.ConsumeUnicode(fdp.remaining_bytes()))
    elif which == 1:
        base = text(fdp)
        checks.check_url(fdp.ConsumeUnicode(fdp.remaining_bytes()), base)
    elif which == 2:
        start = text(fdp, 128)
        ops = []
        while fdp.remaining_bytes() and len(ops) < 8:
            ops.append((fdp.PickValueInList(checks.SETTERS), text(fdp, 32)))
        checks.check_setters(start, ops)
    elif which == 3:
        query = text(fdp, 128)
        ops = []
        while fdp.remaining_bytes() and len(ops) < 8:
            ops.append((fdp.PickValueInList(OPS), text(fdp, 8), text(fdp, 8)))
        checks.check_search_params(query, ops)
    elif which == 4:
        count = fdp.ConsumeIntInRange(0, 8)
        values = [None if fdp.ConsumeProbability() < 0.1 else text(fdp) for _ in range(count)]
        bases = None
        if fdp.ConsumeBool():
            bases = [None if fdp.ConsumeProbability() < 0.3 else text(fdp) for _ in range(count)]
        checks.check_column(values, bases)
    else:
        count = fdp.ConsumeIntInRange(0, 8)
        values = [
            None if fdp.ConsumeProbability() < 0.1 else fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64))
            for _ in range(count)
        ]
        checks.check_raw_arrow(values)


def main():
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
