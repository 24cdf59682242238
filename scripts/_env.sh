# Shared by scripts/serve and scripts/test: find Python 3.12 and uv on a fresh machine.
# uv runs as "python3 -m uv" so that no pyenv shim has to exist for it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! python3 -m uv --version >/dev/null 2>&1; then
  echo "Installing uv..."
  # A Debian system Python refuses pip installs (PEP 668): then install uv for this user only.
  python3 -m pip install --quiet --disable-pip-version-check uv 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages uv
fi
uv() { python3 -m uv "$@"; }

# Django 6 needs Python 3.12; uv may not download one here, so point it at an installed one.
if [ -z "${UV_PYTHON:-}" ]; then
  for candidate in "$(command -v python3.12 2>/dev/null || true)" \
                   "$HOME"/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.12; do
    # Resolve pyenv's shim to the real interpreter, so that uv keeps the same .venv.
    if [ -x "$candidate" ] && real=$("$candidate" -c 'import sys; assert sys.version_info >= (3, 12); print(sys.executable)' 2>/dev/null); then
      export UV_PYTHON="$real"
      break
    fi
  done
fi
export UV_PYTHON_DOWNLOADS=never
