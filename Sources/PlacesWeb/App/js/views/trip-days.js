// The Days tab: the trip day by day (GET …/days, or one day: GET …/days/{dayRef} when the
// URL is #/itineraries/:id/days/:n), each day's items in time order with their times and
// zones, the night's lodging, the warnings beside the items they name, and the items on no
// day. Editors add, edit, reorder (untimed items), move to another day and delete.
// One GET (plus the warnings in parallel), then one synchronous build: the container's
// data-rendered-ms says how long that build took.
// testids: trip-days (container, data-rendered-ms), trip-day (data-date, data-number),
// trip-item (data-id, data-type; buttons inside carry data-action = edit | up | down | move
// | delete), trip-day-add (per day, data-date), trip-add-item, trip-unscheduled,
// trip-day-nav (single-day view: prev / next / all links), trip-warnings-summary,
// trip-day-weather (a day's kept forecast).

import { get, post, del, seg } from '../api.js';
import { h, flash, describe } from '../dom.js';
import { rerender } from '../ui.js';
import { TYPES, itemEmoji, money, whenText, whereText, detailBits, timePart, datePart, longDay, confirmDialog, closeDialogs, pill } from './trip-common.js';
import { openItemEditor, openMoveDialog } from './trip-item-form.js';

export async function renderTab(container, trip, ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const single = trip.sub ? String(trip.sub) : null;
  const list = h('div', { class: 'trip-days', 'data-testid': 'trip-days', 'aria-live': 'off' });
  const summary = h('div', { class: 'trip-warnings-summary', 'data-testid': 'trip-warnings-summary' });
  const toolbar = h('div', { class: 'toolbar' });
  if (trip.canEdit) {
    toolbar.appendChild(
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          'data-testid': 'trip-add-item',
          onclick: () => openItemEditor({ trip, date: state.singleDate || '', onSaved: refresh }),
        },
        '+ Add an item',
      ),
    );
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
      try {
        allDays = (await get(`${base}/days`)).days;
      } catch {
        allDays = days.days;
      }
      if (seq !== state.seq) return;
    }
    state.days = allDays;
    draw(days, warnings.warnings || []);
  }

  // Keyed, so a live refresh rebuilds only what changed: a row is reused while its item,
  // place in the day, warnings and actions are the same (its signature), a day's header
  // likewise; the kept nodes stay where they are, so focus and scroll stay put too.
  const rows = new Map(); // `${date}|${id}` -> { sig, node }
  const sections = new Map(); // date ('' for unscheduled) -> { sig, section, head, ol }

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
    rerender(summary, () =>
      warnings.length
        ? h(
            'p',
            { class: 'trip-warn-line' },
            `⚠️ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`,
            undated ? ` (${undated} about no single item)` : '',
            ' — ',
            h('a', { href: `#/itineraries/${trip.id}/warnings` }, 'see what to fix'),
          )
        : [],
    );
    const focus = focusKey();
    const started = performance.now();
    state.byId = new Map();
    const seenRows = new Set();
    const seenSections = new Set();
    const nodes = [];
    if (single) nodes.push(dayNav(dayList.days[0]));
    for (const day of dayList.days) nodes.push(section(day.date, day, day.items, byItem, seenRows, seenSections));
    if (!single && dayList.unscheduled.length) nodes.push(section('', null, dayList.unscheduled, byItem, seenRows, seenSections));
    if (!single && !dayList.days.length && !dayList.unscheduled.length) {
      nodes.push(h('p', { class: 'empty' }, 'Nothing planned yet. Give the trip dates, or add an item with a date.'));
    }
    for (const key of rows.keys()) if (!seenRows.has(key)) rows.delete(key);
    for (const key of sections.keys()) if (!seenSections.has(key)) sections.delete(key);
    reconcile(list, nodes);
    list.dataset.renderedMs = (performance.now() - started).toFixed(1);
    list.dataset.items = String(state.byId.size);
    restoreFocus(focus);
    if (!state.highlighted && ctx.query && ctx.query.get('item')) highlight(ctx.query.get('item'));
  }

  function focusKey() {
    const active = document.activeElement;
    if (!active || !list.contains(active)) return null;
    const row = active.closest('[data-id]');
    return { row: row ? row.dataset.id : null, day: row ? row.dataset.day : null, action: active.dataset.action || null, date: active.dataset.date || null };
  }
  function restoreFocus(key) {
    if (!key || list.contains(document.activeElement)) return;
    let target = null;
    if (key.row) {
      const row = list.querySelector(`[data-id="${CSS.escape(key.row)}"][data-day="${CSS.escape(key.day || '')}"]`) || list.querySelector(`[data-id="${CSS.escape(key.row)}"]`);
      target = row && key.action ? row.querySelector(`[data-action="${CSS.escape(key.action)}"]`) : row;
    } else if (key.date) {
      target = list.querySelector(`[data-action="add"][data-date="${CSS.escape(key.date)}"]`);
    }
    if (target) target.focus({ preventScroll: true });
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
    const link = (d, text, rel) =>
      d ? h('a', { class: 'button', rel, href: `#/itineraries/${trip.id}/days/${d.number}` }, text) : h('span', { class: 'button muted', 'aria-disabled': 'true' }, text);
    return h(
      'nav',
      { class: 'toolbar trip-day-nav', 'data-testid': 'trip-day-nav', 'aria-label': 'Other days' },
      link(prev, '← Previous day', 'prev'),
      h('a', { class: 'button', href: `#/itineraries/${trip.id}/days` }, 'All days'),
      link(next, 'Next day →', 'next'),
    );
  }

  /** A day's section (or the unscheduled one, date ''), reusing the last one's nodes. */
  function section(date, day, items, byItem, seenRows, seenSections) {
    seenSections.add(date);
    const headSig = JSON.stringify([day && day.number, items.length, day && day.lodging && day.lodging.title, day && day.weather, trip.canEdit, single]);
    let entry = sections.get(date);
    if (!entry) {
      const ol = h('ol', { class: 'list trip-items' });
      const node = day
        ? h('section', { class: 'trip-day card', 'data-testid': 'trip-day', 'aria-labelledby': 'day-' + date, dataset: { date } })
        : h('section', { class: 'trip-day card trip-unscheduled', 'data-testid': 'trip-unscheduled', 'aria-labelledby': 'day-none' });
      entry = { sig: null, section: node, head: null, ol };
      sections.set(date, entry);
    }
    if (entry.sig !== headSig) {
      entry.sig = headSig;
      entry.head = day
        ? dayHead(day, items.length)
        : h('header', { class: 'trip-day-head' }, h('h3', { id: 'day-none' }, 'Not on a day yet'), h('span', { class: 'muted' }, String(items.length)));
      if (day) entry.section.dataset.number = String(day.number || '');
      reconcile(entry.section, [entry.head, entry.ol]);
    }
    const rowNodes = items.map((item, index) => itemRow(item, day, index, byItem, seenRows));
    reconcile(entry.ol, rowNodes);
    return entry.section;
  }

  function dayHead(day, count) {
    const title = `Day ${day.number} · ${longDay(day.date)}`;
    return h(
      'header',
      { class: 'trip-day-head' },
      h('h3', { id: 'day-' + day.date }, single ? title : h('a', { href: `#/itineraries/${trip.id}/days/${day.number}` }, title)),
      h('span', { class: 'muted' }, count ? `${count} item${count === 1 ? '' : 's'}` : 'free day'),
      day.lodging ? h('span', { class: 'trip-night', title: 'Where you sleep that night' }, '🌙 ', day.lodging.title) : h('span', { class: 'trip-night none' }, '🌙 no lodging'),
      day.weather ? dayWeather(day.weather) : null,
      trip.canEdit
        ? h(
            'button',
            {
              type: 'button',
              class: 'trip-day-add',
              'data-testid': 'trip-day-add',
              dataset: { action: 'add', date: day.date },
              'aria-label': `Add an item on ${longDay(day.date)}`,
            },
            '+ Add',
          )
        : null,
    );
  }

  /** The day's kept forecast (docs/destinations.md): "15–26 °C · overcast · 0.4 mm". */
  function dayWeather(w) {
    const rain = w.precipitationMm > 0 ? ` · ${w.precipitationMm} mm` : '';
    return h(
      'span',
      { class: 'trip-weather muted', 'data-testid': 'trip-day-weather', title: `Forecast for ${w.destination.name} from ${w.source}, fetched ${w.fetchedAt}` },
      `${Math.round(w.minC)}–${Math.round(w.maxC)} °C · ${w.condition}${rain}`,
    );
  }

  function itemRow(item, day, index, byItem, seenRows) {
    state.byId.set(item.id, item);
    const untimed = !timePart(item.type === 'lodging' && day && datePart(item.end) === day.date ? item.end : item.start);
    const reorder = day && untimed && (item.type === 'place' || datePart(item.start) === day.date);
    const actions =
      trip.canEdit && !item.legacy ? (item.type === 'place' ? (reorder ? 'up down move remove' : 'move remove') : reorder ? 'edit up down move delete' : 'edit move delete') : null;
    const warnings = byItem.get(item.id);
    const key = (day ? day.date : '') + '|' + item.id;
    seenRows.add(key);
    // The signature is computed only when there is an old row to compare with, so the
    // first render pays nothing for it.
    const fresh = { item, index, number: day ? day.number : '', actions, warnings, sig: null, node: null };
    const cached = rows.get(key);
    if (cached && rowSig(cached) === rowSig(fresh)) return cached.node;
    fresh.node = fastRow(item, day, index, warnings, actions);
    rows.set(key, fresh);
    return fresh.node;
  }

  // One listener for every button in the list (cheaper than one per row).
  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button || !list.contains(button)) return;
    const actionName = button.dataset.action;
    if (actionName === 'add') {
      openItemEditor({ trip, date: button.dataset.date, onSaved: refresh });
      return;
    }
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
      } else if (actionName === 'delete' || actionName === 'remove') {
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
    try {
      await load();
    } catch (error) {
      flash(describe(error));
    }
  }

  try {
    await load();
  } catch (error) {
    list.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
  }
  return { refresh, cleanup: closeDialogs };
}

