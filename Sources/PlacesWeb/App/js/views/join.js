// #/join: paste a share link (places://join/<doc>#<token>), join the itinerary
// (POST /v1/join), then open it. The daemon looks for a member's device for up to
// `waitSeconds`; a <progress> runs meanwhile. Problems (invalid-link, link-expired,
// link-revoked, no-member-reachable…) show beside the link field. #/join?link=… fills it in.
// testids: join-form, join-link (textarea), join-wait (seconds), join-submit, join-progress.

import { post } from '../api.js';
import { h, mount, form, flash } from '../dom.js';
import { fieldError, labelled } from '../ui.js';

export async function render(main, _params, ctx) {
  const link = h(
    'textarea',
    {
      name: 'link',
      rows: '3',
      required: true,
      'data-testid': 'join-link',
      spellcheck: 'false',
      autocomplete: 'off',
      placeholder: 'places://join/…#…',
    },
    (ctx.query && ctx.query.get('link')) || '',
  );
  const wait = h('input', { type: 'number', name: 'waitSeconds', min: '1', max: '120', value: '15', 'data-testid': 'join-wait', class: 'trip-narrow' });
  const progress = h(
    'div',
    { class: 'trip-join-progress', hidden: true, 'data-testid': 'join-progress', role: 'status' },
    h('progress', { 'aria-label': 'Looking for a member’s device' }),
    h('span', {}, ' Looking for a device of the trip’s members…'),
  );

  const joinForm = form(
    { class: 'card', 'data-testid': 'join-form' },
    [
      labelled('Share link', link, 'The link someone gave you. It is a secret: anyone who has it can read the trip.'),
      labelled('Wait up to (seconds)', wait),
      progress,
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'join-submit' }, 'Join'),
        h('a', { href: '#/itineraries', class: 'button' }, 'Cancel'),
      ),
    ],
    async (values) => {
      const text = values.link.trim();
      if (!text) throw fieldError('link', 'Paste the share link first.');
      const request = { link: text };
      const seconds = Number(values.waitSeconds);
      if (values.waitSeconds && (!Number.isInteger(seconds) || seconds < 1 || seconds > 120)) throw fieldError('waitSeconds', 'Wait between 1 and 120 seconds.');
      if (values.waitSeconds) request.waitSeconds = seconds;
      progress.hidden = false;
      try {
        const itinerary = await post('/v1/join', request);
        flash(`You joined “${itinerary.name}” as ${itinerary.role === 'editor' ? 'an editor' : 'a viewer'}.`, 'ok');
        ctx.navigate(`#/itineraries/${itinerary.id}`);
      } catch (error) {
        if (error.code && error.code.startsWith('link-') && !error.field) error.field = 'link';
        if (error.code === 'already-member' && !error.field) error.field = 'link';
        throw error;
      } finally {
        progress.hidden = true;
      }
    },
  );

  mount(
    main,
    h('nav', { class: 'trip-back', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/itineraries' }, '← Itineraries')),
    h('h2', {}, 'Join a trip'),
    h('p', { class: 'muted' }, 'Paste a share link to join that itinerary as the editor or viewer the link names.'),
    joinForm,
  );
  link.focus();
}
