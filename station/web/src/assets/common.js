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

  // The text board in the mirror's languages: each piece's name once, then
  // its squares ("Weiß: König e1; Turm a1, h1"), so no plural is needed.
  const BOARD_WORDS = {
    de: { white: 'Weiß', black: 'Schwarz', none: 'keine Figuren', k: 'König', q: 'Dame', r: 'Turm', b: 'Läufer', n: 'Springer', p: 'Bauer', empty: 'Noch keine Stellung.' },
    pl: { white: 'Białe', black: 'Czarne', none: 'brak bierek', k: 'król', q: 'hetman', r: 'wieża', b: 'goniec', n: 'skoczek', p: 'pion', empty: 'Brak pozycji.' },
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
      // The mirror in German or Polish: the whole text board in its language.
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
    if (t === 'discrepancy' || t === 'board_mismatch' || t === 'board_fault' || t === 'game_over') return 'alert';
    if (t === 'board_status' && ev.status === 'disconnected') return 'alert';
    if (/flag|premature|illegal|warning|refused|error/.test(t)) return 'alert';
    if (t === 'game_move') return 'move';
    if (['touch', 'button', 'line_dropped', 'announcement', 'clock_pressed', 'board_identity'].includes(t)) return 'info';
    return 'warning';
  }

  /** One line of plain text for an event. */
  function describe(ev) {
    if (!ev || typeof ev !== 'object') return String(ev);
    const board = ev.board ? `${ev.board} board` : '';
    switch (ev.type) {
      case 'game_started': return `New game ${ev.game_id || ''} started`;
      case 'game_resumed': return `Game ${ev.game_id || ''} resumed after ${ev.ply} half-moves`;
      case 'move': return `${board}: ${moveNumber(ev.ply)} ${ev.san} sensed`;
      case 'move_revised': return `${board}: ${moveNumber(ev.ply)} revised to ${ev.san}`;
      case 'game_move': return `Move ${moveNumber(ev.ply)} ${ev.san}${ev.revised ? ' (revised)' : ''}, made on the ${ev.by} board`;
      case 'touch': return `Touch: ${pieceName(ev.piece)} on ${ev.square} (${board})`;
      case 'board_mismatch': {
        const diff = Array.isArray(ev.diff) ? ev.diff.map((d) => d.text || d.square).join('; ') : '';
        return `${board} does not match (${ev.reason})${diff ? ': ' + diff : ''}`;
      }
      case 'board_restored': return `${board} shows the game position again`;
      case 'setup_differs': return `${board} set up unlike the start position: ${Array.isArray(ev.diff) ? ev.diff.map((d) => d.text || d.square).join('; ') : ''}`;
      case 'board_status': return `${board} ${ev.status}${ev.detail ? ': ' + ev.detail : ''}`;
      case 'discrepancy': return `Discrepancy ${ev.id} (${ev.kind}): every board back to the position after ${ev.agreed_ply ? moveNumber(ev.agreed_ply) : 'the start'}${ev.board ? ', correct the ' + ev.board + ' board' : ''}`;
      case 'discrepancy_resolved': return `Discrepancy ${ev.id} resolved`;
      case 'game_over': return `Game over: ${ev.result} (${String(ev.reason || ev.termination || '').replace(/_/g, ' ')})`;
      // The reason is shown once, next to the control that sent it.
      case 'input_refused': return `Refused: ${String(ev.input || 'input').replace(/_/g, ' ')}`;
      case 'draw_offered': return `Draw offer (=) by ${ev.side} after ${ev.ply ? moveNumber(ev.ply) : 'the start'}`;
      case 'draw_claimed': return `Draw claim by ${ev.side}${ev.written ? ' with ' + ev.written : ''}: ${ev.correct ? 'correct (' + String(ev.ground).replace(/_/g, ' ') + ')' : 'incorrect'} — the position ${ev.repetitions} times, ${ev.moves_without_pawn_or_capture} moves without a pawn move or capture`;
      case 'draw_claim_decided': return `The arbiter confirmed: ${ev.side}'s claim ${ev.correct ? 'correct, the game is drawn' : 'incorrect, Art. 9.5 applied'}`;
      case 'illegal_move_found': return `Illegal move ${moveNumber(ev.ply)} (${ev.uci}) by ${ev.side}, number ${ev.count}: the position before it reinstated`;
      case 'line_dropped': return `${board}: line dropped (${ev.reason}), ${ev.total} so far`;
      case 'board_fault': return `${board} fault: ${ev.text}`;
      case 'board_identity': return `${board}: ${ev.text}`;
      case 'piece_returned': return `Touched and put back: ${pieceName(ev.piece)} on ${ev.square} (${board}) — touch-move evidence`;
      case 'clock_pressed': return `Clock pressed by ${ev.side} (${formatClock(ev.remaining_ms)} left, ${ev.moves} moves)`;
      case 'clock_premature': return `Premature clock press by ${ev.side}: still missing ${Array.isArray(ev.missing) ? ev.missing.join(', ').replace(/_/g, ' ') : ev.missing}`;
      case 'clock_changed': return `Clock ${String(ev.action).replace(/_/g, ' ')}${ev.side ? ' for ' + ev.side : ''}${ev.who ? ' by ' + ev.who : ''}${ev.why ? ' (' + ev.why + ')' : ''}`;
      case 'clock_warning': {
        const w = ev.warning && typeof ev.warning === 'object' ? ev.warning : {};
        return `Clock warning for ${w.side}: ${String(w.warning || '').replace(/_/g, ' ')} (${formatClock(w.remaining_ms)} left)`;
      }
      case 'flag_fell': return `FLAG FELL: ${ev.side}`;
      case 'announcement': return `Said (${ev.listener}): ${ev.text}`;
      case 'button': return `${board}: button ${ev.button} ${ev.pressed ? 'pressed' : 'released'}`;
      default: {
        const rest = Object.entries(ev)
          .filter(([k]) => k !== 'type' && k !== 't_ms')
          .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
          .join(', ');
        return `${String(ev.type || 'event').replace(/_/g, ' ')}${rest ? ' — ' + rest : ''}`;
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

  return {
    pieceName, squareName, squareIndex, parseFen, fenTurn, parseOccupancy, drawBoard, drawDraughts,
    formatClock, formatTime, speakClock, clockNow, moveNumber, stepText, severity, describe, connect,
    pageWords, follow,
  };
})();
