// #/peers: this daemon (where peers reach it, discovery, ops held) and the peer daemons it
// syncs with: connected or last seen, their addresses, and how far each shared document is
// in sync. Add a static peer address. Live on `peer` and `changed` events, and polled
// quietly (a disconnection publishes no event).
// Testids:
//   status-card, status-id, status-listen, status-discovery, status-opcount, status-version,
//   peer-add (form), peer-address (input), peer-add-submit, static-peers (ul), static-peer (li),
//   peers-count, peers-list, peer-item (li, data-id = peer id, data-connected="true|false"),
//   peer-name, peer-state, peer-document (li, data-id = document id, data-state = in-sync|syncing|unknown).

import { get, post } from '../api.js';
import { h, mount, form, field, empty, flash, formatTime, shortID } from '../dom.js';
import { debounce, plural, rerender } from '../ui.js';
import { quietGet } from './library-util.js';

const STATES = { 'in-sync': 'in sync', syncing: 'syncing', unknown: 'not compared yet' };

export async function render(main, _params, ctx) {
  const statusCard = h('section', { class: 'card status-card', 'data-testid': 'status-card', 'aria-labelledby': 'status-heading' });
  const count = h('p', { class: 'count', 'data-testid': 'peers-count', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list peers-list', 'data-testid': 'peers-list', 'aria-label': 'Peer daemons' });
  const staticList = h('ul', { class: 'static-peers', 'data-testid': 'static-peers', 'aria-label': 'Static peer addresses' });

  const addForm = form(
    { class: 'row peer-add', 'data-testid': 'peer-add', 'aria-label': 'Add a peer address' },
    [
      field('Peer address (HOST:PORT)', { name: 'address', id: 'peer-address', placeholder: '192.168.1.20:7420', autocomplete: 'off', 'data-testid': 'peer-address' }),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'peer-add-submit' }, 'Add peer')),
    ],
    async (values, el) => {
      const address = values.address.trim();
      if (!address) {
        const input = el.elements.address;
        input.after(h('p', { class: 'field-error', role: 'alert' }, 'Type an address such as 192.168.1.20:7420 or [fe80::1]:7420.'));
        input.focus();
        return;
      }
      showPeers(await post('/v1/peers', { address }));
      el.reset();
      flash(`Added ${address}: the daemon dials it now and after every restart.`, 'ok');
    },
  );

  mount(
    main,
    h('h2', {}, 'Peers and sync'),
    statusCard,
    h('section', { class: 'card', 'aria-labelledby': 'peers-heading' }, h('h3', { id: 'peers-heading' }, 'Peer daemons'), count, list),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'static-heading' },
      h('h3', { id: 'static-heading' }, 'Static peers'),
      h('p', { class: 'muted' }, 'Where LAN discovery cannot reach (another network, a box in the van), give a peer’s address; it is kept and dialled with backoff.'),
      staticList,
      addForm,
    ),
  );

  function showStatus(status) {
    const row = (label, value, testid) => h('div', { class: 'status-row' }, h('dt', {}, label), h('dd', { 'data-testid': testid }, value));
    mount(
      statusCard,
      h('h3', { id: 'status-heading' }, 'This daemon'),
      h(
        'dl',
        { class: 'status-list' },
        row('Your id', h('code', { title: status.id || '' }, status.id || '—'), 'status-id'),
        row('Peers connect to', status.listen || 'not listening', 'status-listen'),
        row('LAN discovery', status.discovery ? 'on' : 'off', 'status-discovery'),
        row('Ops held', status.opCount != null ? status.opCount.toLocaleString() : '—', 'status-opcount'),
        row('Version', status.version, 'status-version'),
      ),
    );
  }

  let names = new Map(); // person id → name, for peers that did not say theirs
  async function loadNames() {
    const [contacts, friends] = await Promise.all([quietGet('/v1/contacts'), quietGet('/v1/friends')]);
    const next = new Map();
    for (const c of (contacts && contacts.contacts) || []) if (c.name) next.set(c.id, c.name);
    for (const f of (friends && friends.friends) || []) if (f.name) next.set(f.id, f.name);
    names = next;
  }

  function peerItem(peer) {
    const docs = peer.documents || [];
    const name = peer.name || names.get(peer.id) || shortID(peer.id);
    return h(
      'li',
      { class: 'peer-item', 'data-testid': 'peer-item', 'data-id': peer.id, 'data-connected': String(peer.connected) },
      h('span', { class: peer.connected ? 'dot on' : 'dot', 'aria-hidden': 'true' }),
      h(
        'div',
        { class: 'grow' },
        h(
          'div',
          { class: 'row' },
          h('strong', { title: peer.id, 'data-testid': 'peer-name' }, name),
          h(
            'span',
            { class: peer.connected ? 'state on' : 'state', 'data-testid': 'peer-state' },
            peer.connected ? 'connected' : peer.lastSeen ? 'last seen ' + formatTime(peer.lastSeen) : 'not connected',
          ),
        ),
        h('div', { class: 'muted' }, h('code', {}, peer.id)),
        peer.addresses.length ? h('div', { class: 'muted' }, 'At ', peer.addresses.join(', ')) : null,
        docs.length
          ? h(
              'ul',
              { class: 'peer-docs', 'aria-label': `Documents shared with ${name}` },
              docs.map((doc) =>
                h(
                  'li',
                  { 'data-testid': 'peer-document', 'data-id': doc.id, 'data-state': doc.state },
                  h('span', { class: 'doc-name', title: doc.id }, doc.name || 'document ' + doc.id.slice(0, 8)),
                  ' — ',
                  h('span', { class: 'sync-state sync-' + doc.state }, STATES[doc.state] || doc.state),
                  lacking(doc),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'No shared documents with this peer.'),
      ),
    );
  }

  function lacking(doc) {
    const parts = [];
    if (doc.weLack) parts.push(`${plural(doc.weLack, 'op')} to receive`);
    if (doc.theyLack) parts.push(`${plural(doc.theyLack, 'op')} to send`);
    return parts.length ? h('span', { class: 'muted' }, ' (' + parts.join(', ') + ')') : null;
  }

  function showPeers(answer) {
    const connected = answer.peers.filter((p) => p.connected).length;
    count.textContent = answer.count ? `${plural(answer.count, 'peer')}, ${connected} connected.` : 'No peers yet.';
    rerender(
      list,
      answer.peers.length
        ? answer.peers.map(peerItem)
        : [h('li', { class: 'placeholder' }, empty('No peer daemon has connected yet. Friends on the same network appear here by themselves; elsewhere add an address below.'))],
    );
    rerender(
      staticList,
      answer.staticPeers.length ? answer.staticPeers.map((address) => h('li', { 'data-testid': 'static-peer' }, h('code', {}, address))) : [h('li', {}, empty('None.'))],
    );
  }

  async function load(quiet) {
    const fetcher = quiet ? quietGet : get;
    const [status, peers] = await Promise.all([fetcher('/v1/status'), fetcher('/v1/peers')]);
    if (status) showStatus(status);
    if (peers) showPeers(peers);
  }

  await loadNames();
  await load(false);
  const refresh = debounce(() => load(true).catch((error) => flash(error.message)), 100);
  ctx.onEvent((event) => {
    if (['peer', 'changed', 'shared', 'resync', 'friend', 'unfriended'].includes(event.type)) refresh();
    if (['peer', 'friend', 'resync'].includes(event.type)) loadNames();
  });
  const poll = setInterval(() => {
    if (!document.hidden) refresh();
  }, 3000);
  return () => {
    clearInterval(poll);
    refresh.cancel();
  };
}
