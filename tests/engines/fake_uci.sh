#!/bin/sh
# A fake UCI engine for the engine fault tests (issue 26), sourced by the
# crash/hang/garbage/illegal scripts beside it. It fails once in its own way
# (FAULT: crash, hang, garbage, illegal), remembered in $FAKE_ENGINE_STATE,
# then answers like a well-behaved engine: with the next of $FAKE_ENGINE_MOVES
# (one per own move: the n-th reply of the game is the n-th word).
state="${FAKE_ENGINE_STATE:-/tmp}/fake-engine-$FAULT.done"
moves=0
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name Fake $FAULT"; echo "option name UCI_LimitStrength type check default false"
         echo "option name UCI_Elo type spin default 1500 min 1000 max 3000"; echo uciok ;;
    isready) echo readyok ;;
    "position "*) set -- $line; moves=0; seen=0
       for w in "$@"; do [ "$seen" = 1 ] && moves=$((moves + 1)); [ "$w" = moves ] && seen=1; done ;;
    go*)
      if [ ! -e "$state" ]; then
        touch "$state"
        case "$FAULT" in
          crash) exit 3 ;;
          hang) while :; do sleep 1; done ;;
          garbage) printf 'info \001\002 zzz\nbestmove x9y0\n' ;;
          illegal) echo "info depth 1 score cp 10"; echo "bestmove e1e8" ;;
        esac
        continue
      fi
      n=$((moves / 2 + 1)); set -- $FAKE_ENGINE_MOVES; eval "reply=\${$n:-0000}"
      echo "info depth 1 score cp 0"; echo "bestmove $reply" ;;
    quit) exit 0 ;;
  esac
done
