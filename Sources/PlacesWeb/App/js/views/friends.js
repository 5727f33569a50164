// #/friends — friend requests waiting for you (accept / decline), adding a friend (make a
// friend link to share, with its QR code; redeem a pasted link; or send a request by
// public id), your friends and the requests you sent (profile, map, remove), and your
// contacts with the favorites they share (second section). Live: requests, acceptances,
// removals and "last seen" from other devices or the CLI show within a second; the
// forms keep what was typed.
// testids: friends (section), friend-requests, friend-request-item (data-id = the
//   invitation id, data-from), friend-request-accept, friend-request-decline,
//   friend-link-create (button), friend-link-hours (select), friend-link-value (input),
//   friend-link-copy, friend-link-qr, friend-link-accept (form), friend-link-input,
//   friend-add (form), friend-add-id, friends-list, friend-item (data-id, data-state),
//   friend-profile-link, friend-map-link, friend-remove (+ friend-remove-confirm),
//   friends-empty; contacts: see social-contacts.js

import { get, post, del, seg } from '../api.js';
import { h, mount, form, action, formatTime, clearErrors, flash } from '../dom.js';
import { confirmButton } from '../ui.js';
import { refresher, reconcile, avatar, timeAgo } from './social-common.js';
import { contactsSection } from './social-contacts.js';

export async function render(main, _params, ctx) {
  const requestsBox = h('section', { class: 'card', hidden: true, dataset: { testid: 'friend-requests' }, 'aria-labelledby': 'requests-h' });
  const list = h('ul', { class: 'list friends-list', 'aria-labelledby': 'friends-h', dataset: { testid: 'friends-list' } });
  const emptyLine = h('p', { class: 'empty', hidden: true, dataset: { testid: 'friends-empty' } }, 'No friends yet. Share a friend link, or paste one a friend gave you.');
  const contacts = contactsSection(ctx);

  mount(
    main,
    h(
      'section',
      { class: 'friends', dataset: { testid: 'friends' } },
      h(
        'div',
        { class: 'toolbar' },
        h('h2', { class: 'grow' }, 'Friends'),
        h('a', { class: 'button', href: '#/groups' }, 'Groups'),
        h('a', { class: 'button', href: '#/feed' }, 'Feed'),
      ),
      requestsBox,
      h('section', { class: 'friends-section', 'aria-labelledby': 'friends-h' }, h('h3', { id: 'friends-h' }, 'Your friends'), list, emptyLine),
      addFriendCard(() => refresh()),
      contacts.el,
    ),
  );

  const rows = new Map();

  async function load() {
    const [friends, invitations] = await Promise.all([get('/v1/friends'), get('/v1/invitations')]);
    const requests = invitations.invitations.filter((i) => i.kind === 'friend' && i.status === 'pending');
    renderRequests(requests);
    const nodes = friends.friends.map((f) => {
      const key = JSON.stringify(f);
      let row = rows.get(f.id);
      // A row the user is working in (an open "Remove?") stays as it is until they leave it.
      if (!row || (row.key !== key && !row.el.contains(document.activeElement))) {
        row = { key, el: friendRow(f, () => refresh()) };
        rows.set(f.id, row);
      }
      return row.el;
    });
    const seen = new Set(friends.friends.map((f) => f.id));
    for (const id of [...rows.keys()]) if (!seen.has(id)) rows.delete(id);
    reconcile(list, nodes);
    emptyLine.hidden = nodes.length > 0;
  }

  function renderRequests(requests) {
    requestsBox.hidden = requests.length === 0;
    if (!requests.length) {
      requestsBox.replaceChildren();
      return;
    }
    if (requestsBox.contains(document.activeElement) && requestsBox.dataset.key === JSON.stringify(requests)) return;
    requestsBox.dataset.key = JSON.stringify(requests);
    mount(
      requestsBox,
      h('h3', { id: 'requests-h' }, 'Friend requests (' + requests.length + ')'),
      h(
        'ul',
        { class: 'list' },
        requests.map((r) =>
          h(
            'li',
            { dataset: { testid: 'friend-request-item', id: r.id, from: r.from } },
            avatar(null, r.fromName),
            h(
              'div',
              { class: 'grow' },
              h('span', { class: 'person', title: r.from }, r.fromName || r.from.split('-')[0]),
              h('div', { class: 'muted' }, 'wants to be your friend · ', timeAgo(r.receivedAt)),
              h('div', { class: 'muted s-mono' }, r.from),
            ),
            action(
              'Accept',
              async () => {
                await post('/v1/invitations/' + seg(r.id) + '/accept');
                flash('You are now friends with ' + (r.fromName || 'them') + '.', 'ok');
                await refresh();
              },
              { class: 'primary', 'aria-label': 'Accept the friend request of ' + (r.fromName || r.from), dataset: { testid: 'friend-request-accept' } },
            ),
            action(
              'Decline',
              async () => {
                await post('/v1/invitations/' + seg(r.id) + '/decline');
                await refresh();
              },
              { 'aria-label': 'Decline the friend request of ' + (r.fromName || r.from), dataset: { testid: 'friend-request-decline' } },
            ),
          ),
        ),
      ),
    );
  }

  const refresh = refresher(load);
  await Promise.all([load(), contacts.load()]);

  ctx.onEvent((event) => {
    switch (event.type) {
      case 'friend':
      case 'unfriended':
      case 'invited':
      case 'notification':
      case 'peer':
      case 'resync':
        refresh();
        contacts.refresh();
        break;
      case 'changed':
        // A friend's contact card (name, bio, picture, shared favorites) arrives as a
        // change of a document of theirs, whatever its kind.
        if (event.docKind !== 'published') {
          refresh();
          contacts.refresh();
        }
        break;
      default:
    }
  });
  return () => {
    refresh.stop();
    contacts.stop();
  };
}

