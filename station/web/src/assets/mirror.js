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
    // The nine more languages: the chess words (pieces, results, draw offer)
    // are those of voices/phrasebooks/<code>.toml, so page and voice agree; the
    // player is addressed as his phrasebook addresses him (usted, vous, Lei, u, …).
    es: {
      white: 'Blancas', black: 'Negras', to_move: '▶ turno', last_move: 'Última jugada', none: '—',
      waiting_exec: 'Jugada anunciada — esperando que se haga en el tablero',
      discrepancy: 'Los tableros no coinciden — espere al árbitro',
      mismatch: 'Su tablero no coincide con la partida', waiting: 'Esperando la posición inicial',
      finished: 'Partida terminada', paused: 'Reloj parado', flag: 'Bandera caída',
      offline: 'Sin conexión con la estación', connected: 'en directo', board: 'Tablero, visto desde su lado',
      adjourned: 'Partida aplazada',
      fix_title: 'Los tableros no coinciden — para corregir su tablero:', draw_offer: 'Oferta de tablas:', step_move: 'mover', step_remove: 'retirar', step_place: 'colocar',
      title: 'Pantalla espejo de la estación Annex D', yours: 'su reloj',
      white_wins: 'Ganan las blancas', black_wins: 'Ganan las negras', draw: 'Tablas',
    },
    fr: {
      white: 'Blancs', black: 'Noirs', to_move: '▶ au trait', last_move: 'Dernier coup', none: '—',
      waiting_exec: 'Coup annoncé — en attente de son exécution sur l’échiquier',
      discrepancy: 'Les échiquiers ne concordent pas — veuillez attendre l’arbitre',
      mismatch: 'Votre échiquier diffère de la partie', waiting: 'En attente de la position initiale',
      finished: 'Partie terminée', paused: 'Pendule arrêtée', flag: 'Drapeau tombé',
      offline: 'Pas de connexion avec la station', connected: 'en direct', board: 'Échiquier, vu de votre côté',
      adjourned: 'Partie ajournée',
      fix_title: 'Les échiquiers ne concordent pas — pour remettre votre échiquier en ordre :', draw_offer: 'Proposition de nulle :', step_move: 'déplacer', step_remove: 'retirer', step_place: 'placer',
      title: 'Affichage miroir de la station Annex D', yours: 'votre pendule',
      white_wins: 'Les Blancs gagnent', black_wins: 'Les Noirs gagnent', draw: 'Partie nulle',
    },
    it: {
      white: 'Bianco', black: 'Nero', to_move: '▶ al tratto', last_move: 'Ultima mossa', none: '—',
      waiting_exec: 'Mossa annunciata — in attesa che venga eseguita sulla scacchiera',
      discrepancy: 'Le scacchiere non coincidono — attenda l’arbitro',
      mismatch: 'La Sua scacchiera è diversa dalla partita', waiting: 'In attesa della posizione iniziale',
      finished: 'Partita finita', paused: 'Orologio fermo', flag: 'Bandierina caduta',
      offline: 'Nessuna connessione con la stazione', connected: 'in diretta', board: 'Scacchiera, vista dal Suo lato',
      adjourned: 'Partita aggiornata',
      fix_title: 'Le scacchiere non coincidono — per rimettere a posto la Sua scacchiera:', draw_offer: 'Offerta di patta:', step_move: 'spostare', step_remove: 'togliere', step_place: 'mettere',
      title: 'Schermo a specchio della stazione Annex D', yours: 'il Suo orologio',
      white_wins: 'Vince il Bianco', black_wins: 'Vince il Nero', draw: 'Patta',
    },
    nl: {
      white: 'Wit', black: 'Zwart', to_move: '▶ aan zet', last_move: 'Laatste zet', none: '—',
      waiting_exec: 'Zet aangekondigd — wacht tot hij op het bord is uitgevoerd',
      discrepancy: 'De borden verschillen — wacht op de arbiter',
      mismatch: 'Uw bord wijkt af van de partij', waiting: 'Wacht op de beginstelling',
      finished: 'Partij afgelopen', paused: 'Klok stilgezet', flag: 'Vlag gevallen',
      offline: 'Geen verbinding met het station', connected: 'live', board: 'Bord, gezien vanaf uw kant',
      adjourned: 'Partij afgebroken',
      fix_title: 'De borden verschillen — zo zet u uw bord goed:', draw_offer: 'Remiseaanbod van', step_move: 'verplaatsen', step_remove: 'weghalen', step_place: 'plaatsen',
      title: 'Spiegelweergave van het Annex D-station', yours: 'uw klok',
      white_wins: 'Wit wint', black_wins: 'Zwart wint', draw: 'Remise',
    },
    pt: {
      white: 'Brancas', black: 'Pretas', to_move: '▶ vez de jogar', last_move: 'Último lance', none: '—',
      waiting_exec: 'Lance anunciado — aguardando a execução no tabuleiro',
      discrepancy: 'Os tabuleiros não coincidem — aguarde o árbitro',
      mismatch: 'Seu tabuleiro difere da partida', waiting: 'Aguardando a posição inicial',
      finished: 'Partida encerrada', paused: 'Relógio parado', flag: 'Bandeira caída',
      offline: 'Sem conexão com a estação', connected: 'ao vivo', board: 'Tabuleiro, visto do seu lado',
      adjourned: 'Partida adiada',
      fix_title: 'Os tabuleiros não coincidem — para acertar seu tabuleiro:', draw_offer: 'Proposta de empate:', step_move: 'mover', step_remove: 'tirar', step_place: 'colocar',
      title: 'Tela espelho da estação Annex D', yours: 'seu relógio',
      white_wins: 'Vitória das brancas', black_wins: 'Vitória das pretas', draw: 'Empate',
    },
    ru: {
      white: 'Белые', black: 'Чёрные', to_move: '▶ очередь хода', last_move: 'Последний ход', none: '—',
      waiting_exec: 'Ход объявлен — ждём, пока его сделают на доске',
      discrepancy: 'Позиции на досках различаются — дождитесь арбитра',
      mismatch: 'Ваша доска отличается от партии', waiting: 'Ожидание начальной позиции',
      finished: 'Партия окончена', paused: 'Часы остановлены', flag: 'Флажок упал',
      offline: 'Нет связи со станцией', connected: 'на связи', board: 'Доска с Вашей стороны',
      adjourned: 'Партия отложена',
      fix_title: 'Позиции на досках различаются — как исправить Вашу доску:', draw_offer: 'Предложение ничьей:', step_move: 'переставить', step_remove: 'убрать', step_place: 'поставить',
      title: 'Зеркальный экран станции Annex D', yours: 'Ваши часы',
      white_wins: 'Победа белых', black_wins: 'Победа чёрных', draw: 'Ничья',
    },
    uk: {
      white: 'Білі', black: 'Чорні', to_move: '▶ черга ходу', last_move: 'Останній хід', none: '—',
      waiting_exec: 'Хід оголошено — чекаємо, поки його зроблять на дошці',
      discrepancy: 'Позиції на дошках різняться — зачекайте на арбітра',
      mismatch: 'Ваша дошка відрізняється від партії', waiting: 'Очікування початкової позиції',
      finished: 'Партію закінчено', paused: 'Годинник зупинено', flag: 'Прапорець упав',
      offline: 'Немає зв’язку зі станцією', connected: 'на зв’язку', board: 'Дошка з Вашого боку',
      adjourned: 'Партію відкладено',
      fix_title: 'Позиції на дошках різняться — як виправити Вашу дошку:', draw_offer: 'Пропозиція нічиєї:', step_move: 'переставити', step_remove: 'прибрати', step_place: 'поставити',
      title: 'Дзеркальний екран станції Annex D', yours: 'Ваш годинник',
      white_wins: 'Перемога білих', black_wins: 'Перемога чорних', draw: 'Нічия',
    },
    cs: {
      white: 'Bílý', black: 'Černý', to_move: '▶ na tahu', last_move: 'Poslední tah', none: '—',
      waiting_exec: 'Tah ohlášen — čeká se na jeho provedení na šachovnici',
      discrepancy: 'Pozice na šachovnicích se liší — vyčkejte na rozhodčího',
      mismatch: 'Vaše šachovnice se liší od partie', waiting: 'Čeká se na základní postavení',
      finished: 'Partie skončila', paused: 'Hodiny zastaveny', flag: 'Praporek spadl',
      offline: 'Žádné spojení se stanicí', connected: 'živě', board: 'Šachovnice z Vaší strany',
      adjourned: 'Partie odložena',
      fix_title: 'Pozice na šachovnicích se liší — jak opravit Vaši šachovnici:', draw_offer: 'Nabídka remízy:', step_move: 'přesunout', step_remove: 'odebrat', step_place: 'postavit',
      title: 'Zrcadlový displej stanice Annex D', yours: 'Vaše hodiny',
      white_wins: 'Vyhrál bílý', black_wins: 'Vyhrál černý', draw: 'Remíza',
    },
    hu: {
      white: 'Világos', black: 'Sötét', to_move: '▶ lépésen', last_move: 'Utolsó lépés', none: '—',
      waiting_exec: 'Lépés bemondva — várjuk, hogy megtegyék a táblán',
      discrepancy: 'A táblákon eltér az állás — kérem, várja meg a versenybírót',
      mismatch: 'Az Ön táblája eltér a játszmától', waiting: 'Várakozás a kiinduló állásra',
      finished: 'A játszma véget ért', paused: 'Óra megállítva', flag: 'Leesett a zászló',
      offline: 'Nincs kapcsolat az állomással', connected: 'élő', board: 'Tábla az Ön oldaláról',
      adjourned: 'Függőben maradt játszma',
      fix_title: 'A táblákon eltér az állás — így igazítsa ki a tábláját:', draw_offer: 'Döntetlenajánlat:', step_move: 'áttenni', step_remove: 'levenni', step_place: 'feltenni',
      title: 'Az Annex D állomás tükörkijelzője', yours: 'az Ön órája',
      white_wins: 'Világos nyert', black_wins: 'Sötét nyert', draw: 'Döntetlen',
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
