#!/bin/sh
# A UCI engine that crashes on its first search once, then plays $FAKE_ENGINE_MOVES (see fake_uci.sh).
FAULT=crash
. "$(dirname "$0")/fake_uci.sh"
