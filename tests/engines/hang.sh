#!/bin/sh
# A UCI engine that hangs on its first search once, then plays $FAKE_ENGINE_MOVES (see fake_uci.sh).
FAULT=hang
. "$(dirname "$0")/fake_uci.sh"