function friendRow(f, changed) {
  const name = f.name || f.id.split('-')[0];
  const href = '#/friends/' + encodeURIComponent(f.id);
  return h(
    'li',
    { class: 'friend-row', dataset: { testid: 'friend-item', id: f.id, state: f.state } },
    avatar(f.picture, name),
    h(
      'div',
      { class: 'grow' },
      h(
        'div',
        { class: 'row' },
        h('a', { class: 'person', href, dataset: { testid: 'friend-profile-link' } }, name),
        f.username ? h('span', { class: 'muted' }, '@' + f.username) : null,
        f.state === 'requested' ? h('span', { class: 's-tag s-tag-warn' }, 'Request sent, waiting for an answer') : null,
      ),
      f.bio ? h('p', { class: 'friend-bio' }, f.bio) : null,
      h(
        'div',
        { class: 'muted' },
        (f.state === 'requested' ? 'Asked ' : 'Friends since ') + new Date(f.since).toLocaleDateString(),
        ' · ',
        f.lastSeen ? h('span', { title: formatTime(f.lastSeen) }, 'last seen ', timeAgo(f.lastSeen)) : 'not seen yet',
      ),
    ),
    h(
      'div',
      { class: 'row' },
      f.state === 'friend'
        ? h(
            'a',
            { class: 'button', href: '#/map/friend/' + encodeURIComponent(f.id), dataset: { testid: 'friend-map-link' }, 'aria-label': 'Map of the places ' + name + ' shares' },
            'Map',
          )
        : null,
      confirmButton(
        f.state === 'requested' ? 'Withdraw request' : 'Remove',
        async () => {
          await del('/v1/friends/' + seg(f.id));
          changed();
        },
        {
          confirmLabel: f.state === 'requested' ? 'Withdraw it' : 'Remove ' + name,
          'aria-label': (f.state === 'requested' ? 'Withdraw the request to ' : 'Remove ') + name,
          dataset: { testid: 'friend-remove' },
        },
      ),
    ),
  );
}

