#!/usr/bin/env bash
# Run torch's own test/test_dataloader.py twice, with torch's DataLoader (stock) and with LoaderLab's
# swapped in everywhere (twin), and compare the pass sets. See README.md in this directory.
#
#   benchmarks/torch_suite/run.sh /path/to/test_dataloader.py [OUT_DIR] [extra pytest args, e.g. -k typing]
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TEST_FILE="$(realpath "$1")"; shift
OUT="${1:-/tmp/torch_suite/out}"; shift || true
PY="${PYTHON:-$REPO/.venv/bin/python}"
mkdir -p "$OUT"
for mode in ${MODES:-stock twin}; do
  rm -f "$OUT/$mode.log" "$OUT/$mode.results.jsonl"
  ( cd "$(dirname "$TEST_FILE")" && \
    PYTHONPATH="$HERE:$REPO${SUITE_PYTHONPATH:+:$SUITE_PYTHONPATH}" LOADERLAB_SUITE_MODE="$mode" LOADERLAB_SUITE_LOG="$OUT/$mode.log" \
    LOADERLAB_SUITE_RESULTS="$OUT/$mode.results.jsonl" \
    "$PY" -m pytest "$(basename "$TEST_FILE")" -p suite_plugin -p no:cacheprovider -q -rfE \
      --rootdir "$(dirname "$TEST_FILE")" -c /dev/null "$@" ) > "$OUT/$mode.pytest.txt" 2>&1
  echo "$mode: $(tail -1 "$OUT/$mode.pytest.txt")"
done
touch "$OUT/stock.log" "$OUT/twin.log" "$OUT/stock.results.jsonl" "$OUT/twin.results.jsonl"
"$PY" "$HERE/compare.py" "$OUT"
