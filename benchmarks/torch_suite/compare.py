"""Compare the two runs of torch's DataLoader tests: torch's own class (stock) and LoaderLab's (twin).

    python benchmarks/torch_suite/compare.py OUT_DIR

reads ``OUT_DIR/{stock,twin}.results.jsonl`` (from ``suite_plugin``) and ``OUT_DIR/{stock,twin}.log`` (from
``sitecustomize``) and prints: how many tests build a DataLoader (seen in the stock run's construction log)
and pass on torch, how many of those pass on the twin, and every test whose outcome differs.
Exit status 1 when any test passes on torch and not on the twin.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def outcomes(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        found[row["test"]] = row
    return found


def builders(path: Path) -> set[str]:
    """Test ids that constructed at least one DataLoader (in any of their processes)."""
    names = set()
    for line in path.read_text().splitlines():
        _, test = line.split("\t", 1)
        names.add(test)
    return names


def main(out_dir: str) -> int:
    out = Path(out_dir)
    stock, twin = outcomes(out / "stock.results.jsonl"), outcomes(out / "twin.results.jsonl")
    built = builders(out / "stock.log")
    passed_stock = {t for t, r in stock.items() if r["outcome"] == "passed"}
    considered = sorted(passed_stock & built)
    passed_twin = [t for t in considered if twin.get(t, {}).get("outcome") == "passed"]
    print(f"tests run: {len(stock)} (stock), {len(twin)} (twin)")
    all_passed = sorted(passed_stock)
    print(f"pass on torch: {len(all_passed)}; of those, pass on loaderlab: "
          f"{sum(twin.get(t, {}).get('outcome') == 'passed' for t in all_passed)}")
    print(f"build a DataLoader and pass on torch: {len(considered)}")
    print(f"of those, pass on loaderlab: {len(passed_twin)}")
    missing = [t for t in considered if t not in passed_twin]
    for t in missing:
        row = twin.get(t, {"outcome": "not run", "message": ""})
        print(f"  DIFFERENT {t}: {row['outcome']} {row.get('message', '')[:300]}")
    others = sorted(t for t in set(stock) | set(twin)
                    if t not in considered and stock.get(t, {}).get("outcome") != twin.get(t, {}).get("outcome"))
    for t in others:
        print(f"  DIFFERENT (builds no DataLoader) {t}: stock={stock.get(t, {}).get('outcome')} "
              f"twin={twin.get(t, {}).get('outcome')} {twin.get(t, {}).get('message', '')[:200]}")
    regressions = [t for t in all_passed if twin.get(t, {}).get("outcome") != "passed"]
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/torch_suite/out"))
