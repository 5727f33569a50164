// Share links of the Sharing tab: make a viewer or editor link (expiry, uses, audience), its
// QR code drawn locally (qr.js), copy it, list every link with its state, revoke.
// A link's text (`url`) is a bearer secret the daemon shows only once, in the answer that
// made it: this page keeps it in memory for the tab's life and never stores it.
// testids: link-create (form), link-role, link-expires, link-uses, link-audience,
//   link-submit, link-card (a link made in this tab, inside its row), link-url, link-copy, link-qr,
//   link-row (data-id, data-state), link-revoke.

import { post, del, seg } from '../api.js';
import { h, field, form, formatTime, empty, shortID } from '../dom.js';
import { qrSVG } from '../qr.js';
import { confirmButton, copyText, trackDirty } from '../ui.js';

const EXPIRIES = [
  ['', 'Never'],
  ['1h', 'In 1 hour'],
  ['1d', 'In 1 day'],
  ['7d', 'In 7 days'],
  ['30d', 'In 30 days'],
];

/** The link text with its QR code and a copy button. */
export function linkCard(url, role) {
  const input = h('input', { readonly: true, value: url, class: 'link-url', 'aria-label': `The ${role} link`, dataset: { testid: 'link-url' }, onfocus: (e) => e.target.select() });
  const status = h('span', { class: 'muted', 'aria-live': 'polite' });
  let qr;
  try {
    qr = qrSVG(url, { label: `QR code of the ${role} link` });
    qr.dataset.testid = 'link-qr';
  } catch (error) {
    qr = h('p', { class: 'field-error' }, 'No QR code: ' + error.message);
  }
  return h(
    'div',
    { class: 'link-card', dataset: { testid: 'link-card' } },
    h('div', { class: 'qr-box' }, qr),
    h(
      'div',
      { class: 'grow link-text' },
      input,
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            dataset: { testid: 'link-copy' },
            onclick: async () => {
              status.textContent = (await copyText(url, input)) ? 'Copied.' : 'Select the link and copy it (Ctrl+C).';
            },
          },
          'Copy link',
        ),
        status,
      ),
      h(
        'p',
        { class: 'muted' },
        'Anyone who has this link can read the whole trip and, within its limits, join it. Send it only to the people it is for. Scan the code with the Places app or paste the link into “Join”.',
      ),
    ),
  );
}

/** The form that makes a link. `ctl`: { trip, isOwner, onMade(link) }. */
export function linkCreateForm(ctl) {
  const roles = ctl.isOwner
    ? [
        ['viewer', 'Viewer (can read)'],
        ['editor', 'Editor (can change)'],
      ]
    : [['viewer', 'Viewer (can read)']];
  const role = field('Role', { name: 'role', dataset: { testid: 'link-role' } }, 'select');
  role.querySelector('select').append(...roles.map(([value, label]) => h('option', { value }, label)));
  const expires = field('Stops working', { name: 'expires', dataset: { testid: 'link-expires' } }, 'select');
  expires.querySelector('select').append(
    ...EXPIRIES.map(([value, label]) => {
      const option = h('option', { value }, label);
      option.defaultSelected = value === '7d'; // kept by form.reset()
      return option;
    }),
  );
  const el = form(
    { class: 'card link-form', dataset: { testid: 'link-create' }, 'aria-label': 'Make a share link' },
    [
      h('h3', {}, 'Make a share link'),
      h(
        'div',
        { class: 'form-grid' },
        role,
        expires,
        field('How many people may join (empty: any)', { name: 'uses', type: 'number', min: 1, max: 1000000, inputmode: 'numeric', dataset: { testid: 'link-uses' } }),
        field('Only this person may join (their id, optional)', {
          name: 'audience',
          autocomplete: 'off',
          spellcheck: 'false',
          dataset: { testid: 'link-audience' },
          placeholder: 'AOQQPP7-…',
        }),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'link-submit' } }, 'Make link')),
    ],
    async (values, formEl) => {
      const body = { role: values.role };
      if (values.expires) body.expires = values.expires;
      if (values.uses) {
        if (!/^[0-9]+$/.test(values.uses)) throw Object.assign(new Error('A number of people, from 1 to 1,000,000.'), { field: 'uses' });
        body.uses = Number(values.uses);
      }
      if (values.audience.trim()) body.audience = values.audience.trim();
      const link = await post(`/v1/itineraries/${seg(ctl.trip.id)}/links`, body);
      formEl.reset();
      delete formEl.dataset.dirty;
      ctl.onMade(link);
    },
  );
  return trackDirty(el);
}

const STATE_WORDS = { live: 'Works', expired: 'Expired', 'used-up': 'Used up', revoked: 'Revoked' };

/** Every link of the trip. `ctl`: { trip, isOwner, urls (Map id → url), names (Map id → name), onChange() }. */
export function linkList(links, ctl) {
  if (!links.length) return empty('No share links yet.');
  const sorted = [...links].sort((a, b) => (a.state === 'live' ? 0 : 1) - (b.state === 'live' ? 0 : 1) || String(b.createdAt || '').localeCompare(String(a.createdAt || '')));
  return h(
    'ul',
    { class: 'list links', dataset: { testid: 'link-list' } },
    sorted.map((link) => {
      const url = ctl.urls.get(link.id);
      const facts = [
        link.createdAt ? `made ${formatTime(link.createdAt)}` : null,
        link.expiresAt ? `${link.state === 'expired' ? 'expired' : 'expires'} ${formatTime(link.expiresAt)}` : 'never expires',
        link.uses ? `${link.uses} join${link.uses === 1 ? '' : 's'} allowed` : 'any number of joins',
        `${link.members} member${link.members === 1 ? '' : 's'} joined with it`,
      ].filter(Boolean);
      return h(
        'li',
        { class: ['link-row', 'state-' + link.state], dataset: { testid: 'link-row', id: link.id, state: link.state } },
        h(
          'div',
          { class: 'grow' },
          h(
            'div',
            { class: 'row' },
            h('strong', {}, link.role === 'editor' ? 'Editor link' : 'Viewer link'),
            h('span', { class: 'chip state' }, STATE_WORDS[link.state] || link.state),
            h('span', { class: 'muted', title: link.id }, shortID(link.id.slice(0, 8))),
          ),
          h('div', { class: 'muted' }, facts.join(' · ')),
          h(
            'div',
            { class: 'muted' },
            'By ',
            h('span', { class: 'person', title: link.issuer }, ctl.names.get(link.issuer) || shortID(link.issuer)),
            link.audience ? [' · only for ', h('span', { class: 'person', title: link.audience }, ctl.names.get(link.audience) || shortID(link.audience))] : null,
          ),
          url && link.state === 'live' ? linkCard(url, link.role) : null,
        ),
        ctl.isOwner && link.state !== 'revoked'
          ? confirmButton(
              'Revoke',
              async () => {
                await del(`/v1/itineraries/${seg(ctl.trip.id)}/links/${seg(link.id)}`);
                ctl.onChange();
              },
              { dataset: { action: 'revoke', testid: 'link-revoke' }, 'aria-label': `Revoke the ${link.role} link ${link.id.slice(0, 8)}` },
            )
          : null,
      );
    }),
  );
}
