// The mirror display for the sighted opponent: read-only; everything from the
// station's state (and its live events). No controls.
'use strict';

(() => {
  const TEXT = {
    en: {
      white: 'White', black: 'Black', to_move: '▶ to move', last_move: 'Last move', none: '—',
      waiting_exec: 'Move announced — waiting for it to be made on the board',
      discrepancy: 'The boards disagree — wait for the arbiter',
      mismatch: 'Your board does not match the game', waiting: 'Waiting for the start position',
      finished: 'Game over', paused: 'Clock stopped', flag: 'Flag fallen', offline: 'No connection to the station',
      connected: 'live', board: 'Board, seen from your side', adjourned: 'Game adjourned',
      fix_title: 'The boards disagree — to put your board right:', draw_offer: 'Draw offer by', step_move: 'move', step_remove: 'remove', step_place: 'place',
      title: 'Mirror display of the Annex D station', yours: 'your clock',
      white_wins: 'White wins', black_wins: 'Black wins', draw: 'Draw',
    },
    de: {
      white: 'Weiß', black: 'Schwarz', to_move: '▶ am Zug', last_move: 'Letzter Zug', none: '—',
      waiting_exec: 'Zug angesagt — wartet auf Ausführung am Brett',
      discrepancy: 'Die Bretter stimmen nicht überein — bitte auf den Schiedsrichter warten',
      mismatch: 'Ihr Brett stimmt nicht mit der Partie überein', waiting: 'Warten auf die Grundstellung',
      finished: 'Partie beendet', paused: 'Uhr angehalten', flag: 'Zeit überschritten',
      offline: 'Keine Verbindung zur Station', connected: 'live', board: 'Brett aus Ihrer Sicht',
      adjourned: 'Partie abgebrochen (Hängepartie)',
      fix_title: 'Die Bretter stimmen nicht überein — so stellen Sie Ihr Brett richtig:', draw_offer: 'Remisangebot von', step_move: 'ziehen', step_remove: 'entfernen', step_place: 'setzen',
      title: 'Spiegelanzeige der Annex-D-Station', yours: 'Ihre Uhr',
      white_wins: 'Weiß gewinnt', black_wins: 'Schwarz gewinnt', draw: 'Remis',
    },
    pl: {
      white: 'Białe', black: 'Czarne', to_move: '▶ na posunięciu', last_move: 'Ostatnie posunięcie', none: '—',
      waiting_exec: 'Posunięcie zapowiedziane — czeka na wykonanie na szachownicy',
      discrepancy: 'Szachownice się różnią — proszę czekać na sędziego',
      mismatch: 'Twoja szachownica nie zgadza się z partią', waiting: 'Oczekiwanie na pozycję początkową',
      finished: 'Koniec partii', paused: 'Zegar zatrzymany', flag: 'Przekroczenie czasu',
      offline: 'Brak połączenia ze stacją', connected: 'na żywo', board: 'Szachownica z Twojej strony',
      adjourned: 'Partia odłożona',
      fix_title: 'Szachownice się różnią — jak poprawić szachownicę:', draw_offer: 'Propozycja remisu:', step_move: 'przestaw', step_remove: 'zdejmij', step_place: 'postaw',
      title: 'Ekran lustrzany stacji Annex D', yours: 'Twój zegar',
      white_wins: 'Wygrały białe', black_wins: 'Wygrały czarne', draw: 'Remis',
    },
  };

  const view = { state: null, receivedAt: Date.now(), online: false };
  const $ = (id) => document.getElementById(id);

  // `?lang=LANG` (any built-in phrasebook's code) shows the mirror in another language than the configured one.
  const { lang, t } = Station.pageWords(TEXT, () => view.state && view.state.mirror_language);

  function renderClocks() {
    const clock = view.state && view.state.clock;
    const now = Station.clockNow(clock, view.receivedAt);
    const onMove = (clock && clock.on_move) || (view.state && view.state.turn) || null;
    // The sighted player's own clock is the one of the side the blind player has not.
    const own = view.state && view.state.blind_color === 'black' ? 'white' : 'black';
    for (const side of ['white', 'black']) {
      const name = $(`name-${side}`);
      const label = side === own ? `${t(side)} · ${t('yours')}` : t(side);
      if (name.textContent !== label) {
        name.replaceChildren(t(side));
        if (side === own) {
          const mine = document.createElement('span');
          mine.className = 'own';
          mine.textContent = ` · ${t('yours')}`;
          name.append(mine);
        }
      }
      $(`clock-${side}`).classList.toggle('own', side === own);
      const player = Station.playerName(view.state, side);
      if ($(`player-${side}`).textContent !== player) $(`player-${side}`).textContent = player;
      const ms = now[side];
      $(`time-${side}`).textContent = Station.formatClock(ms);
      const box = $(`clock-${side}`);
      const playing = view.state && view.state.phase === 'playing';
      box.classList.toggle('on-move', Boolean(playing && onMove === side));
      box.classList.toggle('low', typeof ms === 'number' && ms < 60000);
      $(`onmove-${side}`).textContent = playing && onMove === side ? t('to_move') : '';
    }
  }

  function render() {
    document.documentElement.lang = lang();
    $('title').textContent = t('title');
    const s = view.state || {};
    const blindIsWhite = s.blind_color !== 'black';
    const mirrorBoard = Array.isArray(s.boards) ? s.boards.find((b) => b && b.role === 'mirror') : null;
    const last = s.last_move && typeof s.last_move === 'object' ? s.last_move : null;
    if (s.rules === 'draughts' || s.rules === 'draughts64') {
      Station.drawDraughts($('board'), s.fen, s.rules === 'draughts' ? 10 : 8, blindIsWhite, t('board'));
    } else Station.drawBoard($('board'), {
      fen: s.fen,
      flipped: blindIsWhite, // the sighted player has Black: his side at the bottom
      diff: mirrorBoard && Array.isArray(mirrorBoard.diff) ? mirrorBoard.diff : [],
      lastMove: last ? last.uci : null,
      label: t('board'),
      text: 'hidden',
      lang: lang(),
    });
    $('last-label').textContent = t('last_move');
    if (last) {
      const text = last.text && typeof last.text === 'object' ? (last.text[lang()] || last.text.en || '') : '';
      // Written with the page language's piece letters (Sf3 in Polish and German).
      const san = Station.sanIn(last, lang());
      $('last-text').textContent = `${Station.moveNumber(last.ply)} ${text || san}`;
      $('last-san').textContent = text ? san : '';
    } else {
      $('last-text').textContent = t('none');
      $('last-san').textContent = '';
    }
    // One instruction at a time: during a discrepancy either the steps that put
    // his own board right, or "wait for the arbiter" while another board is
    // put right — never both, and nothing else beside it.
    const warnings = [];
    const ownSteps = fixSteps(s);
    const disagree = Array.isArray(s.discrepancies) && s.discrepancies.length > 0;
    if (!view.online) warnings.push(['alert', t('offline')]);
    else if (disagree && !ownSteps.length) warnings.push(['alert', t('discrepancy')]);
    else if (!disagree && mirrorBoard && mirrorBoard.agreement === 'mismatch') warnings.push(['alert', t('mismatch')]);
    if (view.online && !disagree) {
      if (s.waiting_for_execution) warnings.push(['warning', t('waiting_exec')]);
      const offer = drawOffer(s);
      if (offer) warnings.push(['warning', `${t('draw_offer')} ${t(offer)}`]);
      if (s.clock && s.clock.flag) warnings.push(['alert', `${t('flag')}: ${t(s.clock.flag)}`]);
      if (s.phase === 'waiting') warnings.push(['warning', t('waiting')]);
      if (s.phase === 'adjourned' || s.adjourned === true) warnings.push(['warning', t('adjourned')]);
      if (s.phase === 'finished' || resultOf(s)) warnings.push(['warning', finishedText(s)]);
      if (s.phase === 'playing' && s.clock && s.clock.running === false && s.clock.moves > 0 && !s.clock.flag) {
        warnings.push(['warning', t('paused')]);
      }
    }
    renderFix(view.online ? ownSteps : []);
    // During a discrepancy the instruction comes first: the rest is drawn smaller.
    document.body.classList.toggle('fixing', view.online && disagree);
    const box = $('warnings');
    const nodes = warnings.map(([kind, text]) => {
      const div = document.createElement('div');
      div.className = `warning ${kind}`;
      div.textContent = text;
      return div;
    });
    // Only touch the live region when the words change.
    if (box.textContent !== warnings.map((w) => w[1]).join('')) box.replaceChildren(...nodes);
    $('phase').textContent = s.game_id ? String(s.game_id) : '';
    const conn = $('conn');
    conn.textContent = view.online ? t('connected') : t('offline');
    conn.className = `conn ${view.online ? 'up' : 'down'}`;
    renderChange(s);
    renderClocks();
  }

  // A draw offer recorded by the operator stands until the next move (which
  // declines it); the sighted player may not hear it made (D.2.11).
  function drawOffer(s) {
    const log = Array.isArray(s.log) ? s.log : [];
    for (let i = log.length - 1; i >= 0; i--) {
      const ev = log[i];
      if (!ev || typeof ev !== 'object') continue;
      if (ev.type === 'game_move' || ev.type === 'game_started' || ev.type === 'game_over') return null;
      if (ev.type === 'draw_offered' && (ev.side === 'white' || ev.side === 'black')) return ev.side;
      if (ev.type === 'announcement' && ev.about === 'draw_offer') {
        const m = /by (white|black)/.exec(String(ev.text));
        return m ? m[1] : null;
      }
    }
    return null;
  }

  // The steps that put the sighted player's own board right, in his language,
  // with piece symbols and squares (readable from a distance).
  const SYMBOLS = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
  // One step as a list item: the piece drawn on a light square, as on the board
  // (an outlined glyph is a white piece, a filled one a black piece).
  function stepLine(st) {
    const li = document.createElement('li');
    const piece = document.createElement('span');
    piece.className = 'piece';
    piece.textContent = SYMBOLS[st.piece] || String(st.piece || '');
    const verb = { move: t('step_move'), remove: t('step_remove'), place: t('step_place') }[st.action] || String(st.action);
    const where = st.action === 'move' ? `${st.from} → ${st.to}` : st.action === 'remove' ? String(st.from) : String(st.to);
    li.append(`${verb} `, piece, ` ${where}`);
    return li;
  }
  // The result of a finished game, in the page's language, with how it ended.
  function resultOf(s) {
    const r = s && s.result;
    const result = r && typeof r === 'object' ? r.result : r;
    return typeof result === 'string' && result !== '*' ? result : null;
  }
  function finishedText(s) {
    const result = resultOf(s);
    if (!result) return t('finished');
    const words = { '1-0': t('white_wins'), '0-1': t('black_wins'), '1/2-1/2': t('draw'), '1-1': t('draw') }[result];
    // How it ended is the change line above, in this page's language; the
    // arbiter's own words (in his language) stay on the console.
    return `${t('finished')}: ${result}${words ? ` (${words})` : ''}`;
  }

  function fixSteps(s) {
    const steps = [];
    for (const d of Array.isArray(s.discrepancies) ? s.discrepancies : []) {
      for (const fix of d && Array.isArray(d.fix) ? d.fix : []) {
        if (fix && fix.board === 'mirror' && Array.isArray(fix.steps)) steps.push(...fix.steps);
      }
    }
    return steps.filter((st) => st && typeof st === 'object');
  }
  function renderFix(valid) {
    const key = JSON.stringify(valid) + lang();
    if ($('fix').dataset.key === key) return;
    $('fix').dataset.key = key;
    $('fix').hidden = valid.length === 0;
    $('fix-title').textContent = valid.length ? t('fix_title') : '';
    $('fix-steps').replaceChildren(...valid.map(stepLine));
  }

  // The latest change to the record (a take-back, a draw claim, time added,
  // a revised move, the result …): one line in the page's language from the
  // state's `change`, replaced by the next.
  function renderChange(s) {
    let box = $('change');
    if (!box) {
      box = document.createElement('div');
      box.id = 'change';
      box.className = 'warnings';
      box.setAttribute('role', 'status');
      $('warnings').before(box);
    }
    const c = s.change && typeof s.change === 'object' ? s.change : null;
    const words = c && c.text && typeof c.text === 'object' ? c.text : {};
    const text = String(words[lang()] || words.en || '');
    if (box.textContent === text) return;
    const line = document.createElement('div');
    line.className = 'warning';
    line.textContent = text;
    box.replaceChildren(...(text ? [line] : []));
  }

  Station.follow(view, render, renderClocks, 200);
})();
