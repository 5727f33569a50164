// The Days tab: the trip day by day (GET …/days, or one day: GET …/days/{dayRef} when the
// URL is #/itineraries/:id/days/:n), each day's items in time order with their times and
// zones, the night's lodging, the warnings beside the items they name, and the items on no
// day. Editors add, edit, reorder (untimed items), move to another day and delete.
// One GET (plus the warnings in parallel), then one synchronous build: the container's
// data-rendered-ms says how long that build took.
// testids: trip-days (container, data-rendered-ms), trip-day (data-date, data-number),
// trip-item (data-id, data-type; buttons inside carry data-action = edit | up | down | move
// | delete), trip-day-add (per day, data-date), trip-add-item, trip-unscheduled,
// trip-day-nav (single-day view: prev / next / all links), trip-warnings-summary.

import { get, post, del, seg } from '../api.js';
import { h, flash, describe } from '../dom.js';
import {
  TYPES, itemEmoji, money, whenText, whereText, detailBits, zoneShort, timePart, datePart,
  longDay, rerender, confirmDialog, closeDialogs, pill,
} from './trip-common.js';
import { openItemEditor, openMoveDialog } from './trip-item-form.js';

export async function renderTab(container, trip, ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const single = trip.sub ? String(trip.sub) : null;
  const list = h('div', { class: 'trip-days', 'data-testid': 'trip-days', 'aria-live': 'off' });
  const summary = h('div', { class: 'trip-warnings-summary', 'data-testid': 'trip-warnings-summary' });
  const toolbar = h('div', { class: 'toolbar' });
  if (trip.canEdit) {
    toolbar.appendChild(h('button', {
      type: 'button', class: 'primary', 'data-testid': 'trip-add-item',
      onclick: () => openItemEditor({ trip, date: state.singleDate || '', onSaved: refresh }),
    }, '+ Add an item'));
  }
  container.append(toolbar, summary, list);

  const state = { days: [], byId: new Map(), singleDate: null, seq: 0, highlighted: false };

  async function load() {
    const seq = ++state.seq;
    const [days, warnings] = await Promise.all([
      single ? get(`${base}/days/${seg(single)}`).then((day) => ({ days: [day], unscheduled: [], single: true })) : get(`${base}/days`),
      get(`${base}/warnings`).catch(() => ({ warnings: [] })),
    ]);
    if (seq !== state.seq) return;
    let allDays = days.days;
    if (single) {
      // The neighbours for the prev/next links come from the day numbers alone.
      state.singleDate = days.days[0].date;
      try { allDays = (await get(`${base}/days`)).days; } catch { allDays = days.days; }
      if (seq !== state.seq) return;
    }
    state.days = allDays;
    draw(days, warnings.warnings || []);
  }

  function draw(dayList, warnings) {
    const byItem = new Map();
    let undated = 0;
    for (const warning of warnings) {
      if (!warning.items.length) undated++;
      for (const id of warning.items) {
        if (!byItem.has(id)) byItem.set(id, []);
        byItem.get(id).push(warning);
      }
    }
    rerender(summary, () => warnings.length
      ? h('p', { class: 'trip-warn-line' }, `⚠️ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`,
        undated ? ` (${undated} about no single item)` : '', ' — ',
        h('a', { href: `#/itineraries/${trip.id}/warnings` }, 'see what to fix'))
      : []);
    const started = performance.now();
    state.byId = new Map();
    rerender(list, () => {
      const nodes = [];
      if (single) nodes.push(dayNav(dayList.days[0]));
      for (const day of dayList.days) nodes.push(dayNode(day, byItem));
      if (!single && dayList.unscheduled.length) nodes.push(unscheduledNode(dayList.unscheduled, byItem));
      if (!single && !dayList.days.length && !dayList.unscheduled.length) {
        nodes.push(h('p', { class: 'empty' }, 'Nothing planned yet. Give the trip dates, or add an item with a date.'));
      }
      return nodes;
    });
    list.dataset.renderedMs = (performance.now() - started).toFixed(1);
    list.dataset.items = String(state.byId.size);
    if (!state.highlighted && ctx.query && ctx.query.get('item')) highlight(ctx.query.get('item'));
  }

  function highlight(id) {
    state.highlighted = true;
    const row = list.querySelector(`[data-testid="trip-item"][data-id="${CSS.escape(id)}"]`);
    if (!row) return;
    row.classList.add('trip-highlight');
    row.setAttribute('tabindex', '-1');
    row.scrollIntoView({ block: 'center' });
    row.focus({ preventScroll: true });
  }

  function dayNav(day) {
    const prev = state.days.find((d) => d.number === day.number - 1);
    const next = state.days.find((d) => d.number === day.number + 1);
    const link = (d, text, rel) => d ? h('a', { class: 'button', rel, href: `#/itineraries/${trip.id}/days/${d.number}` }, text) : h('span', { class: 'button muted', 'aria-disabled': 'true' }, text);
    return h('nav', { class: 'toolbar trip-day-nav', 'data-testid': 'trip-day-nav', 'aria-label': 'Other days' },
      link(prev, '← Previous day', 'prev'), h('a', { class: 'button', href: `#/itineraries/${trip.id}/days` }, 'All days'), link(next, 'Next day →', 'next'));
  }

  function dayNode(day, byItem) {
    const headingId = 'day-' + day.date;
    const count = day.items.length;
    return h('section', { class: 'trip-day card', 'data-testid': 'trip-day', dataset: { date: day.date, number: day.number || '' }, 'aria-labelledby': headingId },
      h('header', { class: 'trip-day-head' },
        h('h3', { id: headingId },
          single ? `Day ${day.number} · ${longDay(day.date)}`
            : h('a', { href: `#/itineraries/${trip.id}/days/${day.number}` }, `Day ${day.number} · ${longDay(day.date)}`)),
        h('span', { class: 'muted' }, count ? `${count} item${count === 1 ? '' : 's'}` : 'free day'),
        day.lodging ? h('span', { class: 'trip-night', title: 'Where you sleep that night' }, '🌙 ', day.lodging.title) : h('span', { class: 'trip-night none' }, '🌙 no lodging'),
        trip.canEdit ? h('button', { type: 'button', class: 'trip-day-add', 'data-testid': 'trip-day-add', dataset: { action: 'add', date: day.date }, 'aria-label': `Add an item on ${longDay(day.date)}` }, '+ Add') : null),
      count ? h('ol', { class: 'list trip-items' }, day.items.map((item, index) => itemRow(item, day, index, byItem))) : null);
  }

  function unscheduledNode(items, byItem) {
    return h('section', { class: 'trip-day card trip-unscheduled', 'data-testid': 'trip-unscheduled', 'aria-labelledby': 'day-none' },
      h('header', { class: 'trip-day-head' }, h('h3', { id: 'day-none' }, 'Not on a day yet'), h('span', { class: 'muted' }, String(items.length))),
      h('ol', { class: 'list trip-items' }, items.map((item, index) => itemRow(item, null, index, byItem))));
  }

  function itemRow(item, day, index, byItem) {
    state.byId.set(item.id, item);
    const warnings = byItem.get(item.id);
    const bits = detailBits(item);
    const where = whereText(item);
    if (where) bits.unshift(where);
    const zone = item.timeZone && timePart(item.start) ? zoneShort(item.timeZone) : '';
    const editable = trip.canEdit && !item.legacy;
    const untimed = !timePart(item.type === 'lodging' && day && datePart(item.end) === day.date ? item.end : item.start);
    const startsHere = day && datePart(item.start) === day.date;
    return h('li', { class: 'trip-item type-' + item.type, 'data-testid': 'trip-item', dataset: { id: item.id, type: item.type, day: day ? day.number : '', index: index + 1 } },
      h('span', { class: 'trip-item-time' }, whenText(item, day ? day.date : null), zone ? h('small', { title: item.timeZone }, ' ' + zone) : null),
      h('span', { class: 'trip-item-emoji', 'aria-hidden': 'true' }, itemEmoji(item)),
      h('div', { class: 'grow' },
        h('span', { class: 'trip-item-title' }, item.title),
        h('span', { class: 'visually-hidden' }, ' (' + (TYPES[item.type] || TYPES.activity).one + ')'),
        item.legacy ? pill('trip detail') : null,
        bits.length ? h('div', { class: 'muted trip-item-details' }, bits.join(' · ')) : null,
        item.notes ? h('div', { class: 'trip-item-notes' }, item.notes) : null,
        warnings ? warnings.map((w) => h('p', { class: 'trip-warning', 'data-testid': 'trip-item-warning', dataset: { code: w.code } }, '⚠️ ', w.message)) : null),
      item.price ? h('span', { class: 'trip-item-price' }, money(item.price)) : null,
      editable ? h('div', { class: 'trip-item-actions' },
        item.type !== 'place' ? h('button', { type: 'button', dataset: { action: 'edit' }, 'aria-label': `Edit ${item.title}` }, 'Edit') : null,
        day && untimed && (startsHere || item.type === 'place') ? [
          h('button', { type: 'button', dataset: { action: 'up' }, 'aria-label': `Move ${item.title} up`, disabled: index === 0 }, '↑'),
          h('button', { type: 'button', dataset: { action: 'down' }, 'aria-label': `Move ${item.title} down` }, '↓')] : null,
        h('button', { type: 'button', dataset: { action: 'move' }, 'aria-label': `Move ${item.title} to another day` }, 'Move'),
        h('button', { type: 'button', class: 'danger', dataset: { action: 'delete' }, 'aria-label': `${item.type === 'place' ? 'Remove' : 'Delete'} ${item.title}` }, item.type === 'place' ? 'Remove' : 'Delete'))
        : null);
  }

  // One listener for every button in the list (cheaper than one per row).
  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button || !list.contains(button)) return;
    const actionName = button.dataset.action;
    if (actionName === 'add') { openItemEditor({ trip, date: button.dataset.date, onSaved: refresh }); return; }
    const row = button.closest('[data-testid="trip-item"]');
    const item = row && state.byId.get(row.dataset.id);
    if (!item) return;
    const dayNumber = row.dataset.day ? Number(row.dataset.day) : null;
    const day = state.days.find((d) => d.number === dayNumber);
    try {
      if (actionName === 'edit') {
        const full = item.type === 'place' ? item : await get(`${base}/items/${seg(item.id)}`);
        openItemEditor({ trip, item: full, onSaved: refresh });
      } else if (actionName === 'move') {
        openMoveDialog({ trip, item, days: state.days, from: day ? day.date : '', onMoved: refresh });
      } else if (actionName === 'up' || actionName === 'down') {
        const position = Number(row.dataset.index) + (actionName === 'up' ? -1 : 1);
        if (position < 1) return;
        button.disabled = true;
        await post(`${base}/items/${seg(item.id)}/move`, { day: dayNumber, position });
        await refresh();
      } else if (actionName === 'delete') {
        const place = item.type === 'place';
        const ok = await confirmDialog(place ? `Remove “${item.title}” from the places to go?` : `Delete “${item.title}”?`, place ? 'Remove' : 'Delete');
        if (!ok) return;
        await del(place ? `${base}/places/${seg(item.id)}` : `${base}/items/${seg(item.id)}`);
        await refresh();
      }
    } catch (error) {
      if (button.isConnected) {
        button.disabled = false;
        const box = h('p', { class: 'field-error', role: 'alert' }, describe(error));
        row.appendChild(box);
      } else {
        flash(describe(error));
      }
    }
  });

  async function refresh() {
    try { await load(); } catch (error) { flash(describe(error)); }
  }

  try {
    await load();
  } catch (error) {
    list.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
  }
  return { refresh, cleanup: closeDialogs };
}