// Rows are many (500 on a long trip): each is a clone of a template filled with text, the
// cheapest way to build them. Every text from the item still goes in as textContent.
let rowTemplate = null;
const actionTemplates = new Map();
const BUTTONS = {
  edit: ['Edit', 'Edit '],
  up: ['↑', 'Move up: '],
  down: ['↓', 'Move down: '],
  move: ['Move', 'Move to another day: '],
  delete: ['Delete', 'Delete '],
  remove: ['Remove', 'Remove from the places to go: '],
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function actionsTemplate(names) {
  let tpl = actionTemplates.get(names);
  if (!tpl) {
    tpl = h(
      'div',
      { class: 'trip-item-actions' },
      names.split(' ').map((name) =>
        h(
          'button',
          {
            type: 'button',
            class: name === 'delete' || name === 'remove' ? 'danger' : null,
            dataset: { action: name, label: BUTTONS[name][1] },
          },
          BUTTONS[name][0],
        ),
      ),
    );
    actionTemplates.set(names, tpl);
  }
  return tpl;
}

function fastRow(item, day, index, warnings, actions) {
  if (!rowTemplate) {
    rowTemplate = h(
      'li',
      { 'data-testid': 'trip-item' },
      h('span', { class: 'trip-item-time' }),
      h('span', { class: 'trip-item-emoji', role: 'img' }),
      h('div', { class: 'grow' }, h('span', { class: 'trip-item-title' })),
    );
  }
  const li = rowTemplate.cloneNode(true);
  li.className = 'trip-item type-' + item.type;
  li.setAttribute('data-id', item.id);
  li.setAttribute('data-type', item.type);
  li.setAttribute('data-day', day ? String(day.number) : '');
  li.setAttribute('data-index', String(index + 1));
  const time = li.firstChild;
  const emoji = time.nextSibling;
  const grow = emoji.nextSibling;
  time.textContent = whenText(item, day ? day.date : null, true);
  if (item.timeZone) time.title = item.timeZone + (item.endTimeZone && item.endTimeZone !== item.timeZone ? ' → ' + item.endTimeZone : '');
  emoji.textContent = itemEmoji(item);
  emoji.setAttribute('aria-label', (TYPES[item.type] || TYPES.activity).one);
  grow.firstChild.textContent = item.title;
  if (item.legacy) grow.appendChild(pill('trip detail'));
  const bits = detailBits(item);
  const where = whereText(item);
  if (where && where !== item.title) bits.unshift(where);
  if (bits.length) grow.appendChild(el('div', 'muted trip-item-details', bits.join(' · ')));
  if (item.notes) grow.appendChild(el('div', 'trip-item-notes', item.notes));
  if (warnings) {
    for (const warning of warnings) {
      const p = el('p', 'trip-warning', '⚠️ ' + warning.message);
      p.setAttribute('data-testid', 'trip-item-warning');
      p.dataset.code = warning.code;
      grow.appendChild(p);
    }
  }
  if (item.price) li.appendChild(el('span', 'trip-item-price', money(item.price)));
  if (actions) {
    const box = actionsTemplate(actions).cloneNode(true);
    for (const button of box.children) button.setAttribute('aria-label', button.getAttribute('data-label') + item.title);
    if (index === 0 && box.querySelector('[data-action="up"]')) box.querySelector('[data-action="up"]').disabled = true;
    li.appendChild(box);
  }
  return li;
}

function rowSig(row) {
  if (row.sig === null) row.sig = JSON.stringify([row.item, row.index, row.number, row.actions, row.warnings || null]);
  return row.sig;
}

/** Makes `parent`'s children exactly `nodes`, leaving the nodes kept in place where it can. */
function reconcile(parent, nodes) {
  const keep = new Set(nodes);
  for (let child = parent.firstChild; child; ) {
    const next = child.nextSibling;
    if (!keep.has(child)) child.remove();
    child = next;
  }
  let ref = parent.firstChild;
  for (const node of nodes) {
    if (node === ref) {
      ref = ref.nextSibling;
      continue;
    }
    parent.insertBefore(node, ref);
  }
}
