// #/groups — your groups of friends (yours alone: members never learn them), to post
// to: create one (a name and members chosen from your friends), rename it, change its
// members, delete it. Live: changes from another device or the CLI show within a
// second; a form being edited is left alone until it is saved or cancelled.
// testids: groups (section), group-create (form), group-create-name,
//   group-create-member (checkbox, value = friend id), group-create-submit, groups-list,
//   group-item (data-id), group-name, group-members (text), group-edit (button),
//   group-edit-form, group-rename (input), group-member (checkbox, value = friend id),
//   group-save, group-cancel, group-delete (+ group-delete-confirm), groups-empty

import { get, post, patch, del, seg } from '../api.js';
import { h, mount, form, clearErrors, empty } from '../dom.js';
import { confirmButton, plural } from '../ui.js';
import { refresher, reconcile } from './social-common.js';

export async function render(main, _params, ctx) {
  let friends = [];
  const rows = new Map();
  const nameOf = (id) => {
    const f = friends.find((x) => x.id === id);
    return f ? f.name || f.username || id.split('-')[0] : id.split('-')[0];
  };

  const createMembers = h('fieldset', { class: 'member-picks', dataset: { field: 'members' } }, h('legend', {}, 'Members'));
  const createForm = form(
    { class: 'card group-create', dataset: { testid: 'group-create' }, 'aria-labelledby': 'group-create-h' },
    [
      h('h3', { id: 'group-create-h' }, 'New group'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'group-create-name' }, 'Name'),
        h('input', { id: 'group-create-name', name: 'name', maxlength: 100, required: true, placeholder: 'Close friends', dataset: { testid: 'group-create-name' } }),
      ),
      createMembers,
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'group-create-submit' } }, 'Create group')),
    ],
    async (values, el) => {
      const name = (values.name || '').trim();
      if (!name) throw Object.assign(new Error('Give the group a name.'), { field: 'name' });
      const members = [...createMembers.querySelectorAll('input:checked')].map((i) => i.value);
      await post('/v1/groups', { name, members });
      el.reset();
      clearErrors(el);
      await refresh();
    },
  );

  const list = h('ul', { class: 'list groups-list', 'aria-labelledby': 'groups-h', dataset: { testid: 'groups-list' } });
  const emptyLine = h('p', { class: 'empty', hidden: true, dataset: { testid: 'groups-empty' } }, 'No groups yet. A group lets you post to some of your friends only.');

  mount(
    main,
    h(
      'section',
      { class: 'groups', dataset: { testid: 'groups' } },
      h(
        'div',
        { class: 'toolbar' },
        h('h2', { class: 'grow' }, 'Groups'),
        h('a', { class: 'button', href: '#/friends' }, 'Friends'),
        h('a', { class: 'button', href: '#/feed' }, 'Feed'),
      ),
      h('p', { class: 'muted' }, 'Groups are yours alone: their names and members stay on this device. Post to a group from the feed; publish a trip to one from its itinerary.'),
      createForm,
      h('h3', { id: 'groups-h' }, 'Your groups'),
      list,
      emptyLine,
    ),
  );

  function memberPicks(container, checked, testid, prefix) {
    const kept = new Set([...container.querySelectorAll('input:checked')].map((i) => i.value));
    const want = kept.size || !checked ? kept : new Set(checked);
    const people = friends.filter((f) => f.state === 'friend');
    const extra = (checked || []).filter((id) => !people.some((f) => f.id === id));
    const legend = container.querySelector('legend');
    mount(
      container,
      legend,
      people.length || extra.length ? null : empty('You have no friends to add yet.'),
      people.map((f) => checkbox(f.id, f.name || f.username || f.id.split('-')[0], want.has(f.id), testid, prefix, f.username ? '@' + f.username : '')),
      extra.map((id) => checkbox(id, id.split('-')[0], want.has(id), testid, prefix, 'no longer a friend')),
    );
  }

  function checkbox(id, label, on, testid, prefix, note) {
    const inputId = prefix + '-' + id;
    return h(
      'div',
      { class: 's-check' },
      h('input', { type: 'checkbox', id: inputId, value: id, checked: on, dataset: { testid } }),
      h('label', { for: inputId }, label, note ? h('span', { class: 'muted' }, ' ' + note) : null),
    );
  }

  function groupRow(group) {
    let current = group;
    let editing = false;
    let shownKey = '';
    const keyOf = (g) => JSON.stringify([g, g.members.map(nameOf)]);
    const el = h('li', { class: 'group-row', dataset: { testid: 'group-item', id: group.id } });
    function view() {
      const g = current;
      shownKey = keyOf(g);
      const names = g.members.map(nameOf);
      mount(
        el,
        h(
          'div',
          { class: 'grow' },
          h('div', { class: 'row' }, h('strong', { dataset: { testid: 'group-name' } }, g.name), h('span', { class: 'muted' }, plural(g.members.length, 'member'))),
          h('p', { class: 'muted', dataset: { testid: 'group-members' } }, names.length ? names.join(', ') : 'No members yet.'),
        ),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              dataset: { testid: 'group-edit' },
              'aria-label': 'Edit ' + g.name,
              onclick: () => {
                editing = true;
                edit();
              },
            },
            'Edit',
          ),
          confirmButton(
            'Delete',
            async () => {
              await del('/v1/groups/' + seg(g.id));
              await refresh();
            },
            { confirmLabel: 'Delete “' + g.name + '”', 'aria-label': 'Delete ' + g.name, dataset: { testid: 'group-delete' } },
          ),
        ),
      );
    }
    function edit() {
      const g = current;
      const picks = h('fieldset', { class: 'member-picks', dataset: { field: 'members' } }, h('legend', {}, 'Members'));
      memberPicks(picks, g.members, 'group-member', 'gm-' + g.id);
      const editForm = form(
        { class: 'group-edit-form grow', dataset: { testid: 'group-edit-form' }, 'aria-label': 'Edit ' + g.name },
        [
          h(
            'div',
            { class: 'field' },
            h('label', { for: 'gr-' + g.id }, 'Name'),
            h('input', { id: 'gr-' + g.id, name: 'name', value: g.name, maxlength: 100, required: true, dataset: { testid: 'group-rename' } }),
          ),
          picks,
          h(
            'div',
            { class: 'form-actions' },
            h('button', { type: 'submit', class: 'primary', dataset: { testid: 'group-save' } }, 'Save'),
            h(
              'button',
              {
                type: 'button',
                dataset: { testid: 'group-cancel' },
                onclick: () => {
                  editing = false;
                  view();
                  focusEdit();
                },
              },
              'Cancel',
            ),
          ),
        ],
        async (values) => {
          const name = (values.name || '').trim();
          if (!name) throw Object.assign(new Error('A group needs a name.'), { field: 'name' });
          const members = [...picks.querySelectorAll('input:checked')].map((i) => i.value);
          const body = { members };
          if (name !== g.name) body.name = name;
          current = await patch('/v1/groups/' + seg(g.id), body);
          editing = false;
          view();
          focusEdit();
          refresh();
        },
      );
      mount(el, editForm);
      el.querySelector('input[name=name]').focus();
    }
    function focusEdit() {
      const b = el.querySelector('[data-testid=group-edit]');
      if (b) b.focus();
    }
    view();
    return {
      el,
      update(next) {
        current = next;
        if (editing || keyOf(next) === shownKey) return;
        const focused = el.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
        view();
        const again = focused && el.querySelector(`[data-testid="${focused}"]`);
        if (again) again.focus();
      },
    };
  }

  async function load() {
    const [f, g] = await Promise.all([get('/v1/friends'), get('/v1/groups')]);
    friends = f.friends;
    memberPicks(createMembers, null, 'group-create-member', 'gc');
    const nodes = g.groups.map((group) => {
      let row = rows.get(group.id);
      if (row) row.update(group);
      else {
        row = groupRow(group);
        rows.set(group.id, row);
      }
      return row.el;
    });
    const seen = new Set(g.groups.map((x) => x.id));
    for (const id of [...rows.keys()]) if (!seen.has(id)) rows.delete(id);
    reconcile(list, nodes);
    emptyLine.hidden = nodes.length > 0;
  }

  const refresh = refresher(load);
  await load();

  ctx.onEvent((event) => {
    if (
      event.type === 'resync' ||
      event.type === 'friend' ||
      event.type === 'unfriended' ||
      (event.type === 'changed' && (event.docKind === 'library' || event.docKind === 'outbox' || event.docKind === 'card'))
    )
      refresh();
  });
  return () => refresh.stop();
}
