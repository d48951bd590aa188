#!/bin/sh
# A UCI engine that answers an illegal move once, then plays $FAKE_ENGINE_MOVES (see fake_uci.sh).
FAULT=illegal
. "$(dirname "$0")/fake_uci.sh"
