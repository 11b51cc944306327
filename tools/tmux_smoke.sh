#!/usr/bin/env bash
# See the real replayer in tmux: start it on a session, press keys, print the screens.
#
#   scripts/tmux_smoke.sh [SESSION_PATH] [PYTHON]
#
# Defaults to the bundled demo session. Prints the pane after each step (160x48,
# then 80x24) and fails if the app crashed or the status line never appeared.
# Attach to watch it live while it runs:  tmux attach -t pivotal-smoke
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
session_path="${1:-$here/src/pivotal/_demo/demo.jsonl}"
default_python=python3
[ -x "$here/.venv/bin/python" ] && default_python="$here/.venv/bin/python"
python="${2:-${PYTHON:-$default_python}}"
name="pivotal-smoke"

tmux kill-session -t "$name" 2>/dev/null || true
tmux new-session -d -s "$name" -x 160 -y 48 \
    "$python -m pivotal '$session_path'; echo EXITED \$?; sleep 30"
# (Textual draws on stderr, so it is not redirected: a crash shows up in the pane)
trap 'tmux kill-session -t "$name" 2>/dev/null || true' EXIT

show() {  # show LABEL: wait a moment, print the pane under a heading
    sleep "${2:-0.6}"
    printf '\n===== %s =====\n' "$1"
    tmux capture-pane -pt "$name"
}

show "start (160x48)" 2.5
if ! tmux capture-pane -pt "$name" | grep -q "turn [0-9]*/[0-9]*"; then
    echo "FAIL: no status line"; exit 1
fi
tmux send-keys -t "$name" ']';       show "] next pivot: panel docked right"
tmux send-keys -t "$name" 'l' 'l';   show "l l: two more turns"
tmux send-keys -t "$name" Enter;     show "Enter: tool calls of the current turn expanded"
tmux send-keys -t "$name" 'G';       show "G: last turn"
tmux send-keys -t "$name" '\';       show "\\ filter: human turns only"
tmux send-keys -t "$name" '\' '\' '\'
tmux send-keys -t "$name" '?';       show "? help"
tmux send-keys -t "$name" Escape; sleep 0.5  # a key right after ESC would read as Alt+key
tmux resize-window -t "$name" -x 80 -y 24
tmux send-keys -t "$name" 'g' ']';   show "80x24 at the first pivot (panel hidden)"
tmux send-keys -t "$name" 'p';       show "80x24, p: panel floats over the transcript"
tmux send-keys -t "$name" Escape; sleep 0.5
tmux send-keys -t "$name" 'q'; show "q: quit" 1

if tmux capture-pane -pt "$name" | grep -q "Traceback\|Error"; then
    echo "FAIL: the app crashed"; exit 1
fi
if ! tmux capture-pane -pt "$name" | grep -q "EXITED 0"; then
    echo "FAIL: the app did not quit cleanly"; exit 1
fi
echo "OK"
