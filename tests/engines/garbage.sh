#!/bin/sh
# A UCI engine that answers garbage once, then plays $FAKE_ENGINE_MOVES (see fake_uci.sh).
FAULT=garbage
. "$(dirname "$0")/fake_uci.sh"
