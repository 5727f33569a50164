// The Lodging, Food, Transportation and Activities tabs: the trip's items of one type
// (GET …/items?type=), with every field the type has, the section's total, and (editors)
// add, edit, move to another day and delete. The itinerary's own lodging/transportation
// (legacy items) show read-only, edited with the trip's details.
// testids: trip-items (the list, data-type), trip-item (data-id, data-type; buttons inside
// carry data-action = edit | move | delete), trip-items-add, trip-items-total.

import { get, del, seg } from '../api.js';
import { h, flash, describe } from '../dom.js';
import { rerender } from '../ui.js';
import { TYPES, itemEmoji, money, moneyList, whenText, whereText, detailBits, zoneShort, timePart, confirmDialog, closeDialogs, pill, datePart } from './trip-common.js';
import { openItemEditor, openMoveDialog } from './trip-item-form.js';

/** The tab ids trip.js uses → the API's item types. */
export const TAB_TYPES = { lodging: 'lodging', food: 'food', transport: 'transport', activities: 'activity' };

export function tabFor(type) {
  return async function renderTab(container, trip, ctx) {
    return renderType(container, trip, ctx, type);
  };
}

function nights(item) {
  const a = Date.parse(datePart(item.start) + 'T00:00:00Z');
  const b = Date.parse(datePart(item.end) + 'T00:00:00Z');
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= a) return null;
  return Math.round((b - a) / 86400000);
}

async function renderType(container, trip, _ctx, type) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const info = TYPES[type];
  const total = h('p', { class: 'muted', 'data-testid': 'trip-items-total' });
  const list = h('ol', { class: 'list trip-items', 'data-testid': 'trip-items', dataset: { type } });
  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h('h3', { class: 'trip-tab-title' }, info.label),
    trip.canEdit
      ? h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'trip-items-add',
            onclick: () => openItemEditor({ trip, type, onSaved: refresh }),
          },
          '+ Add ' + info.one,
        )
      : null,
  );
  container.append(toolbar, total, list);
  const byId = new Map();
  let seq = 0;

  async function load() {
    const mine = ++seq;
    const items = await get(`${base}/items?type=${type}`);
    if (mine !== seq) return;
    byId.clear();
    const costs = (trip.itinerary.costs || {})[type];
    total.textContent = `${items.count} ${items.count === 1 ? info.one : info.many}` + (costs && costs.length ? ` · total ${moneyList(costs)}` : '');
    rerender(list, () =>
      items.items.length
        ? items.items.map(row)
        : h('li', { class: 'empty', 'data-testid': 'trip-items-empty' }, `No ${info.many} yet.` + (trip.canEdit ? ' Add the first one above.' : '')),
    );
  }

  function row(item) {
    byId.set(item.id, item);
    const details = detailBits(item);
    const where = whereText(item);
    const address = [item.location && item.location.address, item.to && item.to.address].filter(Boolean).join(' → ');
    const n = type === 'lodging' ? nights(item) : null;
    const zones = [item.timeZone, item.endTimeZone].filter(Boolean).filter((z, i, all) => all.indexOf(z) === i);
    const editable = trip.canEdit && !item.legacy;
    return h(
      'li',
      { class: 'trip-item trip-item-card type-' + item.type, 'data-testid': 'trip-item', dataset: { id: item.id, type: item.type } },
      h('span', { class: 'trip-item-emoji', 'aria-hidden': 'true' }, itemEmoji(item)),
      h(
        'div',
        { class: 'grow' },
        h('div', { class: 'trip-item-title' }, item.title, item.legacy ? pill('trip detail') : null),
        h(
          'div',
          { class: 'trip-item-when' },
          item.start ? whenText(item, null) : 'No date yet',
          n ? ` · ${n} night${n === 1 ? '' : 's'}` : '',
          zones.length && (timePart(item.start) || timePart(item.end))
            ? h('span', { class: 'muted', title: zones.join(' → ') }, ' (' + zones.map(zoneShort).join(' → ') + ')')
            : null,
        ),
        where ? h('div', {}, '📍 ', where) : null,
        address && address !== where ? h('div', { class: 'muted' }, address) : null,
        details.length ? h('div', { class: 'muted' }, details.join(' · ')) : null,
        item.linkedItem ? h('div', { class: 'muted' }, 'belongs to ', linkedTitle(item.linkedItem)) : null,
        item.url ? h('div', {}, h('a', { href: item.url, rel: 'noopener noreferrer', target: '_blank' }, 'Web page')) : null,
        item.notes ? h('div', { class: 'trip-item-notes' }, item.notes) : null,
        item.legacy ? h('div', { class: 'muted' }, 'Part of the trip’s own details: change it with “Edit details” above.') : null,
      ),
      item.price ? h('span', { class: 'trip-item-price' }, money(item.price)) : null,
      editable
        ? h(
            'div',
            { class: 'trip-item-actions' },
            h('button', { type: 'button', dataset: { action: 'edit' }, 'aria-label': `Edit ${item.title}` }, 'Edit'),
            h('button', { type: 'button', dataset: { action: 'move' }, 'aria-label': `Move ${item.title} to another day` }, 'Move'),
            h('button', { type: 'button', class: 'danger', dataset: { action: 'delete' }, 'aria-label': `Delete ${item.title}` }, 'Delete'),
          )
        : null,
    );
  }

  function linkedTitle(id) {
    const stop = (trip.itinerary.places || []).find((p) => p.id === id);
    if (stop) return '📍 ' + stop.name;
    const item = byId.get(id);
    return item ? item.title : id.slice(0, 8);
  }

  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const rowEl = button.closest('[data-testid="trip-item"]');
    const item = rowEl && byId.get(rowEl.dataset.id);
    if (!item) return;
    try {
      if (button.dataset.action === 'edit') {
        openItemEditor({ trip, item, onSaved: refresh });
      } else if (button.dataset.action === 'move') {
        const days = await get(`${base}/days`);
        openMoveDialog({ trip, item, days: days.days, from: datePart(item.start), onMoved: refresh });
      } else if (button.dataset.action === 'delete') {
        if (!(await confirmDialog(`Delete “${item.title}”?`, 'Delete', 'It disappears for everyone on the trip.'))) return;
        await del(`${base}/items/${seg(item.id)}`);
        await refresh();
      }
    } catch (error) {
      rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
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
    list.replaceChildren(h('li', { class: 'field-error', role: 'alert' }, describe(error)));
  }
  return { refresh, cleanup: closeDialogs };
}
