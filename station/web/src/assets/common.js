// Shared by the console, the mirror and the player's view: boards as SVG, clock readings,
// event wording, the live connection (WebSocket with reconnect, polling /api/state as
// fallback), and what the two read-only pages do alike (their words, following the state).
'use strict';

const Station = (() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  // Solid glyphs for both colours (filled white or black), text presentation.
  const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

  /** "N" → "white knight", "p" → "black pawn". */
  function pieceName(letter) {
    if (typeof letter !== 'string' || letter.length !== 1) return 'piece';
    const lower = letter.toLowerCase();
    const name = NAMES[lower] || 'piece';
    return (letter === lower ? 'black ' : 'white ') + name;
  }

  /** Square index (a1 = 0, h8 = 63) → "e4". */
  function squareName(i) {
    return 'abcdefgh'[i % 8] + String(Math.floor(i / 8) + 1);
  }

  /** "e4" → 28, or -1. */
  function squareIndex(name) {
    if (typeof name !== 'string' || !/^[a-h][1-8]$/.test(name)) return -1;
    return name.charCodeAt(0) - 97 + 8 * (name.charCodeAt(1) - 49);
  }

  /** The piece letters of a FEN's placement, indexed a1 = 0 … h8 = 63, or null. */
  function parseFen(fen) {
    if (typeof fen !== 'string' || fen.length === 0) return null;
    const rows = fen.trim().split(/\s+/)[0].split('/');
    if (rows.length !== 8) return null;
    const squares = new Array(64).fill(null);
    for (let r = 0; r < 8; r++) {
      let file = 0;
      for (const ch of rows[r]) {
        if (/[1-8]/.test(ch)) file += Number(ch);
        else if (/[kqrbnpKQRBNP]/.test(ch)) {
          if (file > 7) return null;
          squares[(7 - r) * 8 + file] = ch;
          file += 1;
        } else return null;
      }
      if (file !== 8) return null;
    }
    return squares;
  }

  /** Side to move of a FEN: "white", "black" or null. */
  function fenTurn(fen) {
    if (typeof fen !== 'string') return null;
    const f = fen.trim().split(/\s+/);
    return f[1] === 'w' ? 'white' : f[1] === 'b' ? 'black' : null;
  }

  /** Occupancy hex (bit n = square n) → 64 booleans, or null. */
  function parseOccupancy(hex) {
    if (typeof hex !== 'string' || !/^[0-9a-fA-F]{1,16}$/.test(hex)) return null;
    const bits = BigInt('0x' + hex);
    const out = new Array(64);
    for (let i = 0; i < 64; i++) out[i] = ((bits >> BigInt(i)) & 1n) === 1n;
    return out;
  }

  function el(name, attrs, text) {
    const e = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /**
   * Draws a board into `container` (replacing its content).
   * opts: fen, occupancy (hex), flipped, diff ([{square, text}]), lastMove (UCI), label.
   */
  function drawBoard(container, opts) {
    const squares = parseFen(opts.fen);
    const occupied = parseOccupancy(opts.occupancy);
    const diffs = new Map();
    for (const d of Array.isArray(opts.diff) ? opts.diff : []) {
      const i = squareIndex(d && d.square);
      if (i >= 0) diffs.set(i, d.text || d.square);
    }
    const last = new Set();
    if (typeof opts.lastMove === 'string' && opts.lastMove.length >= 4) {
      for (const s of [opts.lastMove.slice(0, 2), opts.lastMove.slice(2, 4)]) {
        const i = squareIndex(s);
        if (i >= 0) last.add(i);
      }
    }
    const M = 34; // margin for the coordinates
    const svg = el('svg', { viewBox: `0 0 ${800 + M} ${800 + M}`, class: 'board', role: 'img', focusable: 'false' });
    let summary = opts.label || 'Board';
    if (!squares && !occupied) summary += ': no position yet';
    if (diffs.size) summary += `; ${diffs.size} square${diffs.size === 1 ? '' : 's'} differ: ` + [...diffs.values()].join('; ');
    svg.setAttribute('aria-label', summary);
    svg.appendChild(el('title', {}, summary));
    for (let i = 0; i < 64; i++) {
      const file = i % 8;
      const rank = Math.floor(i / 8);
      const col = opts.flipped ? 7 - file : file;
      const row = opts.flipped ? rank : 7 - rank;
      const x = M + col * 100;
      const y = row * 100;
      const dark = (file + rank) % 2 === 0;
      svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: dark ? 'dark' : 'light' }));
      if (last.has(i)) svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: 'last' }));
      const piece = squares ? squares[i] : null;
      const peg = occupied ? occupied[i] : null;
      if (piece) {
        const colour = piece === piece.toUpperCase() ? 'w' : 'b';
        const ghost = peg === false ? ' ghost' : '';
        svg.appendChild(
          el('text', { x: x + 50, y: y + 80, 'text-anchor': 'middle', class: `piece ${colour}${ghost}` },
            GLYPHS[piece.toLowerCase()] + '\uFE0E'));
      } else if (peg) {
        svg.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 18, class: 'peg' }));
      }
      if (diffs.has(i)) {
        svg.appendChild(el('rect', { x: x + 4, y: y + 4, width: 92, height: 92, class: 'diff' }));
        svg.appendChild(el('text', { x: x + 10, y: y + 28, class: 'diff-mark' }, '!'));
      }
    }
    for (let k = 0; k < 8; k++) {
      const file = opts.flipped ? 7 - k : k;
      const rank = opts.flipped ? k + 1 : 8 - k;
      svg.appendChild(el('text', { x: M + k * 100 + 50, y: 800 + M - 8, 'text-anchor': 'middle', class: 'coord' }, 'abcdefgh'[file]));
      svg.appendChild(el('text', { x: M / 2, y: k * 100 + 58, 'text-anchor': 'middle', class: 'coord' }, String(rank)));
    }
    const nodes = [svg];
    if (opts.text === 'details') nodes.push(boardText(squares, occupied, summary, true, opts.id));
    else if (opts.text === 'hidden') nodes.push(boardText(squares, occupied, summary, false, opts.id, opts.lang));
    container.replaceChildren(...nodes);
  }

  /**
   * A draughts board from a PDN FEN (`W:W31,32,K46:B1,2`): the dark squares
   * with their numbers (FMJD 1–50 on 10×10; a1–h8 on 8×8), men and kings.
   */
  function drawDraughts(container, fen, size, flipped, label) {
    const NS = 'http://www.w3.org/2000/svg';
    const mk = (name, attrs, text) => {
      const e = document.createElementNS(NS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const per = size / 2;
    const place = (name) => {
      if (/^[0-9]+$/.test(name)) {
        const k = Number(name) - 1;
        if (k < 0 || k >= per * size) return null;
        const row = Math.floor(k / per);
        return { row, col: row % 2 === 0 ? 2 * (k % per) + 1 : 2 * (k % per) };
      }
      const m = /^([a-h])([1-8])$/.exec(name);
      return m ? { row: 8 - Number(m[2]), col: m[1].charCodeAt(0) - 97 } : null;
    };
    const pieces = new Map();
    const parts = typeof fen === 'string' ? fen.split(':') : [];
    for (const part of parts.slice(1)) {
      const colour = part[0] === 'W' ? 'w' : part[0] === 'B' ? 'b' : null;
      if (!colour) continue;
      for (const item of part.slice(1).split(',')) {
        const king = item.startsWith('K');
        const at = place(king ? item.slice(1) : item);
        if (at) pieces.set(`${at.row},${at.col}`, { colour, king });
      }
    }
    const svg = mk('svg', { viewBox: `0 0 ${size * 100} ${size * 100}`, class: 'board draughts', role: 'img', focusable: 'false' });
    const summary = `${label}: ${pieces.size ? pieces.size + ' pieces' : 'no position yet'}`;
    svg.setAttribute('aria-label', summary);
    svg.appendChild(mk('title', {}, summary));
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const x = (flipped ? size - 1 - col : col) * 100;
        const y = (flipped ? size - 1 - row : row) * 100;
        const dark = (row + col) % 2 === 1;
        svg.appendChild(mk('rect', { x, y, width: 100, height: 100, class: dark ? 'dark' : 'light' }));
        if (!dark) continue;
        const k = row * per + Math.floor(col / 2) + 1;
        const name = size === 10 ? String(k) : `${String.fromCharCode(97 + col)}${8 - row}`;
        svg.appendChild(mk('text', { x: x + 6, y: y + 24, class: 'square-number', 'font-size': 22 }, name));
        const p = pieces.get(`${row},${col}`);
        if (p) {
          svg.appendChild(mk('circle', { cx: x + 50, cy: y + 55, r: 34, class: `man ${p.colour}`,
            fill: p.colour === 'w' ? '#f4f0e6' : '#222', stroke: '#888', 'stroke-width': 3 }));
          if (p.king) {
            svg.appendChild(mk('text', { x: x + 50, y: y + 68, 'text-anchor': 'middle', 'font-size': 36,
              fill: p.colour === 'w' ? '#222' : '#f4f0e6' }, 'K'));
          }
        }
      }
    }
    container.replaceChildren(svg);
  }

  function html(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
    for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  }

  // The text board in the read-only pages' languages (English has its own,
  // with plurals, below): each piece's name once, then its squares ("Weiß:
  // König e1; Turm a1, h1"), so no plural is needed. The piece names are the
  // phrasebooks' (voices/phrasebooks/<code>.toml).
  const BOARD_WORDS = {
    de: { white: 'Weiß', black: 'Schwarz', none: 'keine Figuren', k: 'König', q: 'Dame', r: 'Turm', b: 'Läufer', n: 'Springer', p: 'Bauer', empty: 'Noch keine Stellung.' },
    pl: { white: 'Białe', black: 'Czarne', none: 'brak bierek', k: 'król', q: 'hetman', r: 'wieża', b: 'goniec', n: 'skoczek', p: 'pion', empty: 'Brak pozycji.' },
    es: { white: 'Blancas', black: 'Negras', none: 'sin piezas', k: 'rey', q: 'dama', r: 'torre', b: 'alfil', n: 'caballo', p: 'peón', empty: 'Todavía no hay posición.' },
    fr: { white: 'Blancs', black: 'Noirs', none: 'aucune pièce', k: 'roi', q: 'dame', r: 'tour', b: 'fou', n: 'cavalier', p: 'pion', empty: 'Pas encore de position.' },
    it: { white: 'Bianco', black: 'Nero', none: 'nessun pezzo', k: 're', q: 'donna', r: 'torre', b: 'alfiere', n: 'cavallo', p: 'pedone', empty: 'Ancora nessuna posizione.' },
    nl: { white: 'Wit', black: 'Zwart', none: 'geen stukken', k: 'koning', q: 'dame', r: 'toren', b: 'loper', n: 'paard', p: 'pion', empty: 'Nog geen stelling.' },
    pt: { white: 'Brancas', black: 'Pretas', none: 'nenhuma peça', k: 'rei', q: 'dama', r: 'torre', b: 'bispo', n: 'cavalo', p: 'peão', empty: 'Ainda sem posição.' },
    ru: { white: 'Белые', black: 'Чёрные', none: 'нет фигур', k: 'король', q: 'ферзь', r: 'ладья', b: 'слон', n: 'конь', p: 'пешка', empty: 'Позиции пока нет.' },
    uk: { white: 'Білі', black: 'Чорні', none: 'немає фігур', k: 'король', q: 'ферзь', r: 'тура', b: 'слон', n: 'кінь', p: 'пішак', empty: 'Позиції ще немає.' },
    cs: { white: 'Bílý', black: 'Černý', none: 'žádné figury', k: 'král', q: 'dáma', r: 'věž', b: 'střelec', n: 'jezdec', p: 'pěšec', empty: 'Zatím žádná pozice.' },
    hu: { white: 'Világos', black: 'Sötét', none: 'nincs bábu', k: 'király', q: 'vezér', r: 'bástya', b: 'futó', n: 'huszár', p: 'gyalog', empty: 'Még nincs állás.' },
  };
  function pieceListIn(words, squares, white) {
    const parts = [];
    for (const kind of ['k', 'q', 'r', 'b', 'n', 'p']) {
      const letter = white ? kind.toUpperCase() : kind;
      const where = [];
      for (let i = 0; i < 64; i++) if (squares[i] === letter) where.push(squareName(i));
      if (where.length) parts.push(`${words[kind]} ${where.join(', ')}`);
    }
    return `${white ? words.white : words.black}: ${parts.length ? parts.join('; ') : words.none}`;
  }

  /** "White: king e1, queen d1, rooks a1 and h1, …" for one colour of a FEN's pieces. */
  function pieceList(squares, white) {
    const order = ['k', 'q', 'r', 'b', 'n', 'p'];
    const plural = { k: 'kings', q: 'queens', r: 'rooks', b: 'bishops', n: 'knights', p: 'pawns' };
    const parts = [];
    for (const kind of order) {
      const letter = white ? kind.toUpperCase() : kind;
      const where = [];
      // Rank by rank from the player's own side, file by file.
      for (let i = 0; i < 64; i++) if (squares[i] === letter) where.push(squareName(i));
      if (!where.length) continue;
      const list = where.length === 1 ? where[0] : where.slice(0, -1).join(', ') + ' and ' + where[where.length - 1];
      parts.push(`${where.length === 1 ? NAMES[kind] : plural[kind]} ${list}`);
    }
    return `${white ? 'White' : 'Black'}: ${parts.length ? parts.join(', ') : 'no pieces'}`;
  }

  /**
   * The board as text, for a screen reader (and anyone who prefers words): each
   * side's pieces with their squares, and (with `interactive`) a table rank by
   * rank in a folding section whose scroll box takes the focus.
   */
  function boardText(squares, occupied, label, interactive, id, lang) {
    // Ids let a page that redraws the board after every move keep the focus
    // and the open section where they were.
    const idOf = (part) => (id ? `${id}-${part}` : null);
    const words = BOARD_WORDS[lang];
    if (words && !interactive) {
      // A read-only page in another language than English: the whole text board in it.
      const list = squares
        ? html('ul', {}, html('li', {}, pieceListIn(words, squares, true)), html('li', {}, pieceListIn(words, squares, false)))
        : html('p', {}, words.empty);
      return html('div', { class: 'visually-hidden', id: idOf('text') }, html('p', {}, `${label}:`), list);
    }
    const lists = squares
      ? html('ul', {}, html('li', {}, pieceList(squares, true)), html('li', {}, pieceList(squares, false)))
      : html('p', {}, 'No position yet.');
    if (occupied && squares) {
      const extra = [];
      const missing = [];
      for (let i = 0; i < 64; i++) {
        if (occupied[i] && !squares[i]) extra.push(squareName(i));
        if (!occupied[i] && squares[i]) missing.push(squareName(i));
      }
      if (extra.length) lists.append(html('li', {}, `Pegs where the game has no piece: ${extra.join(', ')}`));
      if (missing.length) lists.append(html('li', {}, `No peg where the game has a piece: ${missing.join(', ')}`));
    }
    if (!interactive) {
      // The piece names are English words; the label is in the page's language.
      return html('div', { class: 'visually-hidden' }, html('p', {}, `${label}:`), html('div', { lang: 'en' }, lists));
    }
    const box = html('details', { class: 'board-text', id: idOf('text') },
      html('summary', { id: idOf('text-summary') }, `${label}: the pieces as text`), lists);
    if (squares) {
      const table = html('table', { class: 'ranks' }, html('caption', {}, `${label}, rank by rank`));
      table.append(html('thead', {}, html('tr', {}, html('td', {}), ...[...'abcdefgh'].map((f) => html('th', { scope: 'col' }, f)))));
      const body = html('tbody');
      for (let rank = 7; rank >= 0; rank--) {
        const row = html('tr', {}, html('th', { scope: 'row' }, String(rank + 1)));
        for (let file = 0; file < 8; file++) {
          const piece = squares[rank * 8 + file];
          row.append(html('td', {}, piece ? pieceName(piece) : '–'));
        }
        body.append(row);
      }
      table.append(body);
      box.append(html('div', { class: 'table-wrap', id: idOf('ranks'), tabindex: '0', role: 'region', 'aria-label': `${label}, rank by rank` }, table));
    }
    return box;
  }

  /** 5400000 → "1:30:00", 299000 → "4:59", 9800 → "0:09.8". */
  function formatClock(ms) {
    if (typeof ms !== 'number' || !isFinite(ms)) return '–:––';
    const neg = ms < 0;
    ms = Math.abs(ms);
    const total = Math.floor(ms / 1000);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const pad = (n) => String(n).padStart(2, '0');
    let text = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
    if (h === 0 && m === 0 && s < 10) text += '.' + Math.floor((ms % 1000) / 100);
    return (neg ? '-' : '') + text;
  }

  /** Spoken form: "1 hour 30 minutes", "4 minutes 59 seconds". */
  function speakClock(ms) {
    if (typeof ms !== 'number' || !isFinite(ms)) return 'unknown';
    const total = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const parts = [];
    if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
    if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
    if (!h && (s || !m)) parts.push(`${s} second${s === 1 ? '' : 's'}`);
    return parts.join(' ');
  }

  /** The clock's readings now, running down the side on move since the snapshot came. */
  function clockNow(clock, receivedAt) {
    if (!clock || typeof clock !== 'object') return { white: null, black: null };
    let white = typeof clock.white_ms === 'number' ? clock.white_ms : null;
    let black = typeof clock.black_ms === 'number' ? clock.black_ms : null;
    if (clock.running && !clock.flag) {
      const gone = Math.max(0, Date.now() - receivedAt);
      if (clock.on_move === 'white' && white !== null) white -= gone;
      if (clock.on_move === 'black' && black !== null) black -= gone;
    }
    return { white, black };
  }

  /** An event time: wall-clock epoch milliseconds → local time of day; smaller → elapsed. */
  function formatTime(tMs) {
    if (typeof tMs !== 'number' || !isFinite(tMs)) return '';
    if (tMs > 1e11) return new Date(tMs).toLocaleTimeString();
    return formatClock(tMs);
  }

  /** Ply 1 → "1.", ply 2 → "1…". */
  function moveNumber(ply) {
    const n = Math.floor((ply + 1) / 2);
    return ply % 2 === 1 ? `${n}.` : `${n}…`;
  }

  function stepText(step) {
    if (!step || typeof step !== 'object') return '';
    const piece = pieceName(step.piece);
    if (step.action === 'move') return `move the ${piece} from ${step.from} to ${step.to}`;
    if (step.action === 'remove') return `remove the ${piece} from ${step.from}`;
    if (step.action === 'place') return `place a ${piece} on ${step.to}`;
    return `${step.action} ${piece}`;
  }

  /** How serious an event is: "alert", "move", "warning" or "info". */
  function severity(ev) {
    const t = String(ev && ev.type);
    // A game closed for a new one is no alarm: the arbiter asked for it.
    if (t === 'game_over') return ev.reason === 'new_game' ? 'info' : 'alert';
    // Time warnings are the blind player's (said to him); the console notes them.
    if (t === 'clock_warning') return ev.warning && ev.warning.time_trouble ? 'warning' : 'info';
    if (t === 'discrepancy' || t === 'board_mismatch' || t === 'board_fault') return 'alert';
    if (t === 'board_status' && ev.status === 'disconnected') return 'alert';
    if (/flag|premature|illegal|refused|error/.test(t)) return 'alert';
    if (t === 'game_move') return 'move';
    if (['touch', 'button', 'line_dropped', 'announcement', 'clock_pressed', 'board_identity', 'clock_changed',
      'game_started', 'game_resumed', 'heard', 'draw_offered', 'discrepancy_resolved', 'board_restored'].includes(t)) return 'info';
    return 'warning';
  }

  // ---- the console's words for events -------------------------------------------------
  const BOARD_NAMES = { blind: "blind player's board", mirror: "sighted player's board" };
  function boardName(b) {
    return BOARD_NAMES[b] || (b ? `${String(b).replace(/_/g, ' ')} board` : 'a board');
  }
  function sideName(s) {
    return s === 'white' ? 'White' : s === 'black' ? 'Black' : String(s || '');
  }
  function upper(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }
  /** "1 move", "2 moves". */
  function plural(n, one, many) {
    return `${n} ${n === 1 ? one : (many || one + 's')}`;
  }
  function ordinal(n) {
    return { 1: 'first', 2: 'second', 3: 'third' }[n] || `${n}th`;
  }
  /** "e2e4" → "e2-e4" (a move the record no longer holds). */
  function squares(uci) {
    return typeof uci === 'string' && uci.length >= 4 ? `${uci.slice(0, 2)}-${uci.slice(2, 4)}${uci.slice(4).toUpperCase()}` : String(uci || '');
  }
  /** The station's reasons count plies ("clocks as at ply 4"): said as move numbers. */
  function plyWords(text) {
    const number = (n) => (Number(n) ? moveNumber(Number(n)) : null);
    return String(text || '')
      .replace(/\bas at ply (\d+)/g, (_, n) => (number(n) ? `as after ${number(n)}` : 'as at the start'))
      .replace(/\bto ply (\d+)/g, (_, n) => (number(n) ? `to the position after ${number(n)}` : 'to the start'))
      .replace(/\bafter ply (\d+)/g, (_, n) => (number(n) ? `after ${number(n)}` : 'before the first move'))
      .replace(/\bply (\d+)/g, (_, n) => (number(n) ? `move ${number(n)}` : 'the start'));
  }
  function diffText(diff) {
    return Array.isArray(diff) ? diff.map((d) => (d && (d.text || d.square)) || '').filter(Boolean).join('; ') : '';
  }
  const MISSING = {
    placement: 'his move is not on the board yet',
    captured_piece_removal: 'the captured piece is still on the board',
    announcement: 'he has not announced his move yet',
  };
  const REFUSED_INPUTS = {
    enter_move: 'a move entered at the console', clock_press: 'a clock press', clock: 'a clock command',
    scan: 'a reading of a board', announce: 'a spoken move', take_back: 'the take-back', scoresheet: 'a scoresheet',
    new_game: 'the new game', result: 'the result', draw_offer: 'a draw offer', accept_draw: 'the draw agreement',
    claim_draw: 'a draw claim', confirm_claim: 'the verdict on a draw claim', illegal_move: 'the illegal move',
    adjourn: 'the adjournment', resign: 'a resignation', pieces: "a reading of the sighted player's board",
    field: "a square of the sighted player's board", clock_reading: 'a reading of the DGT clock',
  };
  // Inputs that come from a device, not from a console control (whose refusal is
  // shown beside the control): their reason belongs in the log.
  const DEVICE_INPUTS = new Set(['scan', 'announce', 'pieces', 'field', 'clock_reading', 'button', 'link']);
  const DEVICES = {
    gamepad: 'Gamepad', dgt_clock: 'DGT clock', microphone: 'Microphone', speech_model: 'Speech model',
    recording: 'Recording of the spoken moves', journal: 'Journal', braille: 'Braille display', engine: 'Engine',
    audio: 'Sound', speaker: 'Speaker',
  };
  const RESULT_REASONS = {
    checkmate: 'checkmate', stalemate: 'stalemate', insufficient_material: 'dead position (insufficient material)',
    resignation: 'resignation', agreement: 'draw by agreement', threefold_repetition: 'draw claimed: the position three times',
    fifty_moves: 'draw claimed: fifty moves without a pawn move or a capture', illegal_moves: 'the third illegal move',
    no_pieces: 'no pieces left', no_move: 'no move left', king_moves: 'draw: kings only moved (6.2)',
    long_ending: 'draw: the ending not won in time (6.3)', short_ending: 'draw: the ending not won in time (6.4)',
  };
  const RESULT_WORDS = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'draw', '2-0': 'White wins', '0-2': 'Black wins', '1-1': 'draw' };
  function clockChangedText(ev) {
    const side = sideName(ev.side);
    const who = typeof ev.who === 'string' ? ev.who : '';
    const by = who && who !== 'station' && who !== 'player' ? (who === 'operator' ? ' at the console' : ` by ${who}`) : '';
    const why = typeof ev.why === 'string' && ev.why ? ` — ${plyWords(ev.why)}` : '';
    switch (ev.action) {
      case 'started':
        if (who === 'player') return `Clock started by ${side}'s press`;
        if (who === 'station') return 'Clock started: the game\'s position stands on the boards';
        return `Clock started${by}`;
      case 'paused': return `Clock stopped${by}${why}`;
      case 'resumed': return `Clock running again${by}${why}`;
      case 'time_set': return `${side}'s clock set${by}${why}`;
      case 'time_added': return `Time added to ${side}'s clock${by}${why}`;
      case 'moves_set': return `Move counter set${by}${why}`;
      case 'on_move_set': return `${side}'s clock runs again${why}`;
      default: return `Clock: ${String(ev.action || '').replace(/_/g, ' ')}${side ? ' for ' + side : ''}${by}${why}`;
    }
  }
  function warningText(w) {
    const side = sideName(w.side);
    switch (w.warning) {
      case 'period_start': return `${side}'s period ${Number(w.period) + 1} begins with ${formatClock(w.remaining_ms)} on the clock`;
      case 'remaining': return `${side}: ${speakClock(w.threshold_ms)} left${w.time_trouble ? ' (time trouble)' : ''} — said to the blind player`;
      case 'time_control_reached': return `${side} reached the time control: period ${Number(w.period) + 1} begins`;
      case 'flag_fell': return `${side}'s flag fell`;
      default: return `${side}: clock warning`;
    }
  }
  function heardText(understood) {
    const u = String(understood || '');
    const [kind, ...rest] = u.split(' ');
    if (kind === 'move') return `understood as ${rest[rest.length - 1] || rest.join(' ')}`;
    if (kind === 'ask') return 'not sure: asked back';
    if (kind === 'command') return `understood as the command "${rest.join(' ').replace(/_/g, ' ')}"`;
    if (kind === 'reject') return `not understood (${rest.join(' ').replace(/_/g, ' ')})`;
    return u ? `understood: ${u}` : 'nothing understood';
  }
  function noteText(ev) {
    const text = String(ev.text || '');
    if (ev.about === 'clock_reading') return `The blind player now hears his clock as: ${text.replace(/^clock reading /, '').replace(/_/g, ' ')}`;
    if (ev.about === 'rate') return `The blind player's speaking rate: ${text.replace(/^speaking rate /, '')}`;
    if (ev.about === 'practice') return `Practice: ${text}`;
    return `Note: ${plyWords(text)}`;
  }

  /**
   * One line of plain text for an event, in the console's words (never a field
   * name or a ply count). `ctx` (optional): `sensed(role)` — whether a board is
   * sensed (a move "made on" a board that is not there was entered or spoken);
   * `san(ply)` — the move of a ply the record no longer holds.
   */
  function describe(ev, ctx) {
    if (!ev || typeof ev !== 'object') return String(ev);
    const c = ctx || {};
    const board = upper(boardName(ev.board));
    const mover = (ply) => (Number(ply) % 2 === 1 ? 'White' : 'Black');
    switch (ev.type) {
      case 'game_started': {
        const tags = ev.tags && typeof ev.tags === 'object' ? ev.tags : {};
        const named = (v) => typeof v === 'string' && v && v !== '?';
        const names = named(tags.white) || named(tags.black) ? `: ${named(tags.white) ? tags.white : 'White'} – ${named(tags.black) ? tags.black : 'Black'}` : '';
        const from = Array.isArray(ev.moves) && ev.moves.length ? `, from the scoresheet after ${moveNumber(ev.moves.length)}` : '';
        return `New game${names}${from}`;
      }
      case 'game_resumed': return `Game resumed from the journal after a restart, ${ev.ply ? 'after ' + moveNumber(ev.ply) : 'before the first move'}`;
      case 'move': return `${board}: ${moveNumber(ev.ply)} ${ev.san} made on it`;
      case 'move_revised': return `${board}: ${moveNumber(ev.ply)} read again as ${ev.san}`;
      case 'game_move': {
        const where = c.sensed && c.sensed(ev.by) ? `, made on the ${boardName(ev.by)}` : '';
        return `${moveNumber(ev.ply)} ${ev.san} (${mover(ev.ply)})${ev.revised ? ', corrected' : ''}${where}`;
      }
      case 'touch': return `${board}: ${pieceName(ev.piece)} on ${ev.square} lifted (touched)`;
      case 'piece_returned': return `${board}: ${pieceName(ev.piece)} on ${ev.square} lifted and put back — touched (touch-move)`;
      case 'board_mismatch': {
        const why = ev.reason === 'ambiguous'
          ? `several moves explain it${Array.isArray(ev.candidates) && ev.candidates.length ? ' (' + ev.candidates.map(squares).join(', ') + ')' : ''}`
          : ev.reason === 'takeback'
            ? `it shows an earlier position${ev.takeback_to_ply ? ', after ' + moveNumber(ev.takeback_to_ply) : ''}`
            : ev.reason === 'rook_first'
              ? 'castling begun with the rook (Art. 4.4.2): the rook move stands, the king goes back'
              : 'no legal move explains it';
        const diff = diffText(ev.diff);
        return `${board} does not show the game: ${why}${diff ? '. ' + diff : ''}`;
      }
      case 'board_restored': return `${board} shows the game again`;
      case 'setup_differs': return `${board} is set up unlike the start position: ${diffText(ev.diff)}`;
      case 'board_status': return ev.status === 'connected' ? `${board} connected` : `${board} not connected${ev.detail ? ': ' + ev.detail : ''}`;
      case 'button': return `${board}: button ${ev.button} ${ev.pressed ? 'pressed' : 'released'}`;
      case 'board_identity': return `${board} says: ${ev.text}`;
      case 'board_fault': return `${board} reports a fault: ${ev.text}`;
      case 'line_dropped': return `${board}: a garbled line ignored (${String(ev.reason || '').replace(/_/g, ' ')}), ${plural(Number(ev.total) || 0, 'line')} so far`;
      case 'announcement_checked':
        return ev.matches
          ? `${moveNumber(ev.ply)} announced as his board shows it`
          : `${moveNumber(ev.ply)} announced as ${squares(ev.said)}, but his board shows ${squares(ev.sensed)}: his clock waits until it is put right (D.2.8)`;
      case 'adjourned': return `Game adjourned: move ${moveNumber(ev.ply)} sealed in the envelope`;
      case 'adjournment_resumed': return 'The adjourned game resumed: the envelope opened';
      case 'taken_back': {
        const san = c.san ? c.san(ev.ply) : '';
        const p = ev.clock_proposal;
        const clocks = p && typeof p === 'object' ? ` — without it the clocks would show White ${formatClock(p.white_ms)}, Black ${formatClock(p.black_ms)}` : '';
        return `${moveNumber(ev.ply)}${san ? ' ' + san : ''} taken back${clocks}`;
      }
      case 'discrepancy': {
        const kind = ev.kind === 'records' ? 'the records differ' : 'a board does not show the game';
        const target = ev.agreed_ply ? `the position after ${moveNumber(ev.agreed_ply)}` : 'the start position';
        return `Discrepancy ${ev.id}: ${kind} — every board back to ${target}${ev.board ? ', correct the ' + boardName(ev.board) : ''}`;
      }
      case 'discrepancy_resolved': return `Discrepancy ${ev.id} resolved: every board shows the game`;
      case 'game_over': {
        if (ev.reason === 'new_game') return 'The unfinished game was closed for a new one (no result)';
        const words = RESULT_WORDS[ev.result];
        const reason = RESULT_REASONS[ev.reason] || String(ev.reason || ev.termination || '').replace(/_/g, ' ');
        return `Game over: ${ev.result}${words ? ` (${words})` : ''}${reason ? ' — ' + reason : ''}`;
      }
      case 'input_refused': {
        const what = REFUSED_INPUTS[ev.input] || String(ev.input || 'an input').replace(/_/g, ' ');
        const why = DEVICE_INPUTS.has(ev.input) && ev.reason ? `: ${ev.reason}` : '';
        return `Refused: ${what}${why}`;
      }
      case 'draw_offered': {
        const san = ev.ply && c.san ? c.san(ev.ply) : '';
        return `${sideName(ev.side)} offers a draw (=) ${ev.ply ? `after ${moveNumber(ev.ply)}${san ? ' ' + san : ''}` : 'before the first move'}`;
      }
      case 'draw_claimed': {
        const ground = ev.ground === 'fifty_moves' ? 'fifty moves' : 'threefold repetition';
        return `Draw claim by ${sideName(ev.side)}${ev.written ? ' with ' + ev.written : ''}: ${ev.correct ? 'correct (' + ground + ')' : 'incorrect'} — the position ${plural(Number(ev.repetitions) || 0, 'time')}, ${plural(Number(ev.moves_without_pawn_or_capture) || 0, 'move')} without a pawn move or capture`;
      }
      case 'draw_claim_decided': return `The arbiter confirmed: ${sideName(ev.side)}'s claim ${ev.correct ? 'correct, the game is drawn' : 'incorrect, Art. 9.5 applied'}`;
      case 'illegal_move_found': return `${moveNumber(ev.ply)} (${squares(ev.uci)}) by ${sideName(ev.side)} found illegal, his ${ordinal(ev.count)} illegal move: the position before it is back (Art. 7.4)`;
      case 'clock_pressed': return `${sideName(ev.side)} pressed the clock: ${formatClock(ev.remaining_ms)} left after ${plural(Number(ev.moves) || 0, 'move')}`;
      case 'clock_premature': {
        const missing = (Array.isArray(ev.missing) ? ev.missing : [ev.missing]).map((m) => MISSING[m] || String(m).replace(/_/g, ' ')).join(', and ');
        return `${sideName(ev.side)} pressed the clock too early: ${missing} (D.2.4)`;
      }
      case 'clock_changed': return clockChangedText(ev);
      case 'clock_warning': return warningText(ev.warning && typeof ev.warning === 'object' ? ev.warning : {});
      case 'flag_fell': return `${sideName(ev.side)}'s flag fell`;
      case 'announcement':
        if (ev.listener === 'log') return noteText(ev);
        return `${ev.listener === 'public' ? "Said on the opponent's speaker" : 'Said to the blind player'}: ${ev.text}`;
      case 'heard': return `Heard: "${ev.text || ''}" — ${heardText(ev.understood)}`;
      case 'device_status': {
        const device = DEVICES[ev.device] || upper(String(ev.device || 'a device').replace(/_/g, ' '));
        const name = ev.name ? ` (${ev.name})` : '';
        if (ev.status === 'missing_words') return `${device}${name} lacks the words: ${Array.isArray(ev.words) ? ev.words.join(', ') : ''}`;
        const status = { connected: 'connected', disconnected: 'not connected', unavailable: 'not available' }[ev.status] || String(ev.status || '').replace(/_/g, ' ');
        return `${device}${name} ${status}${ev.detail ? ': ' + ev.detail : ''}`;
      }
      case 'irregularity': return `Irregularity (${ev.article || '5.4'}) on the ${boardName(ev.board)}: ${ev.text}`;
      case 'irregularity_decided': {
        const steps = Array.isArray(ev.steps) && ev.steps.length ? `: ${ev.steps.join('; ')}` : '';
        return ev.decision === 'accept' ? 'The opponent lets the position stand (5.7)' : `The opponent wants it corrected${steps}`;
      }
      default: {
        // An event this page does not know yet: its kind in words, never its fields.
        return upper(String(ev.type || 'event').replace(/_/g, ' '));
      }
    }
  }

  /**
   * Keeps the page live: a WebSocket on /ws?state=1 (state snapshots and events),
   * reconnecting with back-off; while it is down, /api/state is polled every second.
   * handlers: onState(state), onEvent(event), onConnection(up).
   */
  function connect(handlers) {
    let pollTimer = null;
    // The console's stream carries its operator token (its own connection budget).
    const tokenOf = handlers.token || (() => '');
    let backoff = 500;
    let socket = null;
    const onState = handlers.onState || (() => {});
    const onEvent = handlers.onEvent || (() => {});
    const onConnection = handlers.onConnection || (() => {});

    async function poll() {
      try {
        const res = await fetch('/api/state', { cache: 'no-store' });
        if (res.ok) onState(await res.json());
      } catch (_) { /* the station is away; try again */ }
    }
    function startPolling() {
      if (pollTimer === null) pollTimer = setInterval(poll, 1000);
    }
    function stopPolling() {
      if (pollTimer !== null) clearInterval(pollTimer);
      pollTimer = null;
    }
    function open() {
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      try {
        const t = tokenOf();
        const query = t ? `?state=1&token=${encodeURIComponent(t)}` : '?state=1';
        socket = new WebSocket(`${proto}//${location.host}/ws${query}`);
      } catch (_) {
        startPolling();
        setTimeout(open, backoff);
        return;
      }
      socket.onopen = () => {
        backoff = 500;
        stopPolling();
        onConnection(true);
      };
      socket.onmessage = (msg) => {
        let v;
        try { v = JSON.parse(msg.data); } catch (_) { return; }
        if (!v || typeof v !== 'object') return;
        if (v.type === 'state') onState(v.state);
        else if (v.type === 'lagged') poll();
        else onEvent(v);
      };
      socket.onclose = () => {
        onConnection(false);
        startPolling();
        setTimeout(open, backoff);
        backoff = Math.min(backoff * 2, 5000);
      };
      socket.onerror = () => { try { socket.close(); } catch (_) { /* closing anyway */ } };
    }
    poll();
    open();
    // A slow safety net even while the socket is up.
    setInterval(() => { if (pollTimer === null) poll(); }, 15000);
    return {
      /** Opens the stream again (the console after its token was accepted). */
      reconnect() {
        if (socket) {
          socket.onclose = null;
          socket.onerror = null;
          try { socket.close(); } catch (_) { /* replaced below */ }
        }
        open();
      },
    };
  }

  /**
   * A page's words: `lang()` is the `?lang=` of its address when the page has
   * words in it, else `configured()` (a language from the state) when it has,
   * else English; `t(key)` is a word in it (English, then the key itself, where
   * a language lacks one).
   */
  function pageWords(text, configured) {
    const chosen = new URLSearchParams(location.search).get('lang');
    function lang() {
      if (chosen && text[chosen]) return chosen;
      const l = configured();
      return typeof l === 'string' && text[l] ? l : 'en';
    }
    return { lang, t: (key) => text[lang()][key] || text.en[key] || key };
  }

  /**
   * Keeps a read-only page (the mirror, the player's view) on the station's
   * state: `view.state` (the latest, or null), `view.receivedAt` (when it came,
   * for the running clocks) and `view.online` (the stream is up) are updated and
   * `render()` called on each change and once at once; `tick()` runs every
   * `everyMs` (the clocks' seconds). Events are not needed: the state that
   * follows every event carries what these pages show.
   */
  function follow(view, render, tick, everyMs) {
    connect({
      onState(s) {
        view.state = s && typeof s === 'object' ? s : null;
        view.receivedAt = Date.now();
        render();
      },
      onConnection(up) {
        view.online = up;
        render();
      },
    });
    setInterval(tick, everyMs);
    render();
  }

  /**
   * The last move as `lang` writes it: the station gives its SAN with each
   * language's piece letters (`sans`: Sf3 for Springer and skoczek); SAN otherwise.
   */
  function sanIn(last, lang) {
    const sans = last && last.sans && typeof last.sans === 'object' ? last.sans : {};
    return (typeof sans[lang] === 'string' && sans[lang]) || (last && last.san) || '';
  }

  /** A player's name from the state's tags (`white`/`black`), or "" when not named. */
  function playerName(state, side) {
    const tags = state && state.tags && typeof state.tags === 'object' ? state.tags : {};
    const v = tags[side];
    return typeof v === 'string' && v && v !== '?' ? v : '';
  }

  return {
    sanIn, playerName,
    pieceName, squareName, squareIndex, parseFen, fenTurn, parseOccupancy, drawBoard, drawDraughts,
    formatClock, formatTime, speakClock, clockNow, moveNumber, stepText, severity, describe, connect,
    pageWords, follow, plural, sideName,
  };
})();