function addFriendCard(changed) {
  // A link to share.
  const hours = h(
    'select',
    { id: 'friend-link-hours', dataset: { testid: 'friend-link-hours' } },
    h('option', { value: '1' }, '1 hour'),
    h('option', { value: '24' }, '1 day'),
    h('option', { value: '168' }, '1 week'),
    h('option', { value: '720' }, '30 days'),
  );
  hours.value = '24';
  const output = h('div', { class: 'friend-link-output', hidden: true });
  const create = action(
    'Make a friend link',
    async () => {
      const link = await post('/v1/friends/link', { validHours: Number(hours.value) });
      const value = h('input', { id: 'friend-link-value', readonly: true, value: link.link, class: 'link-value', dataset: { testid: 'friend-link-value' } });
      const copy = h('button', { type: 'button', dataset: { testid: 'friend-link-copy' } }, 'Copy');
      const copied = h('span', { class: 'muted', role: 'status' });
      copy.addEventListener('click', async () => {
        try {
          await navigator.clipboard.writeText(link.link);
          copied.textContent = 'Copied.';
        } catch {
          value.select();
          copied.textContent = 'Selected: press Ctrl+C to copy.';
        }
      });
      let qr = null;
      try {
        const { qrSVG } = await import('../qr.js');
        qr = qrSVG(link.link, { label: 'QR code of your friend link' });
        qr.dataset.testid = 'friend-link-qr';
      } catch {
        /* the link itself is enough */
      }
      mount(
        output,
        h('div', { class: 'field' }, h('label', { for: 'friend-link-value' }, 'Your friend link'), h('div', { class: 'row' }, value, copy, copied)),
        h('p', { class: 'muted' }, 'Whoever redeems it before ', formatTime(link.expiresAt), ' becomes your friend without another question. Give it only to people you know.'),
        qr ? h('div', { class: 'qr-box' }, qr) : null,
      );
      output.hidden = false;
      value.focus();
      value.select();
    },
    { class: 'primary', dataset: { testid: 'friend-link-create' } },
  );

  // A link someone gave you.
  const linkForm = form(
    { class: 'friend-form', dataset: { testid: 'friend-link-accept' }, 'aria-labelledby': 'redeem-h' },
    [
      h('h4', { id: 'redeem-h' }, 'Got a friend link?'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'friend-link-input' }, 'Paste the link (places://friend/…)'),
        h('input', { id: 'friend-link-input', name: 'link', autocomplete: 'off', spellcheck: 'false', placeholder: 'places://friend/…', dataset: { testid: 'friend-link-input' } }),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'friend-link-submit' } }, 'Add friend')),
    ],
    async (values, el) => {
      const link = (values.link || '').trim();
      if (!link) throw Object.assign(new Error('Paste the link first.'), { field: 'link' });
      const friend = await post('/v1/friends', { link });
      el.reset();
      clearErrors(el);
      flash(friend.state === 'friend' ? `You are now friends with ${friend.name || 'them'}.` : 'Request sent: it is accepted when their device is reachable.', 'ok');
      changed();
    },
  );

  // A request by public id.
  const idForm = form(
    { class: 'friend-form', dataset: { testid: 'friend-add' }, 'aria-labelledby': 'byid-h' },
    [
      h('h4', { id: 'byid-h' }, 'Ask by their id'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'friend-add-id' }, 'Their public id (they find it on their profile)'),
        h('input', { id: 'friend-add-id', name: 'id', autocomplete: 'off', spellcheck: 'false', placeholder: 'AAAAAAA-BBBBBBB-…', dataset: { testid: 'friend-add-id' } }),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', dataset: { testid: 'friend-add-submit' } }, 'Send request')),
    ],
    async (values, el) => {
      const id = (values.id || '').trim().toUpperCase();
      if (!id) throw Object.assign(new Error('Enter their id first.'), { field: 'id' });
      const friend = await post('/v1/friends', { id });
      el.reset();
      clearErrors(el);
      flash(friend.state === 'friend' ? `You are now friends with ${friend.name || 'them'}.` : 'Friend request sent.', 'ok');
      changed();
    },
  );

  return h(
    'section',
    { class: 'card add-friend', 'aria-labelledby': 'add-h' },
    h('h3', { id: 'add-h' }, 'Add a friend'),
    h(
      'div',
      { class: 'add-friend-grid' },
      h(
        'div',
        { class: 'friend-form' },
        h('h4', {}, 'Meeting in person?'),
        h('p', { class: 'muted' }, 'Make a link (and a QR code) they redeem in their app.'),
        h('div', { class: 'row' }, h('div', { class: 'field' }, h('label', { for: 'friend-link-hours' }, 'Valid for'), hours), create),
        output,
      ),
      linkForm,
      idForm,
    ),
  );
}
