// The Checklist tab: the trip's shared packing and to-do lists (GET …/checklist), grouped
// by list, each entry checkable; editors add (POST), edit text/list/assignee (PATCH),
// check/uncheck, reorder (POST …/move) and delete entries. Assignees are the trip's
// members (GET …/members).
// testids: checklist-add-form (inputs name=text, list, assignee), checklist-add-submit,
// checklist-progress, checklist-list (each list, data-list), checklist-item (data-id,
// data-checked; inside: checkbox data-action=check, buttons data-action = edit | up |
// down | delete), checklist-dialog, checklist-edit-form, checklist-save.

import { get, post, patch, del, seg } from '../api.js';
import { h, form, flash, describe, shortID } from '../dom.js';
import { labelled, rerender } from '../ui.js';
import { confirmDialog, closeDialogs, openDialog } from './trip-common.js';

export async function renderTab(container, trip, _ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}/checklist`;
  let entries = [];
  let members = [];
  const lists = h('div', { class: 'trip-checklist', 'data-testid': 'checklist' });
  const progress = h('p', { class: 'muted', 'data-testid': 'checklist-progress', 'aria-live': 'polite' });
  const listNames = h('datalist', { id: 'checklist-lists-' + trip.id });

  const memberOptions = (selected) => [
    h('option', { value: '' }, 'nobody'),
    ...members.map((m) => h('option', { value: m.id, selected: m.id === selected }, (m.name || shortID(m.id)) + (m.role === 'owner' ? ' (owner)' : ''))),
  ];
  const assigneeSelect = h('select', { name: 'assignee' });

  const addForm = trip.canEdit
    ? form(
        { class: 'card trip-checklist-add', 'data-testid': 'checklist-add-form' },
        [
          h(
            'div',
            { class: 'row' },
            labelled('New entry', h('input', { type: 'text', name: 'text', required: true, maxlength: '500', placeholder: 'Passport', autocomplete: 'off' })),
            labelled('List', h('input', { type: 'text', name: 'list', maxlength: '100', list: listNames.id, placeholder: 'Packing, To do…', autocomplete: 'off' })),
            labelled('Who takes care of it', assigneeSelect),
          ),
          h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'checklist-add-submit' }, 'Add')),
        ],
        async (values, el) => {
          const request = { text: values.text.trim() };
          if (values.list.trim()) request.list = values.list.trim();
          if (values.assignee) request.assignee = values.assignee;
          await post(base, request);
          el.elements.text.value = '';
          el.elements.text.focus();
          await load();
        },
      )
    : null;

  container.append(h('div', { class: 'toolbar' }, h('h3', { class: 'trip-tab-title' }, 'Checklist'), progress), listNames, addForm, lists);

  async function load() {
    const list = await get(base);
    entries = list.items;
    draw();
  }

  function draw() {
    const done = entries.filter((e) => e.checked).length;
    progress.textContent = entries.length ? `${done} of ${entries.length} done` : '';
    const groups = new Map();
    for (const entry of entries) {
      const key = entry.list || '';
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    listNames.replaceChildren(...[...groups.keys()].filter(Boolean).map((name) => h('option', { value: name })));
    rerender(lists, () =>
      entries.length
        ? [...groups].map(([name, group]) =>
            h(
              'section',
              { class: 'trip-checklist-group', 'data-testid': 'checklist-list', dataset: { list: name } },
              h('h4', {}, name || 'Checklist', h('span', { class: 'muted' }, ` ${group.filter((e) => e.checked).length}/${group.length}`)),
              h('ul', { class: 'list' }, group.map(row)),
            ),
          )
        : h('p', { class: 'empty' }, 'Nothing on the checklist yet.'),
    );
  }

  // Up and down move an entry among the entries of its own list (the positions are global).
  const sameList = (entry) => entries.filter((e) => (e.list || '') === (entry.list || ''));
  function neighbour(entry, step) {
    const group = sameList(entry);
    return group[group.indexOf(entry) + step] || null;
  }

  function row(entry) {
    const box = h('input', {
      type: 'checkbox',
      checked: entry.checked,
      disabled: !trip.canEdit,
      dataset: { action: 'check' },
      id: 'chk-' + entry.id,
      'aria-describedby': entry.assignee ? 'chk-who-' + entry.id : null,
    });
    return h(
      'li',
      { class: entry.checked ? 'trip-check-item done' : 'trip-check-item', 'data-testid': 'checklist-item', dataset: { id: entry.id, checked: entry.checked ? 'true' : 'false' } },
      box,
      h('label', { for: box.id, class: 'grow trip-check-text' }, entry.text),
      entry.assignee ? h('span', { class: 'muted', id: 'chk-who-' + entry.id, title: entry.assignee }, '👤 ' + (entry.assigneeName || shortID(entry.assignee))) : null,
      trip.canEdit
        ? h(
            'div',
            { class: 'trip-item-actions' },
            h('button', { type: 'button', dataset: { action: 'edit' }, 'aria-label': `Edit ${entry.text}` }, 'Edit'),
            h('button', { type: 'button', dataset: { action: 'up' }, disabled: !neighbour(entry, -1), 'aria-label': `Move ${entry.text} up` }, '↑'),
            h('button', { type: 'button', dataset: { action: 'down' }, disabled: !neighbour(entry, 1), 'aria-label': `Move ${entry.text} down` }, '↓'),
            h('button', { type: 'button', class: 'danger', dataset: { action: 'delete' }, 'aria-label': `Delete ${entry.text}` }, 'Delete'),
          )
        : null,
    );
  }

  function editDialog(entry) {
    const { body, close } = openDialog('Edit checklist entry', { 'data-testid': 'checklist-dialog' });
    const text = h('input', { type: 'text', name: 'text', value: entry.text, maxlength: '500', required: true });
    body.appendChild(
      form(
        { 'data-testid': 'checklist-edit-form' },
        [
          labelled('Entry', text),
          labelled('List', h('input', { type: 'text', name: 'list', value: entry.list || '', maxlength: '100', list: listNames.id })),
          labelled('Who takes care of it', h('select', { name: 'assignee' }, memberOptions(entry.assignee))),
          h(
            'div',
            { class: 'form-actions' },
            h('button', { type: 'submit', class: 'primary', 'data-testid': 'checklist-save' }, 'Save'),
            h('button', { type: 'button', onclick: close }, 'Cancel'),
          ),
        ],
        async (values) => {
          const changes = {};
          if (values.text.trim() !== entry.text) changes.text = values.text.trim();
          if ((values.list.trim() || null) !== (entry.list || null)) changes.list = values.list.trim() || null;
          if ((values.assignee || null) !== (entry.assignee || null)) changes.assignee = values.assignee || null;
          if (Object.keys(changes).length) await patch(`${base}/${seg(entry.id)}`, changes);
          close();
          await load();
        },
      ),
    );
    text.focus();
  }

  lists.addEventListener('change', async (event) => {
    const box = event.target.closest('input[data-action="check"]');
    if (!box) return;
    const rowEl = box.closest('[data-testid="checklist-item"]');
    try {
      await patch(`${base}/${seg(rowEl.dataset.id)}`, { checked: box.checked });
      await load();
    } catch (error) {
      box.checked = !box.checked;
      rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
    }
  });

  lists.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const rowEl = button.closest('[data-testid="checklist-item"]');
    const entry = entries.find((e) => e.id === (rowEl && rowEl.dataset.id));
    if (!entry) return;
    try {
      if (button.dataset.action === 'edit') editDialog(entry);
      else if (button.dataset.action === 'up' || button.dataset.action === 'down') {
        const other = neighbour(entry, button.dataset.action === 'up' ? -1 : 1);
        if (!other) return;
        button.disabled = true;
        const list = await post(`${base}/${seg(entry.id)}/move`, { position: entries.indexOf(other) + 1 });
        entries = list.items;
        draw();
      } else if (button.dataset.action === 'delete') {
        if (!(await confirmDialog(`Delete “${entry.text}”?`, 'Delete'))) return;
        await del(`${base}/${seg(entry.id)}`);
        await load();
      }
    } catch (error) {
      if (rowEl.isConnected) rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
      else flash(describe(error));
    }
  });

  async function loadMembers() {
    try {
      members = (await get(`/v1/itineraries/${seg(trip.id)}/members`)).members;
    } catch {
      members = [];
    }
    const chosen = assigneeSelect.value;
    assigneeSelect.replaceChildren(...memberOptions(chosen));
  }

  await Promise.all([load().catch((error) => lists.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, describe(error)))), loadMembers()]);
  return {
    async refresh() {
      try {
        await Promise.all([load(), loadMembers()]);
      } catch (error) {
        flash(describe(error));
      }
    },
    cleanup: closeDialogs,
  };
}
