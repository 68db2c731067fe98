# Sourced at the start of every device call: carried bubblewrap and wheels, no installs.
set -u
export PATH="$PWD/.bwrap/bin:$PATH" PYTHONUNBUFFERED=1
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl >/dev/null 2>&1 && export PYTHONPATH="/tmp/site:$PWD"
fi
export PYTHONPATH="${PYTHONPATH:-$PWD}"
