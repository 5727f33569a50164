// #/out: friends who are out now (newest first), and "I'm out": where (a place's name or
// LAT,LON, rounded to about 200 m unless exact), until when, to whom (friends, a group),
// a note; end it early. Live on `out` events.
// Testids:
//   out-list, out-item (li, data-person), out-mine, out-form, out-at, out-until, out-to,
//   out-note, out-exact, out-send, out-stop.

import { get, put, del } from '../api.js';
import { h, mount, action, empty, form, formatTime, shortID } from '../dom.js';
import { coordinates, debounce, rerender } from '../ui.js';

function where(note) {
  if (note.place) return 'at ' + note.place;
  return (note.exact ? 'at ' : 'near ') + coordinates(note.latitude, note.longitude);
}

/** The next local HH:MM as an RFC 3339 time. */
function untilTime(text) {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text || '');
  if (!m) return undefined;
  const at = new Date();
  at.setHours(Number(m[1]), Number(m[2]), 0, 0);
  if (at <= new Date()) at.setDate(at.getDate() + 1);
  return at.toISOString();
}

export async function render(main, _params, ctx) {
  const list = h('ol', { class: 'list out-list', 'data-testid': 'out-list', 'aria-label': 'Friends out now' });
  const mine = h('p', { 'data-testid': 'out-mine', 'aria-live': 'polite' });
  const at = h('input', { name: 'at', required: true, placeholder: 'A place, or 38.71,-9.14', 'data-testid': 'out-at' });
  const until = h('input', { name: 'until', type: 'time', 'data-testid': 'out-until' });
  const to = h('select', { name: 'to', 'data-testid': 'out-to' }, h('option', { value: 'friends' }, 'All friends'));
  const note = h('input', { name: 'note', maxlength: 280, 'data-testid': 'out-note' });
  const exact = h('input', { type: 'checkbox', name: 'exact', 'data-testid': 'out-exact' });
  const stop = action(
    'End it now',
    async () => {
      await del('/v1/out');
      await show();
    },
    { 'data-testid': 'out-stop' },
  );
  const say = form(
    { class: 'stack', 'data-testid': 'out-form', 'aria-label': "I'm out" },
    [
      h('label', {}, 'Where ', at),
      h('label', {}, 'Until ', until),
      h('label', {}, 'To ', to),
      h('label', {}, 'Note ', note),
      h('label', {}, exact, ' Exact position (else about 200 m)'),
      h('button', { type: 'submit', 'data-testid': 'out-send' }, "I'm out"),
    ],
    async () => {
      const body = { audience: to.value };
      const point = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(at.value);
      if (point) {
        body.latitude = Number(point[1]);
        body.longitude = Number(point[2]);
        body.exact = exact.checked;
      } else body.place = at.value;
      const when = untilTime(until.value);
      if (when) body.until = when;
      if (note.value.trim()) body.note = note.value;
      await put('/v1/out', body);
      await show();
    },
  );
  mount(main, h('h2', {}, 'Out now'), list, h('h3', {}, "I'm out"), mine, stop, say);

  const groups = await get('/v1/groups').catch(() => ({ groups: [] }));
  for (const g of groups.groups || []) to.append(h('option', { value: g.id }, g.name));

  async function show() {
    const answer = await get('/v1/out');
    rerender(
      list,
      answer.friends.length
        ? answer.friends.map((f) =>
            h(
              'li',
              { class: 'out', 'data-testid': 'out-item', 'data-person': f.person },
              h('strong', {}, f.name || shortID(f.person)),
              ' is out ',
              where(f),
              h('span', { class: 'muted' }, ' · since ', formatTime(f.since), ' · until ', formatTime(f.until)),
              f.note ? h('p', {}, '“' + f.note + '”') : null,
            ),
          )
        : [h('li', { class: 'placeholder' }, empty('No friend is out now.'))],
    );
    mine.textContent = answer.mine ? `You are out ${where(answer.mine)} until ${formatTime(answer.mine.until)}.` : 'You are not out.';
    stop.hidden = !answer.mine;
  }
  await show();
  const again = debounce(() => show().catch(() => {}), 150);
  ctx.onEvent((event) => {
    if (event.type === 'out') again();
  });
}
