#!/usr/bin/env bash
# One entry point for people and CI. Sets up a fresh Debian machine (idempotent), then:
#   ./dev.sh run [FOLDER]   open the window (the demo collection when no folder is given); installs only what
#                           the window needs
#   ./dev.sh test           the whole test suite (what .ci/run runs), in steps: the fast tier (lint when
#                           LINT_GATE says so, the engine's tests, the contracts, the command line), the rest of
#                           the main suite, the Spark tests, the window on 20,000 documents
#   ./dev.sh test ARGS      pytest ARGS (not the stress runs), e.g. ./dev.sh test tests/core/test_diff.py
#   ./dev.sh test-fast      the fast tier alone
#   ./dev.sh test-spark     the Spark tests alone (Spark's local mode; Java is installed when missing)
#   ./dev.sh test-gui20k    the window's tests on a generated 20,000-document collection alone
#   ./dev.sh lint           ruff check, ruff format --check and mypy
#   ./dev.sh bench          the performance benchmark (bench/)
#   ./dev.sh stress         the long reliability runs (kill loops)
#   ./dev.sh simdesk ARGS   the simdesk command in the project's environment
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
# what the fast tier (and so ./dev.sh test) checks before its tests, stopping at the first finding:
# off; ruff (ruff check and ruff format --check); all (ruff, then mypy: its cache in .mypy_cache, ignored by git,
# makes a run on a tree changed in a few files take about a second). The environment's LINT_GATE overrides it,
# e.g. LINT_GATE=ruff ./dev.sh test-fast
LINT_GATE=${LINT_GATE:-all}
LINT_PATHS=(simdesk tests bench tools)
FAST_TESTS=(tests/core tests/test_architecture.py tests/test_cli.py tests/test_docs.py)

WINDOW_APT=(
  python3-venv             # the project's virtual environment
  fonts-wqy-microhei       # Chinese glyphs in the window (and in screenshots)
  libegl1 libgl1 libglib2.0-0 libfontconfig1 libxkbcommon0 libdbus-1-3   # Qt's runtime needs
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0
  libxcb-randr0 libxcb-render-util0 libxcb-image0                         # Qt on a real X display
)
TEST_APT=(
  xvfb                     # a virtual display for screenshots
  fortunes-zh manpages-zh  # the texts bench/corpus builds test collections from
  fortunes debian-reference-zh-cn debian-reference-zh-tw python3-doc  # the evaluation kit's texts (bench/quality)
)
WINDOW_EXTRAS="gui"
ALL_EXTRAS="gui,test,bench,cluster"

system_packages() {  # system_packages with_java PACKAGE...
  local java=$1 missing=()
  shift
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "$java" = yes ]; then
    command -v java >/dev/null || missing+=(default-jre-headless)   # Spark (the cluster engine and its tests)
  fi
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if ! command -v apt-get >/dev/null; then
    echo "dev.sh: please install the equivalent of: ${missing[*]}" >&2; return 0
  fi
  echo "dev.sh: installing system packages: ${missing[*]}" >&2
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

stamp() {  # the file that says the environment holds EXTRAS for this pyproject.toml and constraints.txt, and the
  # compiled kernels built from this setup.py and kernels.pyx (an editable install builds them once)
  echo "$VENV/.installed-$(cat pyproject.toml constraints.txt setup.py simdesk/core/kernels.pyx | sha1sum | cut -c1-12)-${1//,/-}"
}

python_env() {  # python_env EXTRAS: the project installed (editable) with EXTRAS, at the recorded versions
  local extras=$1 py
  [ -e "$(stamp "$extras")" ] && return 0
  [ "$extras" = "$WINDOW_EXTRAS" ] && [ -e "$(stamp "$ALL_EXTRAS")" ] && return 0
  py=$(command -v python3.11 || command -v python3)
  [ -x "$VENV/bin/python" ] || "$py" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -c constraints.txt -e ".[$extras]"
  find "$VENV" -maxdepth 1 -name '.installed-*' ! -name "$(basename "$(stamp "")")*" -delete
  touch "$(stamp "$extras")"
}

setup_window() { system_packages no "${WINDOW_APT[@]}"; python_env "$WINDOW_EXTRAS"; }
setup() { system_packages yes "${WINDOW_APT[@]}" "${TEST_APT[@]}"; python_env "$ALL_EXTRAS"; }

lint() {  # lint [ruff|all]; explicit statuses: set -e does not apply inside a function called from an && list
  "$VENV/bin/ruff" check "${LINT_PATHS[@]}" || return 1
  "$VENV/bin/ruff" format --check "${LINT_PATHS[@]}" || return 1
  if [ "${1:-all}" = all ]; then "$VENV/bin/mypy" || return 1; fi
}

# pytest in a temporary folder of its own, removed afterwards with rm (the reliability tests build trees
# deeper than Python's recursion limit, which pytest's own clean-up of old runs cannot remove)
run_pytest() {
  local base status=0
  base=$(mktemp -d "${TMPDIR:-/tmp}/simdesk-tests.XXXXXX")
  QT_QPA_PLATFORM=offscreen "$VENV/bin/python" -m pytest -p no:cacheprovider --basetemp="$base/t" "$@" || status=$?
  rm -rf "$base"
  return $status
}

MAIN="not stress and not spark and not gui20k"
fast_tier() {
  if [ "$LINT_GATE" != off ]; then lint "$LINT_GATE" || return 1; fi
  run_pytest -m "$MAIN" "${FAST_TESTS[@]}"
}

cmd=${1:-run}
shift || true
case "$cmd" in
  run)     setup_window; exec "$VENV/bin/simdesk" gui "$@" ;;
  test)    setup
           if [ $# -eq 0 ]; then  # CI: the fast tier first; the Spark tests in a step of their own (Spark's
             # start-up paid once), the window on 20,000 documents in another (its collection built once)
             ignores=()
             for t in "${FAST_TESTS[@]}"; do ignores+=("--ignore=$t"); done
             fast_tier && run_pytest -m "$MAIN" "${ignores[@]}" && run_pytest -m spark && run_pytest -m gui20k
           else
             run_pytest -m "not stress" "$@"
           fi ;;
  test-fast) setup; fast_tier ;;
  test-spark) setup; run_pytest -m spark "$@" ;;
  test-gui20k) setup; run_pytest -m gui20k "$@" ;;
  lint)    setup; lint ;;
  bench)   setup; exec "$VENV/bin/python" -m bench "$@" ;;
  stress)  setup; run_pytest -m stress "$@" ;;
  simdesk) setup; exec "$VENV/bin/simdesk" "$@" ;;
  setup)   setup ;;
  *) echo "usage: ./dev.sh run [FOLDER] | test [ARGS] | test-fast | test-spark | test-gui20k | lint | bench | stress | simdesk ARGS" >&2; exit 2 ;;
esac
