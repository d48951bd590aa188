// The operator console (assistant and arbiter, D.2.10): the state of both boards,
// the records, the clocks, the event log, and every operator command. Keyboard
// first: Alt+letter goes to a control, Enter does it; moves and alerts are read out.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'station-operator-token';
  const ROLE_NAMES = { blind: "Blind player's board (peg board)", mirror: "Sighted player's board" };
  let state = null;
  let receivedAt = Date.now();
  let online = false;
  let firstState = true;
  const localLog = [];
  const seenDiscrepancies = new Set();
  const announcedMoves = new Set();
  const renderedKeys = {};

  // ---- token -------------------------------------------------------------------------
  (function tokenFromUrlOnce() {
    const params = new URLSearchParams(location.search);
    const t = params.get('token');
    if (t) {
      sessionStorage.setItem(TOKEN_KEY, t);
      params.delete('token');
      const rest = params.toString();
      history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
    }
  })();
  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  }
  function tokenStatus(ok, text) {
    const s = $('token-status');
    s.textContent = text;
    s.className = ok ? 'ok' : 'bad';
  }
  // The token the station accepted: the event stream carries it (the consoles'
  // own connection budget); a refused one is not sent there.
  let streamToken = '';
  let live = null;
  async function checkToken() {
    const t = token();
    if (!t) {
      tokenStatus(false, 'No token yet: commands need it.');
      return false;
    }
    try {
      const res = await fetch('/api/auth', { headers: { Authorization: 'Bearer ' + t }, cache: 'no-store' });
      if (res.ok) {
        tokenStatus(true, 'Token accepted.');
        if (streamToken !== t) {
          streamToken = t;
          if (live) live.reconnect();
        }
        return true;
      }
      tokenStatus(false, 'Token refused.');
      return false;
    } catch (_) {
      tokenStatus(false, 'Cannot check the token: no connection.');
      return false;
    }
  }
  $('token-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = $('token').value.trim();
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    $('token').value = '';
    const ok = await checkToken();
    if (!ok) alertMessage('The operator token was refused.');
    else announce('Token accepted.');
  });

  // ---- speaking ------------------------------------------------------------------------
  function announce(text) {
    const region = $('announce');
    region.textContent = '';
    setTimeout(() => { region.textContent = text; }, 40);
  }
  function alertMessage(text, kind) {
    const box = $('alerts');
    const div = document.createElement('div');
    div.className = 'alert' + (kind === 'warning' ? ' warning' : '');
    const at = new Date().toLocaleTimeString();
    div.textContent = `${at} — ${text}`;
    box.prepend(div);
    while (box.children.length > 3) box.lastChild.remove();
    setTimeout(() => div.remove(), 60000);
  }

  // ---- commands ------------------------------------------------------------------------
  // A refusal is shown once, next to the control that caused it (`near`: the id
  // of its form or button; its `<near>-refusal` element holds the words), and
  // read out there; without such a place it is an alert.
  function refusalBox(near) {
    if (!near) return null;
    const existing = $(`${near}-refusal`);
    if (existing) return existing;
    const control = $(near);
    if (!control) return null;
    const box = document.createElement('p');
    box.id = `${near}-refusal`;
    box.className = 'refusal';
    box.setAttribute('role', 'alert');
    control.insertAdjacentElement('afterend', box);
    return box;
  }
  function refuse(near, text) {
    const box = refusalBox(near);
    if (!box) {
      alertMessage(text);
      return;
    }
    box.textContent = text;
    const field = box.closest('form') && box.closest('form').querySelector('input[type="text"], input:not([type]), textarea');
    if (field) field.setAttribute('aria-invalid', 'true');
  }
  function capitalised(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }
  function clearRefusal(near) {
    const box = near ? $(`${near}-refusal`) : null;
    if (!box) return;
    box.textContent = '';
    const form = box.closest('form');
    if (form) for (const f of form.querySelectorAll('[aria-invalid]')) f.removeAttribute('aria-invalid');
  }
  async function send(command, label, near) {
    const t = token();
    if (!t) {
      alertMessage(`${label}: enter the operator token first (Alt+K).`);
      $('token').focus();
      return null;
    }
    let res;
    try {
      res = await fetch('/api/command', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + t },
        body: JSON.stringify(command),
      });
    } catch (_) {
      refuse(near, `${label}: the station cannot be reached.`);
      return null;
    }
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    if (res.ok && body && body.confirm === true) {
      // A question, not a refusal: nothing was done yet (a move echoed back).
      clearRefusal(near);
      return body;
    }
    if (res.ok) {
      clearRefusal(near);
      announce(`${label}: done.`);
      $('result-line').textContent = `${new Date().toLocaleTimeString()} — ${label}: done.`;
      return body || {};
    }
    const reason = body && typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    if (res.status === 401) {
      tokenStatus(false, 'Token refused.');
      alertMessage(`${label}: the operator token was refused. Enter it again (Alt+K).`);
      return null;
    }
    // Beside its control the reason speaks for itself ("2. d5: no pawn can go to d5").
    refuse(near, near && refusalBox(near) ? capitalised(reason) : `${label} refused: ${reason}`);
    return null;
  }

  function parseTime(text) {
    const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})\s*$/.exec(text);
    if (m) return ((Number(m[1] || 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
    const minutes = /^\s*(\d+)\s*$/.exec(text);
    if (minutes) return Number(minutes[1]) * 60000;
    return null;
  }

  function parseScoresheet(text) {
    const results = new Set(['1-0', '0-1', '1/2-1/2', '½-½', '*']);
    const moves = [];
    for (let token of text.split(/\s+/)) {
      token = token.replace(/^\d+\.+(\.\.)?/, '').replace(/^…/, '');
      // A bare number is a move number, unless it is an ICCF numeric move
      // (5254, 67682: the station reads every Appendix A notation); "(=)"
      // marks a draw offer (Appendix E), not a move.
      const iccf = /^[1-8]{4}[1-4]?$/.test(token);
      if (!token || results.has(token) || token === '(=)' || (/^\d+$/.test(token) && !iccf)) continue;
      moves.push(token);
    }
    return moves;
  }

  function optional(v) {
    const s = String(v || '').trim();
    return s ? s : undefined;
  }

  $('clock-start').addEventListener('click', () => send({ cmd: 'clock_start' }, 'Start clock', 'clock-start'));
  $('clock-pause').addEventListener('click', () => send({ cmd: 'clock_pause' }, 'Pause clock', 'clock-pause'));
  $('clock-resume').addEventListener('click', () => send({ cmd: 'clock_resume' }, 'Resume clock', 'clock-resume'));
  $('read-status').addEventListener('click', () => announce(statusText()));
  $('take-back').addEventListener('click', () => send({ cmd: 'take_back' }, 'Take back', 'take-back'));
  $('resume-adjourned').addEventListener('click', () => send({ cmd: 'resume_adjourned' }, 'Resume adjourned game', 'resume-adjourned'));
  $('resume-replier-absent').addEventListener('click', () => send({ cmd: 'resume_replier_absent' }, 'Resumption without the replier (I.9.2)', 'resume-replier-absent'));
  $('open-envelope').addEventListener('click', () => send({ cmd: 'open_envelope' }, 'Envelope opened', 'open-envelope'));
  $('envelope-lost').addEventListener('click', () => send({ cmd: 'envelope_lost' }, 'Envelope lost (I.12.1)', 'envelope-lost'));
  $('form-seal-reply').addEventListener('submit', async (e) => {
    e.preventDefault();
    const sealed = $('reply-sealed').value.trim();
    if (!sealed) return;
    if (await send({ cmd: 'seal_reply', sealed_move: sealed }, 'Reply sealed in a new envelope (I.9.3)', 'form-seal-reply')) $('reply-sealed').value = '';
  });
  // Correcting a clock is asked first, as a DGT clock shows the new times
  // before its OK: Enter in any field (or the button) says what would change —
  // whose clock, the time it would show, the time it shows now — and only
  // "Yes" changes it; Escape or "No" keeps the clock. Adding time has its own
  // field, so a time meant to be added is never set as the remaining time.
  let pendingClock = null;
  function askClock(commands, text, yes, back) {
    pendingClock = { commands, back };
    $('clock-confirm-text').textContent = text;
    $('clock-confirm-yes').textContent = yes;
    $('clock-confirm').hidden = false;
    $('clock-confirm-yes').focus();
    announce(text);
  }
  function closeClockConfirm(focus) {
    const back = pendingClock && pendingClock.back;
    pendingClock = null;
    $('clock-confirm').hidden = true;
    if (focus && back && $(back)) $(back).focus();
  }
  function byWhom(who, why) {
    return `${who ? ` Corrected by ${who}` : ''}${why ? `${who ? '' : ' Reason'}: ${why}` : ''}${who || why ? '.' : ''}`;
  }
  $('form-set-time').addEventListener('submit', (e) => {
    e.preventDefault();
    const setText = $('set-time-value').value.trim();
    const addText = $('add-time-value').value.trim();
    const field = document.activeElement && document.activeElement.id === 'add-time-value' ? 'add-time-value' : 'set-time-value';
    if (!setText && !addText) {
      refuse('form-set-time', 'Write the new remaining time, or the time to add.');
      $('set-time-value').focus();
      return;
    }
    if (setText && addText) {
      refuse('form-set-time', 'Fill one of the two: the new remaining time, or the time to add.');
      $(field).focus();
      return;
    }
    const adding = Boolean(addText);
    const ms = parseTime(adding ? addText : setText);
    if (ms === null) {
      refuse('form-set-time', 'Write the time as h:mm:ss, m:ss or whole minutes.');
      $(adding ? 'add-time-value' : 'set-time-value').focus();
      return;
    }
    clearRefusal('form-set-time');
    const side = $('set-time-side').value;
    const who = optional($('set-time-who').value), why = optional($('set-time-why').value);
    const name = Station.sideName(side);
    const now = Station.clockNow(state && state.clock, receivedAt)[side];
    const shows = typeof now === 'number' ? ` It shows ${Station.formatClock(now)} now.` : '';
    const back = adding ? 'add-time-value' : 'set-time-value';
    if (adding) {
      const to = typeof now === 'number' ? ` to ${Station.formatClock(now + ms)}` : '';
      askClock([{ cmd: 'add_time', side, ms, who, why }],
        `Add ${Station.formatClock(ms)} to ${name}'s clock${to}?${shows}${byWhom(who, why)}`,
        `Yes, add ${Station.formatClock(ms)} to ${name}'s clock`, back);
      return;
    }
    askClock([{ cmd: 'set_time', side, ms, who, why }],
      `Set ${name}'s clock to ${Station.formatClock(ms)}?${shows}${byWhom(who, why)}`,
      `Yes, set ${name}'s clock to ${Station.formatClock(ms)}`, back);
  });
  $('clock-confirm-yes').addEventListener('click', async () => {
    const pending = pendingClock;
    if (!pending) return;
    closeClockConfirm(false);
    let ok = true;
    for (const command of pending.commands) {
      const label = clockCommandLabel(command);
      if (!await send(command, label, 'form-set-time')) ok = false;
    }
    if (ok && pending.back === 'set-moves-value') $('set-moves-value').value = '';
    else if (ok) {
      $('set-time-value').value = '';
      $('add-time-value').value = '';
    }
    if (pending.back && $(pending.back)) $(pending.back).focus();
  });
  $('clock-confirm-no').addEventListener('click', () => {
    closeClockConfirm(true);
    announce('The clock is kept as it is.');
  });
  $('clock-confirm').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      closeClockConfirm(true);
      announce('The clock is kept as it is.');
    }
  });
  function clockCommandLabel(c) {
    const name = Station.sideName(c.side);
    if (c.cmd === 'add_time') return `${Station.formatClock(c.ms)} added to ${name}'s clock`;
    if (c.cmd === 'set_time') return `${name}'s clock set to ${Station.formatClock(c.ms)}`;
    if (c.cmd === 'set_moves') return `The move counter set to ${c.moves}`;
    return 'Clock corrected';
  }
  $('form-press').addEventListener('submit', (e) => {
    e.preventDefault();
    const side = $('press-side').value;
    send({ cmd: 'clock_press', side }, `Clock pressed for ${Station.sideName(side)}`, 'form-press');
  });
  $('form-set-moves').addEventListener('submit', (e) => {
    e.preventDefault();
    const moves = Number($('set-moves-value').value);
    if ($('set-moves-value').value === '' || !Number.isInteger(moves) || moves < 0) {
      refuse('form-set-moves', 'Set move counter: a whole number, 0 or more.');
      return;
    }
    clearRefusal('form-set-moves');
    const who = optional($('set-moves-who').value), why = optional($('set-moves-why').value);
    const now = state && state.clock && typeof state.clock.moves === 'number' ? ` It counts ${state.clock.moves} now.` : '';
    $('corrections').open = true;
    askClock([{ cmd: 'set_moves', moves, who, why }], `Set the move counter to ${moves}?${now}${byWhom(who, why)}`,
      `Yes, set the move counter to ${moves}`, 'set-moves-value');
  });
  // A move is read in the notation it is written in; one whose reading needed
  // more (a lower-case letter, a missing x or +) is said back and counts once
  // confirmed ("Yes", Enter); "No" or Escape goes back to the field to correct it.
  let pendingEcho = null;
  function closeEcho(focusMove) {
    pendingEcho = null;
    $('move-echo').hidden = true;
    if (focusMove) {
      $('move').focus();
      $('move').select();
    }
  }
  $('form-move').addEventListener('submit', async (e) => {
    e.preventDefault();
    const mv = $('move').value.trim();
    if (!mv) return;
    closeEcho(false);
    const body = await send({ cmd: 'enter_move', move: mv }, `Enter move ${mv}`, 'form-move');
    if (body && body.confirm === true) {
      pendingEcho = mv;
      const text = typeof body.text === 'string' ? body.text : `${body.number || ''} ${body.san || mv}`;
      const words = typeof body.words === 'string' && body.words ? ` (${body.words})` : '';
      const needed = Array.isArray(body.needed) && body.needed.length ? ` You wrote ${mv}: ${body.needed.join(', ')}.` : '';
      $('move-echo-text').textContent = `${text}?${words}${needed} Enter it?`;
      $('move-echo-yes').textContent = `Yes, enter ${text}`;
      $('move-echo').hidden = false;
      $('move-echo-yes').focus();
      announce($('move-echo-text').textContent);
      return;
    }
    if (body) $('move').value = '';
  });
  $('move-echo-yes').addEventListener('click', async () => {
    const mv = pendingEcho;
    if (!mv) return;
    closeEcho(false);
    const body = await send({ cmd: 'enter_move', move: mv, confirm: true }, `Enter move ${mv}`, 'form-move');
    if (body) $('move').value = '';
    $('move').focus();
  });
  $('move-echo-no').addEventListener('click', () => closeEcho(true));
  $('move-echo').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      closeEcho(true);
    }
  });
  $('form-scoresheet').addEventListener('submit', async (e) => {
    e.preventDefault();
    const moves = parseScoresheet($('scoresheet').value);
    if (!moves.length) {
      refuse('form-scoresheet', 'Scoresheet: no moves found.');
      return;
    }
    await send({ cmd: 'scoresheet', moves }, 'Scoresheet', 'form-scoresheet');
  });
  $('form-draw').addEventListener('submit', (e) => {
    e.preventDefault();
    const side = $('draw-side').value;
    send({ cmd: 'draw_offer', side }, `Draw offer by ${Station.sideName(side)}`, 'form-draw');
  });
  $('accept-draw').addEventListener('click', () => {
    send({ cmd: 'accept_draw' }, 'Draw by agreement', 'accept-draw');
  });
  $('form-claim').addEventListener('submit', async (e) => {
    e.preventDefault();
    const side = $('claim-side').value;
    const mv = $('claim-move').value.trim();
    const command = { cmd: 'claim_draw', side };
    if (mv) command.move = mv;
    const body = await send(command, `Draw claim by ${Station.sideName(side)}`, 'form-claim');
    if (!body || !body.result) return;
    const r = body.result;
    const facts = `the position ${r.repetitions} times, ${r.moves_without_pawn_or_capture} moves without a pawn move or capture`;
    const written = r.written ? ` with ${r.written}` : '';
    $('claim-verdict').textContent = r.correct
      ? `Claim${written} correct (${r.ground === 'fifty_moves' ? 'fifty moves' : 'threefold repetition'}): ${facts}. Confirm to end the game as a draw.`
      : `Claim${written} incorrect: ${facts}. Confirm to apply Art. 9.5 (3 minutes to the opponent).`;
    $('confirm-claim').disabled = false;
  });
  $('confirm-claim').addEventListener('click', async () => {
    const body = await send({ cmd: 'confirm_claim' }, 'Verdict on the draw claim', 'confirm-claim');
    if (body) {
      $('confirm-claim').disabled = true;
      $('claim-verdict').textContent = 'Verdict confirmed.';
    }
  });
  // "21." is White's 21st move, "21..." (or "21…") Black's: the ply the command takes,
  // counted from the game's start (its first move number and side from the start FEN).
  function plyOfNumber(text) {
    const m = /^\s*(\d+)\s*(\.\.\.|…|\.)?/.exec(text);
    if (!m) return null;
    const n = Number(m[1]);
    const black = m[2] === '...' || m[2] === '…';
    const f = state && typeof state.start_fen === 'string' ? state.start_fen.trim().split(/\s+/) : [];
    const first = Number(f[5]) > 0 ? Number(f[5]) : 1;
    const startsBlack = f[1] === 'b';
    const ply = (n - first) * 2 + (black ? 2 : 1) - (startsBlack ? 1 : 0);
    return ply >= 1 ? ply : null;
  }
  $('form-illegal').addEventListener('submit', async (e) => {
    e.preventDefault();
    const written = $('illegal-move').value.trim();
    const ply = plyOfNumber(written);
    if (!ply) {
      refuse('form-illegal', 'Illegal move: write its number as on the scoresheet, 21. for White\'s move, 21... for Black\'s.');
      return;
    }
    if (await send({ cmd: 'illegal_move', ply }, `Illegal move ${Station.moveNumber(ply)}`, 'form-illegal')) $('illegal-move').value = '';
  });
  $('form-result').addEventListener('submit', async (e) => {
    e.preventDefault();
    const result = $('result-value').value;
    const reason = $('result-reason').value.trim();
    if (!reason) {
      refuse('form-result', 'Result: say how the game ended (e.g. White resigned).');
      $('result-reason').focus();
      return;
    }
    if (await send({ cmd: 'result', result, reason }, `Result ${result} (${reason})`, 'form-result')) $('result-reason').value = '';
  });
  $('form-setup-moves').addEventListener('submit', async (e) => {
    e.preventDefault();
    const moves = parseScoresheet($('setup-moves').value);
    if (!moves.length) {
      refuse('form-setup-moves', 'New game from the scoresheet: no moves found.');
      return;
    }
    await send({ cmd: 'new_game', moves }, `New game from ${moves.length} half-moves`, 'form-setup-moves');
  });
  $('form-flag').addEventListener('submit', (e) => {
    e.preventDefault();
    const side = $('flag-side').value;
    send({ cmd: 'claim_flag', side }, `Flag claim: ${Station.sideName(side)}'s flag`, 'form-flag');
  });
  $('form-new').addEventListener('submit', (e) => {
    e.preventDefault();
    const kind = document.querySelector('input[name="start"]:checked').value;
    const command = { cmd: 'new_game' };
    for (const tag of ['white', 'black', 'event', 'site', 'round', 'board']) {
      const v = optional($(`new-${tag}`).value);
      if (v) command[tag] = v;
    }
    let what = 'standard position';
    if (kind === 'fen') {
      const fen = $('new-fen').value.trim();
      if (!fen) {
        refuse('form-new', 'New game: write the FEN first.');
        $('new-fen').focus();
        return;
      }
      command.fen = fen;
      what = 'the FEN ' + fen;
    } else if (kind === 'chess960') {
      const n = Number($('new-960').value);
      if ($('new-960').value === '' || !Number.isInteger(n) || n < 0 || n > 959) {
        refuse('form-new', 'New game: the Chess960 number is 0 to 959.');
        $('new-960').focus();
        return;
      }
      command.chess960 = n;
      what = 'Chess960 position ' + n;
    }
    // Asked in the page, not in a browser dialog: a screen reader reads it in place
    // and the keyboard stays on the page (Enter on "Yes", Escape or "No" to keep the game).
    pendingNewGame = command;
    const names = command.white || command.black ? ` (${command.white || '?'} – ${command.black || '?'})` : '';
    $('new-confirm-text').textContent = `Start a new game${names} from ${what}? The current game stays in the journal.`;
    $('new-confirm').hidden = false;
    $('new-confirm-yes').focus();
    announce($('new-confirm-text').textContent);
  });
  let pendingNewGame = null;
  function closeNewConfirm(focusId) {
    pendingNewGame = null;
    $('new-confirm').hidden = true;
    $(focusId).focus();
  }
  $('new-confirm-yes').addEventListener('click', async () => {
    const command = pendingNewGame;
    if (!command) return;
    closeNewConfirm('h-new');
    await send(command, 'New game', 'form-new');
  });
  $('new-confirm-no').addEventListener('click', () => {
    closeNewConfirm('h-new');
    announce('No new game.');
  });
  $('new-confirm').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      closeNewConfirm('h-new');
      announce('No new game.');
    }
  });

  // A take-back keeps the clock as it is; when the move's clock was pressed the
  // station proposes the clocks without it (the time its mover spent given back,
  // its increment withdrawn) and the arbiter decides (Art. 7, as the D.2.9
  // proposal): "Yes" sets both clocks, "No" or Escape keeps them. The proposal
  // stands until a move, a clock correction or a new game.
  const keptTakeBacks = new Set();
  let shownTakeBack = null;
  function openTakeBack() {
    const log = state && Array.isArray(state.log) ? state.log : localLog;
    let open = null;
    log.forEach((ev, index) => {
      if (!ev || typeof ev !== 'object') return;
      if (ev.type === 'taken_back') open = ev.clock_proposal && typeof ev.clock_proposal === 'object' ? { ev, index } : null;
      else if (['game_move', 'game_started', 'game_over'].includes(ev.type)) open = null;
      else if (ev.type === 'clock_changed' && ['time_set', 'time_added'].includes(ev.action)) open = null;
    });
    if (!open) return null;
    const key = `${open.ev.t_ms}:${open.ev.ply}`;
    if (keptTakeBacks.has(key)) return null;
    let san = '';
    for (let i = open.index - 1; i >= 0 && !san; i--) {
      const e = log[i];
      if (e && e.type === 'game_move' && e.ply === open.ev.ply) san = e.san;
    }
    return { key, ev: open.ev, move: `${Station.moveNumber(open.ev.ply)}${san ? ' ' + san : ''}` };
  }
  function renderTakeBack() {
    const open = openTakeBack();
    const box = $('take-back-clocks');
    const key = open ? open.key : null;
    if (key === shownTakeBack) return;
    shownTakeBack = key;
    if (!open) {
      box.hidden = true;
      return;
    }
    const p = open.ev.clock_proposal;
    const fmt = Station.formatClock;
    const now = Station.clockNow(state && state.clock, receivedAt);
    const mover = open.ev.ply % 2 === 1 ? 'White' : 'Black';
    const text = `${open.move} taken back. Without it the clocks would show White ${fmt(p.white_ms)} and Black ${fmt(p.black_ms)} `
      + `(they show White ${fmt(now.white)} and Black ${fmt(now.black)}): the time ${mover} spent on it given back, its increment withdrawn. `
      + 'Set the clocks so (Art. 7)?';
    $('take-back-clocks-text').textContent = text;
    $('take-back-clocks-yes').textContent = `Yes, set White ${fmt(p.white_ms)} and Black ${fmt(p.black_ms)}`;
    box.hidden = false;
    // The arbiter who just took the move back decides now; anyone else hears it.
    if (document.activeElement === $('take-back')) $('take-back-clocks-yes').focus();
    announce(text);
  }
  $('take-back-clocks-yes').addEventListener('click', async () => {
    const open = openTakeBack();
    if (!open) return;
    const p = open.ev.clock_proposal;
    const why = `take-back of ${open.move} (Art. 7): the clocks as before it`;
    keptTakeBacks.add(open.key);
    for (const [side, ms] of [['white', p.white_ms], ['black', p.black_ms]]) {
      await send({ cmd: 'set_time', side, ms, who: 'arbiter', why }, `${Station.sideName(side)}'s clock set to ${Station.formatClock(ms)}`, 'take-back');
    }
    renderTakeBack();
    $('take-back').focus();
  });
  function keepTakeBackClocks() {
    const open = openTakeBack();
    if (open) keptTakeBacks.add(open.key);
    renderTakeBack();
    $('take-back').focus();
    announce('The clocks are kept as they are.');
  }
  $('take-back-clocks-no').addEventListener('click', keepTakeBackClocks);
  $('take-back-clocks').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      keepTakeBackClocks();
    }
  });

  // Adjournment and its envelope (Guidelines I.2).
  for (const input of document.querySelectorAll('#form-adjourn [data-auto]')) {
    input.addEventListener('input', () => { input.dataset.dirty = '1'; });
  }
  function prefillAdjourn() {
    if (!state) return;
    const now = Station.clockNow(state.clock, receivedAt);
    const values = {
      'adj-fen': state.fen || '',
      'adj-white-time': Station.formatClock(now.white),
      'adj-black-time': Station.formatClock(now.black),
      'adj-sealer': state.turn === 'black' ? 'black' : 'white',
      'adj-number': fullMoveNumber(),
    };
    // The players' names from the game's tags (new_game or the config's [tags]).
    const tags = state.tags && typeof state.tags === 'object' ? state.tags : {};
    for (const side of ['white', 'black']) {
      if (typeof tags[side] === 'string' && tags[side] && tags[side] !== '?') values[`adj-${side}`] = tags[side];
    }
    for (const [id, value] of Object.entries(values)) {
      const input = $(id);
      if (!input.dataset.dirty && document.activeElement !== input) input.value = String(value);
    }
  }
  function fullMoveNumber() {
    const f = typeof (state && state.fen) === 'string' ? state.fen.trim().split(/\s+/) : [];
    const n = Number(f[5]);
    if (Number.isInteger(n) && n > 0) return n;
    const plies = state && Array.isArray(state.moves) ? state.moves.length : 0;
    return Math.floor(plies / 2) + 1;
  }
  $('form-adjourn').addEventListener('submit', async (e) => {
    e.preventDefault();
    const sealed = $('adj-sealed').value.trim();
    if (!sealed) return;
    const command = { cmd: 'adjourn', sealed_move: sealed };
    const left = parseInt($('adj-session-left').value, 10);
    if (left > 0) command.session_left_ms = left * 60000;
    const ok = await send(command, 'Adjourn with a sealed move', 'form-adjourn');
    if (!ok) return;
    $('adj-sealed').value = '';
    const v = (id) => $(id).value.trim();
    const sealer = v('adj-sealer');
    const sealerName = sealer === 'white' ? v('adj-white') : v('adj-black');
    const draw = v('adj-draw');
    const lines = [
      'SEALED MOVE — ADJOURNED GAME (FIDE Laws of Chess, Guidelines I.2)',
      '',
      `Game:                        ${(state && state.game_id) || ''}`,
      `White (I.2.1):               ${v('adj-white')}`,
      `Black (I.2.1):               ${v('adj-black')}`,
      `Position before the sealed move (I.2.2), FEN:`,
      `  ${v('adj-fen')}`,
      `Time on the clocks (I.2.3):  White ${v('adj-white-time')}, Black ${v('adj-black-time')}`,
      `Sealed by (I.2.4):           ${sealer === 'white' ? 'White' : 'Black'}${sealerName ? ' — ' + sealerName : ''}`,
      `Number of the sealed move (I.2.5): ${v('adj-number')}`,
      `Draw offer before adjournment (I.2.6): ${draw ? 'by ' + (draw === 'white' ? 'White' : 'Black') : 'none'}`,
      `Resumption (I.2.7):          ${v('adj-resume-at').replace('T', ' ')}${v('adj-place') ? ', ' + v('adj-place') : ''}`,
      `Move sealed at:              ${new Date().toLocaleString()}`,
      '',
      'Arbiter (I.3): ______________________',
    ];
    const text = lines.join('\n');
    $('envelope').textContent = text;
    const link = $('download-envelope');
    if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
    link.dataset.url = URL.createObjectURL(new Blob([text + '\n'], { type: 'text/plain' }));
    link.href = link.dataset.url;
    $('envelope-box').hidden = false;
    $('h-envelope').focus();
  });
  $('print-envelope').addEventListener('click', () => window.print());

  // ---- pre-round check -------------------------------------------------------------------
  // `GET /api/doctor` runs `station doctor`'s checks on this station's config;
  // one line per item, the failures first, each level said as a word.
  const LEVEL_RANK = { fail: 0, warn: 1, ok: 2 };
  let doctorRunning = false;
  function doctorLine(f) {
    const todo = f.todo ? h('span', { class: 'doctor-todo' }, ` What to do: ${f.todo}`) : '';
    return h('li', { class: `doctor-line level-${f.level}` },
      h('strong', { class: 'doctor-level' }, f.level), ' ',
      h('span', { class: 'doctor-item' }, f.item), ': ',
      h('span', { class: 'doctor-found' }, f.found), todo);
  }
  async function runDoctor() {
    if (doctorRunning) return;
    const t = token();
    if (!t) {
      refuse('doctor-run', 'Pre-round check: enter the operator token first (Alt+K).');
      return;
    }
    doctorRunning = true;
    const button = $('doctor-run');
    const list = $('doctor-list');
    // Not `disabled`: the focus stays on the button while it runs.
    button.setAttribute('aria-disabled', 'true');
    list.setAttribute('aria-busy', 'true');
    $('doctor-summary').textContent = 'Checking… ports, sound and speech models take a few seconds.';
    let res = null;
    let body = null;
    try {
      res = await fetch('/api/doctor', { headers: { Authorization: 'Bearer ' + t }, cache: 'no-store' });
      body = await res.json();
    } catch (_) {
      body = null;
    } finally {
      doctorRunning = false;
      button.removeAttribute('aria-disabled');
      list.removeAttribute('aria-busy');
    }
    if (!res || !res.ok || !body || !Array.isArray(body.findings)) {
      const reason = body && typeof body.error === 'string' ? body.error
        : res ? `HTTP ${res.status}` : 'the station cannot be reached';
      if (res && res.status === 401) tokenStatus(false, 'Token refused.');
      $('doctor-summary').textContent = '';
      refuse('doctor-run', `Pre-round check: ${reason}`);
      return;
    }
    clearRefusal('doctor-run');
    const sorted = body.findings
      .map((f, i) => [f, i])
      .sort((a, b) => (LEVEL_RANK[a[0].level] - LEVEL_RANK[b[0].level]) || (a[1] - b[1]))
      .map(([f]) => f);
    list.replaceChildren(...sorted.map(doctorLine));
    list.hidden = false;
    const at = new Date().toLocaleTimeString();
    $('doctor-summary').textContent = `${body.summary} (checked at ${at}, ${body.config}).`;
  }
  $('doctor-run').addEventListener('click', runDoctor);

  // ---- keyboard --------------------------------------------------------------------------
  function go(element, say) {
    if (!element) return;
    const details = element.closest('details');
    if (details && !details.open) details.open = true;
    element.focus();
    element.scrollIntoView({ block: 'nearest' });
    if (say) announce(say);
  }
  // Paused, not merely not started yet: Alt+P then offers Resume.
  function paused() {
    const c = state && state.clock;
    return Boolean(c && c.running === false && !c.flag && (c.started === true || c.moves > 0));
  }
  const SHORTCUTS = {
    S: () => go($('clock-start')),
    P: () => go(paused() ? $('clock-resume') : $('clock-pause')),
    Q: () => go($('press-side')),
    R: () => announce(statusText()),
    C: () => go($('set-time-side')),
    M: () => go($('move')),
    T: () => go($('take-back')),
    W: () => go($('scoresheet')),
    X: () => go(document.querySelector('#discrepancies h3') || $('h-disc')),
    A: () => {
      const irregular = $('irregularity-accept');
      if (irregular) return go(irregular);
      const accept = document.querySelector('#discrepancies button.accept');
      if (accept) go(accept);
      else go($('h-disc'), 'There is no clock proposal to accept.');
    },
    Z: () => {
      const correct = $('irregularity-correct');
      if (correct) go(correct);
      else go($('h-disc'), 'No draughts irregularity waits for a decision.');
    },
    B: () => go($('h-boards')),
    Y: () => go($('notation')),
    O: () => go($('draw-side')),
    G: () => go($('flag-side')),
    D: () => go($('claim-side')),
    I: () => go($('illegal-move')),
    F: () => go($('result-value')),
    J: () => go($('adj-white')),
    U: () => go($('resume-adjourned')),
    E: () => go($('resume-replier-absent')),
    V: () => go($('export-pgn')),
    N: () => go(document.querySelector('input[name="start"]:checked')),
    L: () => go($('h-log')),
    K: () => go($('token')),
    H: () => go($('h-keys')),
    // Every letter is taken: the pre-round check is Alt+0 (not a browser's tab key, which are 1–9).
    0: () => go($('doctor-run')),
  };
  document.addEventListener('keydown', (e) => {
    if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.getModifierState && e.getModifierState('AltGraph')) return;
    let letter = null;
    const code = /^(?:Key([A-Z])|Digit(0))$/.exec(e.code || '');
    if (code) letter = code[1] || code[2];
    else if (typeof e.key === 'string' && /^[a-z]$/i.test(e.key)) letter = e.key.toUpperCase();
    const action = letter && SHORTCUTS[letter];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  }, true);

  // ---- rendering -------------------------------------------------------------------------
  function renderKeyed(id, key, build) {
    if (renderedKeys[id] === key) return false;
    const container = $(id);
    const active = document.activeElement;
    const focusedId = active && container.contains(active) ? active.id : null;
    build(container);
    renderedKeys[id] = key;
    if (focusedId) {
      const again = document.getElementById(focusedId);
      if (again) again.focus();
      else {
        const section = container.closest('section');
        const heading = section && section.querySelector('h2');
        if (heading) heading.focus();
      }
    }
    return true;
  }

  function h(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function plyText(ply) {
    if (!ply) return 'the start position';
    const moves = state && Array.isArray(state.moves) ? state.moves : [];
    const m = moves.find((x) => x && x.ply === ply) || moves[ply - 1];
    return `${Station.moveNumber(ply)} ${m && m.san ? m.san : ''}`.trim();
  }

  function boards() {
    return state && Array.isArray(state.boards) ? state.boards.filter((b) => b && typeof b === 'object') : [];
  }

  function statusText() {
    if (!state) return 'No state from the station yet.';
    const now = Station.clockNow(state.clock, receivedAt);
    const parts = [`White ${Station.speakClock(now.white)}, Black ${Station.speakClock(now.black)}.`];
    if (state.turn) parts.push(`${state.turn === 'white' ? 'White' : 'Black'} to move.`);
    if (state.clock) parts.push(`Clock ${clockState(state.clock)}, ${Station.plural(state.clock.moves || 0, 'move')}.`);
    if (state.last_move) parts.push(`Last move ${plyText(state.last_move.ply)}.`);
    const open = Array.isArray(state.discrepancies) ? state.discrepancies.length : 0;
    if (open) parts.push(`${open} open discrepanc${open === 1 ? 'y' : 'ies'}.`);
    if (state.waiting_for_execution) parts.push('Move announced, waiting for it to be made on the board.');
    if (state.clock && state.clock.flag) parts.push(`${Station.sideName(state.clock.flag)}'s flag has fallen.`);
    if (state.phase && state.phase !== 'playing') parts.push(`${upperFirst(PHASES[state.phase] || state.phase)}.`);
    return parts.join(' ');
  }

  // The start position the station plays or waits for: a Chess960 start by its
  // number (ICCF Appendix B) with White's first rank, as the blind player hears it.
  const PIECE_NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
  function startText(st) {
    if (!st || typeof st !== 'object') return '';
    const rank = typeof st.first_rank === 'string' ? st.first_rank : '';
    const pieces = [...rank].map((c, i) => (PIECE_NAMES[c] ? `${'abcdefgh'[i]}1 ${PIECE_NAMES[c]}` : null)).filter(Boolean).join(', ');
    if (st.chess960 === 518) return 'Start position: standard.';
    if (Number.isInteger(st.chess960)) return `Start position: Chess960 number ${st.chess960}. White's first rank: ${pieces} (Black's mirrors it).`;
    return `Start position: from a FEN. White's first rank: ${pieces}.`;
  }

  const PHASES = { waiting: 'waiting for the start position', playing: 'game on', finished: 'game over' };
  function renderHeader() {
    const s = state || {};
    // The players first, as on a scoresheet: who plays whom, round and board.
    const tags = s.tags && typeof s.tags === 'object' ? s.tags : {};
    const named = (v) => typeof v === 'string' && v && v !== '?';
    let players = '';
    if (named(tags.white) || named(tags.black)) {
      players = `White: ${named(tags.white) ? tags.white : 'not named'} · Black: ${named(tags.black) ? tags.black : 'not named'}`;
    } else if (state) players = 'The players are not named (New game, Alt+N)';
    const round = [named(tags.round) ? `round ${tags.round}` : '', named(tags.board) ? `board ${tags.board}` : ''].filter(Boolean);
    if (round.length) players += ` · ${round.join(', ')}`;
    if ($('players').textContent !== players) $('players').textContent = players;
    const bits = [];
    if (s.phase) bits.push(PHASES[s.phase] || s.phase);
    if (s.turn && s.phase === 'playing') bits.push(`${Station.sideName(s.turn)} to move`);
    if (s.blind_color) bits.push(`blind player: ${Station.sideName(s.blind_color)}`);
    if (s.waiting_for_execution) bits.push('move to be made on the board');
    if (s.adjourned === true) bits.push('adjourned (sealed move in the envelope)');
    $('game-line').textContent = state ? bits.join(' · ') : 'no state from the station yet';
    const id = s.game_id ? `Journal: ${s.game_id}` : '';
    if ($('game-id').textContent !== id) $('game-id').textContent = id;
    const result = resultText(s);
    const box = $('game-result');
    if (box.textContent !== result) box.textContent = result;
    box.hidden = !result;
    const last = s.last_move && typeof s.last_move === 'object' ? s.last_move : null;
    $('last-move').textContent = last ? `${Station.moveNumber(last.ply)} ${last.san}${last.text && last.text.en ? ' (' + last.text.en + ')' : ''}` : '—';
    const start = startText(s.start);
    if ($('start-line').textContent !== start) $('start-line').textContent = start;
    const conn = $('conn');
    conn.textContent = online ? 'live' : 'offline (polling)';
    conn.className = `conn ${online ? 'up' : 'down'}`;
  }

  // A finished game's result and how it ended, from the state (`result`:
  // {result, reason, termination}; older stations gave the result alone).
  function resultText(s) {
    const r = s && s.result;
    let result = '';
    let reason = '';
    if (r && typeof r === 'object') {
      result = typeof r.result === 'string' ? r.result : '';
      reason = typeof r.reason === 'string' ? r.reason : (typeof r.termination === 'string' ? r.termination : '');
    } else if (typeof r === 'string') result = r;
    if (!result || result === '*') return '';
    const words = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'draw', '1-1': 'draw' }[result];
    return `Result: ${result}${words ? ` (${words})` : ''}${reason ? ` — ${reason.replace(/_/g, ' ')}` : ''}`;
  }

  // The board shows another position than the game's start before its first
  // move (a set-up that differs, or a board not matching): the game may start
  // from the scoresheet so far, or from a FEN.
  function setupDiffers(s) {
    if (!s || (Array.isArray(s.moves) && s.moves.length)) return false;
    const log = Array.isArray(s.log) ? s.log : localLog;
    let differs = false;
    for (const ev of log) {
      if (!ev || typeof ev !== 'object') continue;
      if (ev.type === 'setup_differs') differs = true;
      else if (ev.type === 'game_started' || ev.type === 'board_restored') differs = false;
    }
    if (s.phase === 'waiting' && boards().some((b) => b.role !== 'agreed' && Array.isArray(b.diff) && b.diff.length)) differs = true;
    if (s.phase === 'playing' && boards().some((b) => b.agreement === 'mismatch')) differs = true;
    return differs;
  }
  function renderSetupOffer() {
    const show = setupDiffers(state);
    const box = $('setup-offer');
    if (box.hidden === !show) return;
    box.hidden = !show;
    if (show) {
      const text = 'A board shows another position than the start of the game. If the game was played on, start it from the scoresheet so far (below), or from a FEN (Alt+N, "From a FEN").';
      $('setup-offer-text').textContent = text;
      alertMessage(text);
    }
  }

  function renderClocks() {
    const clock = state && state.clock;
    const now = Station.clockNow(clock, receivedAt);
    const onMove = (clock && clock.on_move) || (state && state.turn);
    for (const side of ['white', 'black']) {
      $(`time-${side}`).textContent = Station.formatClock(now[side]);
      $(`clock-${side}`).classList.toggle('on-move', onMove === side);
      $(`onmove-${side}`).textContent = onMove === side ? '▶ on move' : '';
    }
    const bits = [];
    if (clock) {
      bits.push(clockState(clock));
      if (clock.started !== false || clock.moves) bits.push(`move counter ${clock.moves || 0}`);
      if (clock.flag) bits.push(`FLAG FALLEN: ${Station.sideName(clock.flag)}`);
    } else bits.push('no clock yet');
    const line = bits.join(' · ');
    if ($('clock-line').textContent !== line) $('clock-line').textContent = line;
  }

  // Running, stopped, or not started yet: no clock runs before anyone is there
  // (it starts with the arbiter, a player's press, or the boards set up).
  function clockState(clock) {
    if (clock.running) return 'running';
    if (clock.started === false) return 'not started yet: Alt+S, or a player presses';
    return 'stopped';
  }
  function upperFirst(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  // Draughts (5.4, 5.9): the irregularity waiting for the opponent's decision,
  // read from the event log: named by a decision_wanted `irregularity`, gone
  // once decided, once its board shows the game again, or with a new game.
  function pendingIrregularity() {
    const log = state && Array.isArray(state.log) ? state.log : localLog;
    let pending = null;
    for (const ev of log) {
      if (!ev || typeof ev !== 'object') continue;
      if (ev.type === 'irregularity' && ev.decision_wanted) pending = ev;
      else if (ev.type === 'irregularity_decided' || ev.type === 'game_started' || ev.type === 'game_over') pending = null;
      else if (ev.type === 'board_restored' && pending && ev.board === pending.board) pending = null;
    }
    return pending;
  }

  function renderIrregularity() {
    const ev = pendingIrregularity();
    renderKeyed('irregularity', JSON.stringify(ev), (box) => {
      if (!ev) {
        box.replaceChildren();
        return;
      }
      const art = h('article', { class: 'disc irregularity', 'aria-labelledby': 'irregularity-h' });
      const board = ROLE_NAMES[ev.board] || ev.board || 'board';
      art.append(h('h3', { id: 'irregularity-h', tabindex: '-1' },
        `Irregularity (${ev.article || '5.4'}) on the ${board}: the opponent decides`));
      art.append(h('p', { id: 'irregularity-text' }, typeof ev.text === 'string' ? ev.text : ''));
      const steps = Array.isArray(ev.steps) ? ev.steps.filter((s) => typeof s === 'string') : [];
      if (steps.length) {
        art.append(h('p', {}, 'Correct means:'));
        art.append(h('ol', { id: 'irregularity-steps' }, ...steps.map((s) => h('li', {}, s))));
      }
      const accept = h('button', { type: 'button', id: 'irregularity-accept', 'aria-keyshortcuts': 'Alt+A',
        'aria-describedby': 'irregularity-text' }, 'Accept (5.7) ', h('kbd', {}, 'Alt'), '+', h('kbd', {}, 'A'));
      accept.addEventListener('click', () => send({ cmd: 'accept' }, 'Accept the irregularity (5.7)', 'irregularity-accept'));
      const correct = h('button', { type: 'button', id: 'irregularity-correct', 'aria-keyshortcuts': 'Alt+Z',
        'aria-describedby': 'irregularity-text' }, 'Correct ', h('kbd', {}, 'Alt'), '+', h('kbd', {}, 'Z'));
      correct.addEventListener('click', () => send({ cmd: 'correct' }, 'Correct the irregularity', 'irregularity-correct'));
      art.append(h('p', { class: 'actions' }, accept, ' ', correct));
      box.replaceChildren(art);
    });
  }

  function renderDiscrepancies() {
    renderIrregularity();
    const list = state && Array.isArray(state.discrepancies) ? state.discrepancies.filter((d) => d && typeof d === 'object') : [];
    const progress = state && Array.isArray(state.discrepancy_progress) ? state.discrepancy_progress : [];
    const progressOf = (id) => progress.find((p) => p && p.id === id) || null;
    renderKeyed('discrepancies', JSON.stringify(list) + JSON.stringify(state && state.moves) + JSON.stringify(progress), (box) => {
      if (!list.length) {
        box.replaceChildren(h('p', {}, 'None: the boards and the records agree.'));
        return;
      }
      const nodes = list.map((d) => {
        const id = Number(d.id);
        const art = h('article', { class: 'disc', 'aria-labelledby': `disc-h-${id}` });
        art.append(h('h3', { id: `disc-h-${id}`, tabindex: '-1' },
          `Discrepancy ${id}: ${d.kind === 'records' ? 'the records differ' : 'a board does not show the game'}`));
        const target = d.agreed_ply ? `the position after ${plyText(d.agreed_ply)}` : 'the start position';
        if (d.kind === 'records') {
          art.append(h('p', {}, `The records differ: go back to the last position where they agree, ${target}. `,
            'Every board must show it; the game goes on from there once they do.'));
        } else {
          art.append(h('p', {}, `Every board must show ${target}.`,
            d.board ? ` Correct the ${ROLE_NAMES[d.board] || d.board}.` : ''));
        }
        const p = progressOf(id);
        if (p && Array.isArray(p.boards) && p.boards.length) {
          art.append(h('ul', { class: 'progress', id: `disc-progress-${id}`, 'aria-label': 'Which boards show it' },
            ...p.boards.map((b) => h('li', { class: b.shows_target ? 'done' : 'todo' },
              `${ROLE_NAMES[b.board] || b.board}: ${b.shows_target ? 'shows it ✓' : 'not yet'}`))));
        }
        for (const fix of Array.isArray(d.fix) ? d.fix : []) {
          const steps = Array.isArray(fix.steps) ? fix.steps : [];
          art.append(h('h4', {}, `${ROLE_NAMES[fix.board] || fix.board}: ${steps.length ? steps.length + ' step' + (steps.length === 1 ? '' : 's') : 'nothing to do'}`));
          if (steps.length) art.append(h('ol', {}, ...steps.map((s) => h('li', {}, Station.stepText(s)))));
        }
        const all = [];
        for (const fix of Array.isArray(d.fix) ? d.fix : []) {
          for (const st of Array.isArray(fix.steps) ? fix.steps : []) all.push(`${ROLE_NAMES[fix.board] || fix.board}: ${Station.stepText(st)}`);
        }
        if (all.length) {
          // Walking through the fix one step at a time: Enter reads the next step aloud
          // (and shows it), so the operator need not leave the button.
          const walk = h('button', { type: 'button', class: 'walk', id: `disc-next-${id}` }, 'Read the next correction step');
          // Read out through the one polite region (announce), so it is not said twice.
          const line = h('p', { class: 'walk-step', id: `disc-step-${id}` }, walkText(id, all));
          walk.addEventListener('click', () => {
            const at = walkAt.get(id) || 0;
            walkAt.set(id, at >= all.length ? 1 : at + 1);
            const text = walkText(id, all);
            $(`disc-step-${id}`).textContent = text;
            announce(text);
          });
          art.append(walk, line);
        }
        const cp = d.clock_proposal;
        if (cp && typeof cp === 'object') {
          const at = cp.ply ? `after ${plyText(cp.ply)}` : 'at the start';
          art.append(h('p', {}, `Clock proposal — the readings ${at}: White ${Station.formatClock(cp.white_ms)}, Black ${Station.formatClock(cp.black_ms)}.`));
          const button = h('button', { type: 'button', class: 'accept', id: `accept-${id}`, 'aria-keyshortcuts': 'Alt+A' },
            `Accept the clock proposal of discrepancy ${id} `, h('kbd', {}, 'Alt'), '+', h('kbd', {}, 'A'));
          button.addEventListener('click', () => send({ cmd: 'accept_clock_proposal', id }, `Accept the clock proposal of discrepancy ${id}`, `accept-${id}`));
          art.append(button);
        }
        return art;
      });
      box.replaceChildren(...nodes);
    });
  }

  // A discrepancy in one line, the position named by its move ("after 2. Nf3").
  function discText(d) {
    const target = d.agreed_ply ? `the position after ${plyText(d.agreed_ply)}` : 'the start position';
    const kind = d.kind === 'records' ? 'the records differ' : 'a board does not show the game';
    const board = d.board ? `; correct the ${ROLE_NAMES[d.board] || d.board}` : '';
    return `Discrepancy ${d.id}: ${kind} — every board back to ${target}${board}.`;
  }

  const walkAt = new Map();
  function walkText(id, all) {
    const at = walkAt.get(id) || 0;
    if (!at) return `${all.length} correction step${all.length === 1 ? '' : 's'}; Enter on the button reads them one by one.`;
    const done = at >= all.length ? ' That was the last step: the discrepancy closes once every board shows the position.' : '';
    return `Step ${at} of ${all.length} — ${all[at - 1]}.${done}`;
  }

  function agreementText(a) {
    return { in_step: 'in step with the game', pending: 'a move still to be made', mismatch: 'does not match' }[a] || (a ? String(a) : '');
  }

  // The open discrepancies that ask a board to be corrected, by board: while one
  // is open the board is not "in step", whatever its own record says.
  function boardsToCorrect() {
    const out = new Map();
    const progress = state && Array.isArray(state.discrepancy_progress) ? state.discrepancy_progress : [];
    for (const d of state && Array.isArray(state.discrepancies) ? state.discrepancies : []) {
      if (!d || typeof d !== 'object') continue;
      const p = progress.find((x) => x && x.id === d.id);
      for (const fix of Array.isArray(d.fix) ? d.fix : []) {
        if (!fix || !fix.board) continue;
        const shown = p && Array.isArray(p.boards) ? p.boards.find((b) => b && b.board === fix.board) : null;
        const steps = Array.isArray(fix.steps) ? fix.steps.length : 0;
        if (shown && shown.shows_target) continue;
        if (!shown && !steps) continue;
        if (!out.has(fix.board)) out.set(fix.board, { id: d.id, steps });
      }
    }
    return out;
  }

  function renderBoards() {
    const flipped = $('flip').checked;
    const list = boards();
    const last = state && state.last_move ? state.last_move.uci : null;
    const toCorrect = boardsToCorrect();
    const key = JSON.stringify([list, state && state.fen, state && state.rules, flipped, last, [...toCorrect]]);
    renderKeyed('boards', key, (box) => {
      // A board read as text stays open while the game goes on.
      const open = new Set([...box.querySelectorAll('details[open]')].map((d) => d.id));
      // The boards that are there; without one, the game's position.
      const sensed = list.filter((b) => b.sensed !== false);
      const shown = sensed.length ? sensed : [{ role: 'agreed', fen: state && state.fen }];
      box.classList.toggle('single', shown.length === 1);
      box.replaceChildren(...shown.map((b) => {
        const name = ROLE_NAMES[b.role] || "The game's position (no board is sensed)";
        const status = [];
        const fix = toCorrect.get(b.role);
        let agreement = b.agreement || '';
        if (b.role !== 'agreed') {
          status.push(b.sensed === false ? 'not sensed' : 'sensed');
          if (b.sensed !== false) {
            status.push(b.connected === false
              ? `NOT CONNECTED${b.port ? ` (port ${b.port}: check the cable and boards.${b.role}.port)` : ''}`
              : 'connected');
          }
          if (fix) {
            agreement = 'mismatch';
            status.push(`to be corrected (discrepancy ${fix.id}${fix.steps ? `, ${fix.steps} step${fix.steps === 1 ? '' : 's'}` : ''})`);
          } else if (b.agreement) status.push(agreementText(b.agreement));
        }
        const fig = h('figure', { id: `board-${b.role}` });
        fig.append(h('figcaption', {}, name, status.length ? h('span', { class: `state agreement-${agreement}` }, ` — ${status.join(', ')}`) : null));
        const holder = h('div', { class: 'board-svg' });
        const rules = state && state.rules;
        if (rules === 'draughts' || rules === 'draughts64') {
          // The game's position on a draughts board with its square numbers;
          // what a board shows differently is in the list of differences below.
          Station.drawDraughts(holder, state.fen, rules === 'draughts' ? 10 : 8, flipped, name);
          fig.append(holder);
          const diff = Array.isArray(b.diff) ? b.diff : [];
          if (diff.length) fig.append(h('ul', { class: 'diff-list', 'aria-label': `${name}: differences` }, ...diff.map((d) => h('li', {}, d.text || d.square))));
          return fig;
        }
        Station.drawBoard(holder, {
          fen: b.fen || (state && state.fen),
          occupancy: b.occupancy,
          flipped,
          diff: b.diff,
          lastMove: last,
          label: name,
          text: 'details',
          id: `board-${b.role}`,
        });
        for (const d of holder.querySelectorAll('details')) if (open.has(d.id)) d.open = true;
        fig.append(holder);
        const diff = Array.isArray(b.diff) ? b.diff : [];
        if (diff.length) fig.append(h('ul', { class: 'diff-list', 'aria-label': `${name}: differences` }, ...diff.map((d) => h('li', {}, d.text || d.square))));
        return fig;
      }));
    });
  }
  $('flip').addEventListener('change', renderBoards);

  // The notation the records are shown in (ICCF Appendix A): the station gives
  // every agreed move in each (`notations`); the choice is kept in this browser.
  const NOTATIONS = ['san', 'pl', 'iccf', 'lan', 'fan'];
  const NOTATION_KEY = 'station-console-notation';
  function storedNotation() {
    try {
      const v = window.localStorage.getItem(NOTATION_KEY);
      return NOTATIONS.includes(v) ? v : 'san';
    } catch (_) {
      return 'san';
    }
  }
  $('notation').value = storedNotation();
  $('notation').addEventListener('change', () => {
    const v = NOTATIONS.includes($('notation').value) ? $('notation').value : 'san';
    try { window.localStorage.setItem(NOTATION_KEY, v); } catch (_) { /* private mode: this page only */ }
    renderRecords();
  });
  function shownMove(m) {
    if (!m) return '';
    const n = $('notation').value;
    return (m.notations && typeof m.notations[n] === 'string' && m.notations[n]) || m.san || '';
  }

  function renderRecords() {
    const moves = state && Array.isArray(state.moves) ? state.moves : [];
    const agreed = moves.map((m) => (m && m.san) || '');
    const agreedShown = moves.map(shownMove);
    const recs = boards().filter((b) => b.sensed !== false)
      .map((b) => ({ role: b.role, moves: Array.isArray(b.moves) ? b.moves.map(String) : null }));
    const key = JSON.stringify([agreed, recs, $('notation').value]);
    renderKeyed('records', key, (box) => {
      // Records are compared in SAN; a board's move that is the agreed one is shown
      // in the chosen notation, one that differs as the board's SAN.
      const shown = (list) => list && list.map((san, i) => (san === agreed[i] ? agreedShown[i] : san));
      const columns = [{ name: 'Agreed', moves: agreed, shown: agreedShown }, ...recs.map((r) => ({ name: r.role === 'blind' ? 'Blind' : r.role === 'mirror' ? 'Sighted' : String(r.role), moves: r.moves, shown: shown(r.moves) }))];
      const length = Math.max(0, ...columns.map((c) => (c.moves ? c.moves.length : 0)));
      let first = -1;
      for (let i = 0; i < length && first < 0; i++) {
        const seen = columns.map((c) => (c.moves ? c.moves[i] : undefined)).filter((x) => x !== undefined);
        if (new Set(seen).size > 1) first = i;
      }
      const summary = $('records-summary');
      if (first >= 0) {
        const at = columns.map((c) => `${c.name} ${c.moves && c.moves[first] !== undefined ? c.shown[first] : '—'}`).join(', ');
        summary.textContent = `First disagreement at ${Station.moveNumber(first + 1)}: ${at}.`;
        summary.className = 'records-summary-bad';
      } else {
        const agree = columns.length > 1 ? `The records agree (${Station.plural(length, 'half-move')}).` : `${Station.plural(length, 'half-move')}.`;
        summary.textContent = length ? agree : 'No moves yet.';
        summary.className = '';
      }
      if (columns.length === 1) {
        // No board to compare with: the record as a scoresheet, a move a row.
        box.replaceChildren(scoresheetTable(agreedShown));
        fitRecords();
        box.scrollTop = box.scrollHeight;
        return;
      }
      const table = h('table', { class: 'records' });
      table.append(h('caption', { class: 'visually-hidden' }, 'The agreed record and each board\'s record, one half-move a row'));
      const board = h('span', { class: 'visually-hidden' }, " player's board");
      table.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Move'),
        ...columns.map((c, k) => h('th', { scope: 'col' }, c.name, k ? board.cloneNode(true) : null)))));
      const body = h('tbody');
      for (let i = 0; i < length; i++) {
        const values = columns.map((c) => (c.moves ? (c.moves[i] !== undefined ? c.shown[i] : '') : 'not sensed'));
        const present = columns.filter((c) => c.moves && c.moves[i] !== undefined).map((c) => c.moves[i]);
        const row = h('tr', { class: i === first ? 'disagree' : null, id: i === first ? 'first-disagreement' : null });
        row.append(h('th', { scope: 'row' }, Station.moveNumber(i + 1), i === first ? h('span', { class: 'visually-hidden' }, ' first disagreement') : null));
        values.forEach((v, k) => {
          const differs = i >= first && first >= 0 && columns[k].moves && columns[k].moves[i] !== undefined && new Set(present).size > 1;
          row.append(h('td', { class: differs ? 'differs' : null }, v));
        });
        body.append(row);
      }
      table.append(body);
      box.replaceChildren(table);
      fitRecords();
      const row = $('first-disagreement');
      if (row) box.scrollTop = Math.max(0, row.offsetTop - 40);
      else box.scrollTop = box.scrollHeight;
    });
  }

  // On the wide layout the record sits under the clocks: its scroll box ends
  // at the bottom of the first screen, so the last move is always in sight.
  const WIDE = window.matchMedia('(min-width: 1200px)');
  function fitRecords() {
    const wrap = $('records');
    if (!WIDE.matches) {
      wrap.style.maxHeight = '';
      return;
    }
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    wrap.style.maxHeight = `${Math.max(Math.floor(window.innerHeight - top - 14), 144)}px`;
  }
  window.addEventListener('resize', () => {
    fitRecords();
    $('records').scrollTop = $('records').scrollHeight;
  });

  // White's and Black's move side by side under their number, as on paper
  // (a game from a FEN with Black to move leaves White's first cell empty).
  function scoresheetTable(moves) {
    const fen = state && typeof state.start_fen === 'string' ? state.start_fen.trim().split(/\s+/) : [];
    const blackFirst = fen[1] === 'b';
    const firstNumber = Number(fen[5]) > 0 ? Number(fen[5]) : 1;
    const cells = blackFirst ? [null, ...moves] : moves;
    const table = h('table', { class: 'records scoresheet' });
    table.append(h('caption', { class: 'visually-hidden' }, 'The record, a move a row: its number, White\'s move, Black\'s move'));
    table.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Move'), h('th', { scope: 'col' }, 'White'), h('th', { scope: 'col' }, 'Black'))));
    const body = h('tbody');
    for (let i = 0; i < cells.length; i += 2) {
      body.append(h('tr', {}, h('th', { scope: 'row' }, `${firstNumber + i / 2}.`), h('td', {}, cells[i] || ''), h('td', {}, cells[i + 1] || '')));
    }
    table.append(body);
    return table;
  }

  function renderLog() {
    const log = state && Array.isArray(state.log) ? state.log : localLog;
    const tail = log.slice(-150);
    const key = tail.length + ':' + JSON.stringify(tail[tail.length - 1] || null);
    renderKeyed('log', key, (list) => {
      const items = [];
      for (let i = tail.length - 1; i >= 0; i--) {
        const ev = tail[i];
        if (ev && ev.type === 'announcement' && ev.listener === 'log' && ev.about === 'draw_offer') continue;
        const li = h('li', { class: Station.severity(ev) });
        if (ev && typeof ev.t_ms === 'number') li.append(h('time', {}, Station.formatTime(ev.t_ms)));
        li.append(...describeInLanguage(ev));
        items.push(li);
      }
      list.replaceChildren(...items);
    });
  }

  // What a listener heard or the blind player said is in their language, not
  // the console's English: marked with `lang` so a screen reader speaks it right.
  function languageOf(ev) {
    const langs = state && state.languages && typeof state.languages === 'object' ? state.languages : {};
    const l = ev.type === 'announcement' ? langs[ev.listener] : ev.type === 'heard' ? langs.speech : null;
    return typeof l === 'string' && /^[a-z]{2,3}(-[A-Za-z0-9]+)*$/.test(l) ? l : null;
  }
  // What the console knows beside an event: which boards are there, and the
  // moves the log saw (a move taken back is gone from the record).
  const context = {
    sensed: (role) => boards().some((b) => b.role === role && b.sensed !== false),
    san: (ply) => {
      const log = state && Array.isArray(state.log) ? state.log : localLog;
      for (let i = log.length - 1; i >= 0; i--) {
        const e = log[i];
        if (e && e.type === 'game_move' && e.ply === ply) return e.san;
      }
      return '';
    },
  };
  function describeInLanguage(ev) {
    const plain = () => [Station.describe(ev, context)];
    if (!ev || typeof ev !== 'object' || typeof ev.text !== 'string') return plain();
    const lang = languageOf(ev);
    if (!lang || lang === 'en') return plain();
    const words = h('span', { lang }, ev.text);
    if (ev.type === 'announcement') {
      return [`${ev.listener === 'public' ? "Said on the opponent's speaker" : 'Said to the blind player'}: `, words];
    }
    const line = Station.describe(ev, context);
    const understood = line.slice(line.indexOf(' — '));
    return ['Heard: "', words, `"${understood.startsWith(' — ') ? understood : ''}`];
  }

  // A board that is not there is said once (an alert), and again after it came
  // and went: a missing or wrong port must not be silent. A board gets 3 s to
  // connect first (a station just started is still opening its ports).
  const missingBoards = new Set();
  const absentSince = new Map();
  function noticeBoards() {
    for (const b of boards()) {
      if (b.sensed === false || b.role === 'agreed') continue;
      if (b.connected === false) {
        if (missingBoards.has(b.role)) continue;
        if (!absentSince.has(b.role)) {
          absentSince.set(b.role, Date.now());
          setTimeout(noticeBoards, 3100);
          continue;
        }
        if (Date.now() - absentSince.get(b.role) < 3000) continue;
        missingBoards.add(b.role);
        alertMessage(`${ROLE_NAMES[b.role] || b.role} is not connected${b.port ? ` (port ${b.port})` : ''}: check the cable and boards.${b.role}.port in the config.`);
      } else {
        absentSince.delete(b.role);
        if (missingBoards.delete(b.role)) announce(`${ROLE_NAMES[b.role] || b.role} connected.`);
      }
    }
  }

  function noticeChanges() {
    noticeBoards();
    const s = state || {};
    const last = s.last_move && typeof s.last_move === 'object' ? s.last_move : null;
    if (last && last.san) {
      const key = `${last.ply}:${last.san}`;
      if (!announcedMoves.has(key)) {
        announcedMoves.add(key);
        if (!firstState) announce(`${Station.moveNumber(last.ply)} ${last.san}${last.text && last.text.en ? ' — ' + last.text.en : ''}`);
      }
    }
    const open = new Set();
    for (const d of Array.isArray(s.discrepancies) ? s.discrepancies : []) {
      if (!d || typeof d !== 'object') continue;
      open.add(d.id);
      if (!seenDiscrepancies.has(d.id)) {
        seenDiscrepancies.add(d.id);
        if (!firstState) alertMessage(discText(d) + ' Alt+X shows the steps.');
      }
    }
    for (const id of [...seenDiscrepancies]) {
      if (!open.has(id)) {
        seenDiscrepancies.delete(id);
        announce(`Discrepancy ${id} resolved.`);
      }
    }
  }

  function render() {
    renderHeader();
    renderSetupOffer();
    renderClocks();
    renderDiscrepancies();
    renderBoards();
    renderRecords();
    renderLog();
    renderTakeBack();
    prefillAdjourn();
  }

  function onEvent(ev) {
    localLog.push(ev);
    if (localLog.length > 300) localLog.splice(0, localLog.length - 300);
    const kind = Station.severity(ev);
    if (ev.type === 'game_move') {
      const key = `${ev.ply}:${ev.san}`;
      if (!announcedMoves.has(key)) {
        announcedMoves.add(key);
        announce(`${Station.moveNumber(ev.ply)} ${ev.san}`);
      }
    } else if (ev.type === 'discrepancy') {
      if (!seenDiscrepancies.has(ev.id)) {
        seenDiscrepancies.add(ev.id);
        alertMessage(discText(ev) + ' Alt+X shows the steps.');
      }
    } else if (ev.type === 'irregularity' && ev.decision_wanted) {
      alertMessage(`Irregularity ${ev.article}: ${ev.text}. The opponent decides: Alt+A accepts (5.7), Alt+Z corrects.`);
    } else if (kind === 'alert' && ev.type !== 'input_refused') {
      // A refused command is shown once, next to the control that sent it.
      alertMessage(Station.describe(ev, context));
    }
    if (!state || !Array.isArray(state.log)) {
      renderLog();
      renderIrregularity();
    }
  }

  live = Station.connect({
    token: () => streamToken,
    onState(s) {
      state = s && typeof s === 'object' ? s : null;
      receivedAt = Date.now();
      noticeChanges();
      firstState = false;
      render();
    },
    onEvent,
    onConnection(up) {
      if (online && !up) alertMessage('Lost the connection to the station; reconnecting.', 'warning');
      online = up;
      renderHeader();
    },
  });
  setInterval(renderClocks, 200);
  checkToken();
  render();
})();
