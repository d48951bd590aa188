// The visually impaired player's own view (issue 18 §6): the board from his
// side, the last move in his language's words and in SAN, both clocks. Read
// only and open to all like the mirror (no operator secret): everything comes
// from the station's state (the /ws stream, /api/state while it is down).
// Nothing moves.
'use strict';

(() => {
  const TEXT = {
    en: {
      title: "The player's own view of the game", board: 'Board, seen from your side', board_heading: 'Board',
      info_heading: 'Last move and clocks', last_move: 'Last move', none: 'no move yet',
      white: 'White', black: 'Black', you: '(you)', to_move: 'to move', by_white: 'White', by_black: 'Black',
      waiting: 'Waiting for the start position', finished: 'Game over', paused: 'Clock stopped',
      flag: 'Flag fallen', offline: 'No connection to the station', connected: 'live',
      discrepancy: 'The boards disagree: wait for the arbiter', adjourned: 'Game adjourned',
    },
    de: {
      title: 'Die Partie aus Sicht des Spielers', board: 'Brett aus Ihrer Sicht', board_heading: 'Brett',
      info_heading: 'Letzter Zug und Uhren', last_move: 'Letzter Zug', none: 'noch kein Zug',
      white: 'Weiß', black: 'Schwarz', you: '(Sie)', to_move: 'am Zug', by_white: 'Weiß', by_black: 'Schwarz',
      waiting: 'Warten auf die Grundstellung', finished: 'Partie beendet', paused: 'Uhr angehalten',
      flag: 'Zeit überschritten', offline: 'Keine Verbindung zur Station', connected: 'live',
      discrepancy: 'Die Bretter stimmen nicht überein: bitte auf den Schiedsrichter warten',
      adjourned: 'Partie abgebrochen (Hängepartie)',
    },
    pl: {
      title: 'Partia z perspektywy zawodnika', board: 'Szachownica z Twojej strony', board_heading: 'Szachownica',
      info_heading: 'Ostatnie posunięcie i zegary', last_move: 'Ostatnie posunięcie', none: 'jeszcze bez posunięcia',
      white: 'Białe', black: 'Czarne', you: '(Ty)', to_move: 'na posunięciu', by_white: 'Białe', by_black: 'Czarne',
      waiting: 'Oczekiwanie na pozycję początkową', finished: 'Koniec partii', paused: 'Zegar zatrzymany',
      flag: 'Przekroczenie czasu', offline: 'Brak połączenia ze stacją', connected: 'na żywo',
      discrepancy: 'Szachownice się różnią: proszę czekać na sędziego', adjourned: 'Partia odłożona',
    },
    // The nine more languages, in the words of voices/phrasebooks/<code>.toml
    // (the page says what his voice says) and its form of address.
    es: {
      title: 'La partida vista por el jugador', board: 'Tablero, visto desde su lado', board_heading: 'Tablero',
      info_heading: 'Última jugada y relojes', last_move: 'Última jugada', none: 'todavía ninguna jugada',
      white: 'Blancas', black: 'Negras', you: '(usted)', to_move: 'turno', by_white: 'Blancas', by_black: 'Negras',
      waiting: 'Esperando la posición inicial', finished: 'Partida terminada', paused: 'Reloj parado',
      flag: 'Bandera caída', offline: 'Sin conexión con la estación', connected: 'en directo',
      discrepancy: 'Los tableros no coinciden: espere al árbitro', adjourned: 'Partida aplazada',
    },
    fr: {
      title: 'La partie vue par le joueur', board: 'Échiquier, vu de votre côté', board_heading: 'Échiquier',
      info_heading: 'Dernier coup et pendules', last_move: 'Dernier coup', none: 'pas encore de coup',
      white: 'Blancs', black: 'Noirs', you: '(vous)', to_move: 'au trait', by_white: 'Blancs', by_black: 'Noirs',
      waiting: 'En attente de la position initiale', finished: 'Partie terminée', paused: 'Pendule arrêtée',
      flag: 'Drapeau tombé', offline: 'Pas de connexion avec la station', connected: 'en direct',
      discrepancy: 'Les échiquiers ne concordent pas : veuillez attendre l’arbitre', adjourned: 'Partie ajournée',
    },
    it: {
      title: 'La partita vista dal giocatore', board: 'Scacchiera, vista dal Suo lato', board_heading: 'Scacchiera',
      info_heading: 'Ultima mossa e orologi', last_move: 'Ultima mossa', none: 'ancora nessuna mossa',
      white: 'Bianco', black: 'Nero', you: '(Lei)', to_move: 'al tratto', by_white: 'Bianco', by_black: 'Nero',
      waiting: 'In attesa della posizione iniziale', finished: 'Partita finita', paused: 'Orologio fermo',
      flag: 'Bandierina caduta', offline: 'Nessuna connessione con la stazione', connected: 'in diretta',
      discrepancy: 'Le scacchiere non coincidono: attenda l’arbitro', adjourned: 'Partita aggiornata',
    },
    nl: {
      title: 'De partij gezien door de speler', board: 'Bord, gezien vanaf uw kant', board_heading: 'Bord',
      info_heading: 'Laatste zet en klokken', last_move: 'Laatste zet', none: 'nog geen zet',
      white: 'Wit', black: 'Zwart', you: '(u)', to_move: 'aan zet', by_white: 'Wit', by_black: 'Zwart',
      waiting: 'Wacht op de beginstelling', finished: 'Partij afgelopen', paused: 'Klok stilgezet',
      flag: 'Vlag gevallen', offline: 'Geen verbinding met het station', connected: 'live',
      discrepancy: 'De borden verschillen: wacht op de arbiter', adjourned: 'Partij afgebroken',
    },
    pt: {
      title: 'A partida vista pelo jogador', board: 'Tabuleiro, visto do seu lado', board_heading: 'Tabuleiro',
      info_heading: 'Último lance e relógios', last_move: 'Último lance', none: 'nenhum lance ainda',
      white: 'Brancas', black: 'Pretas', you: '(você)', to_move: 'vez de jogar', by_white: 'Brancas', by_black: 'Pretas',
      waiting: 'Aguardando a posição inicial', finished: 'Partida encerrada', paused: 'Relógio parado',
      flag: 'Bandeira caída', offline: 'Sem conexão com a estação', connected: 'ao vivo',
      discrepancy: 'Os tabuleiros não coincidem: aguarde o árbitro', adjourned: 'Partida adiada',
    },
    ru: {
      title: 'Партия глазами игрока', board: 'Доска с Вашей стороны', board_heading: 'Доска',
      info_heading: 'Последний ход и часы', last_move: 'Последний ход', none: 'ходов ещё нет',
      white: 'Белые', black: 'Чёрные', you: '(Вы)', to_move: 'очередь хода', by_white: 'Белые', by_black: 'Чёрные',
      waiting: 'Ожидание начальной позиции', finished: 'Партия окончена', paused: 'Часы остановлены',
      flag: 'Флажок упал', offline: 'Нет связи со станцией', connected: 'на связи',
      discrepancy: 'Позиции на досках различаются: дождитесь арбитра', adjourned: 'Партия отложена',
    },
    uk: {
      title: 'Партія очима гравця', board: 'Дошка з Вашого боку', board_heading: 'Дошка',
      info_heading: 'Останній хід і годинник', last_move: 'Останній хід', none: 'ходів ще немає',
      white: 'Білі', black: 'Чорні', you: '(Ви)', to_move: 'черга ходу', by_white: 'Білі', by_black: 'Чорні',
      waiting: 'Очікування початкової позиції', finished: 'Партію закінчено', paused: 'Годинник зупинено',
      flag: 'Прапорець упав', offline: 'Немає зв’язку зі станцією', connected: 'на зв’язку',
      discrepancy: 'Позиції на дошках різняться: зачекайте на арбітра', adjourned: 'Партію відкладено',
    },
    cs: {
      title: 'Partie očima hráče', board: 'Šachovnice z Vaší strany', board_heading: 'Šachovnice',
      info_heading: 'Poslední tah a hodiny', last_move: 'Poslední tah', none: 'zatím žádný tah',
      white: 'Bílý', black: 'Černý', you: '(Vy)', to_move: 'na tahu', by_white: 'Bílý', by_black: 'Černý',
      waiting: 'Čeká se na základní postavení', finished: 'Partie skončila', paused: 'Hodiny zastaveny',
      flag: 'Praporek spadl', offline: 'Žádné spojení se stanicí', connected: 'živě',
      discrepancy: 'Pozice na šachovnicích se liší: vyčkejte na rozhodčího', adjourned: 'Partie odložena',
    },
    hu: {
      title: 'A játszma a játékos szemével', board: 'Tábla az Ön oldaláról', board_heading: 'Tábla',
      info_heading: 'Utolsó lépés és órák', last_move: 'Utolsó lépés', none: 'még nincs lépés',
      white: 'Világos', black: 'Sötét', you: '(Ön)', to_move: 'lépésen', by_white: 'Világos', by_black: 'Sötét',
      waiting: 'Várakozás a kiinduló állásra', finished: 'A játszma véget ért', paused: 'Óra megállítva',
      flag: 'Leesett a zászló', offline: 'Nincs kapcsolat az állomással', connected: 'élő',
      discrepancy: 'A táblákon eltér az állás: kérem, várja meg a versenybírót', adjourned: 'Függőben maradt játszma',
    },
  };

  const view = { state: null, receivedAt: Date.now(), online: false };
  const $ = (id) => document.getElementById(id);

  // `?lang=LANG` (any built-in phrasebook's code); otherwise the language the player hears.
  const { lang, t } = Station.pageWords(TEXT, () => view.state && view.state.languages && view.state.languages.private);
  function setText(id, text) {
    const e = $(id);
    if (e && e.textContent !== text) e.textContent = text;
  }

  function renderClocks() {
    const s = view.state || {};
    const clock = s.clock && typeof s.clock === 'object' ? s.clock : null;
    const now = Station.clockNow(clock, view.receivedAt);
    const onMove = (clock && clock.on_move) || s.turn || null;
    const playing = s.phase === 'playing';
    for (const side of ['white', 'black']) {
      setText(`time-${side}`, Station.formatClock(now[side]));
      const mine = playing && onMove === side;
      $(`clock-${side}`).classList.toggle('on-move', Boolean(mine));
      setText(`onmove-${side}`, mine ? t('to_move') : '');
    }
  }

  let boardKey = '';
  function render() {
    const s = view.state || {};
    document.documentElement.lang = lang();
    setText('title', t('title'));
    setText('board-heading', t('board_heading'));
    setText('info-heading', t('info_heading'));
    const blindColor = s.blind_color === 'black' ? 'black' : 'white';
    const last = s.last_move && typeof s.last_move === 'object' ? s.last_move : null;
    // Redraw the board only when it changed (no flicker, nothing moves).
    const key = [s.fen, blindColor, last ? last.uci : '', lang()].join('|');
    if (key !== boardKey) {
      boardKey = key;
      Station.drawBoard($('board'), {
        fen: s.fen,
        flipped: blindColor === 'black', // his own side at the bottom
        lastMove: last ? last.uci : null,
        label: t('board'),
        text: 'hidden',
        lang: lang(),
      });
      $('board').dataset.side = blindColor;
    }
    setText('last-label', t('last_move'));
    if (last && typeof last.ply === 'number') {
      const words = last.text && typeof last.text === 'object' ? (last.text[lang()] || last.text.en || '') : '';
      const mover = last.ply % 2 === 1 ? t('by_white') : t('by_black');
      const san = Station.sanIn(last, lang());
      setText('last-words', `${Station.moveNumber(last.ply)} ${words || san}`);
      setText('last-san', `${mover}: ${san}`);
    } else {
      setText('last-words', t('none'));
      setText('last-san', '');
    }
    for (const side of ['white', 'black']) {
      setText(`name-${side}`, t(side));
      setText(`you-${side}`, side === blindColor ? t('you') : '');
      setText(`player-${side}`, Station.playerName(s, side));
    }
    const notices = [];
    if (!view.online) notices.push(['alert', t('offline')]);
    if (Array.isArray(s.discrepancies) && s.discrepancies.length) notices.push(['alert', t('discrepancy')]);
    if (s.clock && s.clock.flag) notices.push(['alert', `${t('flag')}: ${t(s.clock.flag)}`]);
    if (s.phase === 'waiting') notices.push(['info', t('waiting')]);
    if (s.phase === 'adjourned' || s.adjourned === true) notices.push(['info', t('adjourned')]);
    const result = s.result && typeof s.result === 'object' ? s.result.result : s.result;
    if (s.phase === 'finished') notices.push(['info', t('finished') + (typeof result === 'string' && result !== '*' ? `: ${result}` : '')]);
    if (s.phase === 'playing' && s.clock && s.clock.running === false && s.clock.moves > 0 && !s.clock.flag) {
      notices.push(['info', t('paused')]);
    }
    const box = $('notices');
    if (box.textContent !== notices.map((n) => n[1]).join('')) {
      box.replaceChildren(...notices.map(([kind, text]) => {
        const p = document.createElement('p');
        p.className = `notice ${kind}`;
        p.textContent = text;
        return p;
      }));
    }
    setText('game', s.game_id ? String(s.game_id) : '');
    const conn = $('conn');
    setText('conn', view.online ? t('connected') : t('offline'));
    conn.className = `conn ${view.online ? 'up' : 'down'}`;
    renderClocks();
  }

  // The running clock: its seconds change on time (the digits only; nothing moves).
  Station.follow(view, render, renderClocks, 250);
})();
