#!/usr/bin/env bash
# One entry point for people and CI. Sets everything up on a fresh Debian machine (idempotent), then:
#   ./dev.sh run [FOLDER]   open the window (the demo collection when no folder is given)
#   ./dev.sh test           the whole test suite (what .ci/run runs): the Spark tests as a second step, the
#                           window on 20,000 documents as a third
#   ./dev.sh test-spark     the Spark tests alone (Spark's local mode; Java is installed when missing)
#   ./dev.sh test-gui20k    the window's tests on a generated 20,000-document collection alone
#   ./dev.sh bench          the performance benchmark (bench/)
#   ./dev.sh stress         the long reliability runs (kill loops)
#   ./dev.sh simdesk ARGS   the simdesk command in the project's environment
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv
APT_PACKAGES=(
  python3-venv             # the project's virtual environment
  fonts-wqy-microhei       # Chinese glyphs in the window (and in screenshots)
  libegl1 libgl1 libglib2.0-0 libfontconfig1 libxkbcommon0 libdbus-1-3   # Qt's runtime needs
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0
  libxcb-randr0 libxcb-render-util0 libxcb-image0                         # Qt on a real X display
  xvfb                     # a virtual display for screenshots
  fortunes-zh manpages-zh  # the texts bench/corpus builds test collections from
  fortunes debian-reference-zh-cn debian-reference-zh-tw python3-doc  # the evaluation kit's texts (bench/quality)
)

system_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v java >/dev/null || missing+=(default-jre-headless)   # Spark (the cluster engine and its tests)
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

python_env() {
  local py
  py=$(command -v python3.11 || command -v python3)
  [ -x "$VENV/bin/python" ] || "$py" -m venv "$VENV"
  local stamp="$VENV/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
  if [ ! -e "$stamp" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$VENV/bin/python" -m pip install -q -e ".[test,bench,cluster]"
    rm -f "$VENV"/.installed-*
    touch "$stamp"
  fi
}

setup() { system_packages; python_env; }

# pytest in a temporary folder of its own, removed afterwards with rm (the reliability tests build trees
# deeper than Python's recursion limit, which pytest's own clean-up of old runs cannot remove)
run_pytest() {
  local base status=0
  base=$(mktemp -d "${TMPDIR:-/tmp}/simdesk-tests.XXXXXX")
  QT_QPA_PLATFORM=offscreen "$VENV/bin/python" -m pytest -p no:cacheprovider --basetemp="$base/t" "$@" || status=$?
  rm -rf "$base"
  return $status
}

cmd=${1:-run}
shift || true
case "$cmd" in
  run)     setup; exec "$VENV/bin/simdesk" gui "$@" ;;
  test)    setup
           if [ $# -eq 0 ]; then  # CI: the Spark tests in a step of their own (Spark's start-up paid once), the
             # window on 20,000 documents in another (its collection built and scanned once, ~1-3 min)
             run_pytest -m "not stress and not spark and not gui20k" && run_pytest -m spark && run_pytest -m gui20k
           else
             run_pytest -m "not stress" "$@"
           fi ;;
  test-spark) setup; run_pytest -m spark "$@" ;;
  test-gui20k) setup; run_pytest -m gui20k "$@" ;;
  bench)   setup; exec "$VENV/bin/python" -m bench "$@" ;;
  stress)  setup; run_pytest -m stress "$@" ;;
  simdesk) setup; exec "$VENV/bin/simdesk" "$@" ;;
  setup)   setup ;;
  *) echo "usage: ./dev.sh run [FOLDER] | test | test-spark | test-gui20k | bench | stress | simdesk ARGS" >&2; exit 2 ;;
esac
