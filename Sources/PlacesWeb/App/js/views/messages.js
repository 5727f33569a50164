// #/messages: conversations with friends and trips' conversations (id `trip:ITIN`), newest
// first, with unread counts; a new message to a friend or into a trip's conversation, with
// photos. #/messages/:id: one conversation, oldest first, each message with its photos
// ("Photo not arrived yet" until a friend's has reached this device), sent / delivered /
// read marks on yours and "message deleted" where the author deleted one for everyone;
// opening it marks it read, and its message notifications with it; a reply with photos. Live on `message` events.
// Photos are uploaded as soon as they are chosen (../photos.js `photoPicker`, as a post's)
// and named by id in the message (POST /v1/messages `photos`).
// Testids:
//   conversations-list, conversation-item (li, data-id, data-unread), conversation-unread,
//   conversation-preview, message-new-to (select: friends, then trips as `trip:ITIN`),
//   message-new-text, message-new-photos (file input), message-new-photo-item,
//   message-new-photo-progress, message-new-photo-remove, message-new-send,
//   messages-list, message-item (li, data-id, data-mine, data-mark="sent|delivered|read"),
//   message-text, message-photo (img, data-state loading|loaded|missing),
//   message-photo-pending ("Photo not arrived yet"), message-mark, message-delete (yours:
//   delete for everyone), message-text-input, message-photos (file input),
//   message-photo-item, message-photo-progress, message-photo-remove, message-send,
//   conversation-mute, message-from (a trip message of another member: its author).

import { get, post, put, del, seg } from '../api.js';
import { h, mount, action, empty, form, flash, formatTime, shortID } from '../dom.js';
import { debounce, fieldError, plural, rerender } from '../ui.js';
import { photoGrid, photoPicker } from '../photos.js';

function who(conversation) {
  if (conversation.trip) return 'Trip: ' + (conversation.trip.name || shortID(conversation.trip.id));
  return (conversation.with || []).map((p) => p.name || shortID(p.id)).join(', ') || shortID(conversation.id);
}

function preview(message) {
  if (!message) return '';
  if (message.deleted) return 'message deleted';
  const count = (message.photos || []).length;
  const text = [message.text, count ? plural(count, 'photo') : null].filter(Boolean).join(' · ');
  return (message.mine ? 'You: ' : '') + text;
}

/**
 * A message's text and photos, and its Send button: `prefix` names the test ids
 * (`PREFIX-photos`, …), `to()` answers the conversation to send to, `before` goes first
 * (the new message's "To"). Sends POST /v1/messages and calls `onSent(sent)`.
 */
function composer({ prefix, text, send, label, to, before = null, onSent }) {
  const photos = photoPicker({ prefix, noun: 'message' });
  return form({ class: 'stack message-compose', 'aria-label': label }, [before, text, photos.el, h('div', { class: 'form-actions' }, send)], async (values) => {
    photos.check();
    const body = { to: to(), text: (values.text || '').trim() || null };
    const ids = photos.ids();
    if (ids.length) body.photos = ids;
    if (!body.text && !ids.length) throw fieldError('text', 'Write a message or add a photo.');
    const sent = await post('/v1/messages', body);
    photos.clear();
    text.value = '';
    await onSent(sent);
  });
}

export async function render(main, params, ctx) {
  return params.id ? conversation(main, params.id, ctx) : conversations(main, ctx);
}

async function conversations(main, ctx) {
  const list = h('ol', { class: 'list conversations-list', 'data-testid': 'conversations-list', 'aria-label': 'Conversations, newest first' });
  const to = h('select', { name: 'to', 'data-testid': 'message-new-to', required: true });
  const text = h('textarea', { name: 'text', rows: 2, maxlength: 4000, 'data-testid': 'message-new-text', 'aria-label': 'Message' });
  const compose = composer({
    prefix: 'message-new',
    text,
    send: h('button', { type: 'submit', 'data-testid': 'message-new-send' }, 'Send'),
    label: 'New message',
    to: () => to.value,
    before: h('label', {}, 'To ', to),
    onSent: (sent) => ctx.navigate('#/messages/' + seg(sent.conversation)),
  });
  mount(main, h('h2', {}, 'Messages'), compose, list);

  const [friendList, tripList] = await Promise.all([get('/v1/friends'), get('/v1/itineraries')]);
  const friends = friendList.friends.filter((f) => f.state === 'friend');
  const trips = tripList.itineraries;
  to.replaceChildren(
    ...friends.map((f) => h('option', { value: f.id }, f.name || shortID(f.id))),
    trips.length
      ? h(
          'optgroup',
          { label: "Trips' conversations" },
          trips.map((t) => h('option', { value: 'trip:' + t.id }, 'Trip: ' + t.name)),
        )
      : null,
  );
  compose.hidden = !friends.length && !trips.length;

  async function show() {
    const answer = await get('/v1/conversations');
    rerender(
      list,
      answer.conversations.length
        ? answer.conversations.map((c) =>
            h(
              'li',
              { class: c.unread ? 'conversation unread' : 'conversation', 'data-testid': 'conversation-item', 'data-id': c.id, 'data-unread': String(c.unread) },
              h(
                'a',
                { href: '#/messages/' + seg(c.id), class: 'grow' },
                h('strong', {}, who(c)),
                c.muted ? h('span', { class: 'muted' }, ' (muted)') : null,
                h('p', { class: 'muted', 'data-testid': 'conversation-preview' }, preview(c.lastMessage)),
              ),
              c.unread ? h('span', { class: 'badge', 'data-testid': 'conversation-unread', 'aria-label': `${c.unread} unread` }, String(c.unread)) : null,
              c.lastMessage ? h('time', { datetime: c.lastMessage.sentAt, class: 'muted' }, formatTime(c.lastMessage.sentAt)) : null,
            ),
          )
        : [h('li', { class: 'placeholder' }, empty(friends.length || trips.length ? 'No messages yet. Write to a friend or a trip above.' : 'Add friends to write to them.'))],
    );
  }
  await show();
  const again = debounce(() => show().catch(() => {}), 150);
  ctx.onEvent((event) => {
    if (event.type === 'message' || event.type === 'resync') again();
  });
}

async function conversation(main, id, ctx) {
  // A trip's conversation has no per-member marks (docs/messages.md), and names each
  // message's author.
  const trip = id.startsWith('trip:');
  const names = new Map();
  const title = h('h2', {}, 'Conversation');
  const list = h('ol', { class: 'list messages-list', 'data-testid': 'messages-list', 'aria-label': 'Messages, oldest first', 'aria-live': 'polite' });
  const input = h('textarea', { name: 'text', rows: 2, maxlength: 4000, 'data-testid': 'message-text-input', 'aria-label': 'Your message' });
  const compose = composer({
    prefix: 'message',
    text: input,
    send: h('button', { type: 'submit', 'data-testid': 'message-send' }, 'Send'),
    label: 'Reply',
    to: () => id,
    onSent: () => show(),
  });
  let muted = false;
  const mute = action(
    'Mute',
    async () => {
      if (muted) await del('/v1/conversations/' + seg(id) + '/mute');
      else await put('/v1/conversations/' + seg(id) + '/mute', {});
      muted = !muted;
      mute.textContent = muted ? 'Unmute' : 'Mute';
    },
    { 'data-testid': 'conversation-mute' },
  );
  mount(main, h('p', {}, h('a', { href: '#/messages' }, '← Messages')), h('div', { class: 'toolbar' }, title, mute), list, compose);

  const listed = (await get('/v1/conversations')).conversations.find((c) => c.id === id);
  if (listed) {
    title.textContent = who(listed);
    for (const p of listed.with || []) names.set(p.id, p.name || shortID(p.id));
    muted = listed.muted;
    mute.textContent = muted ? 'Unmute' : 'Mute';
  } else if (trip) {
    // Listed once it holds a message: before the first, the trip names it.
    const itinerary = await get('/v1/itineraries/' + seg(id.slice('trip:'.length))).catch(() => null);
    if (itinerary) title.textContent = who({ trip: itinerary });
  }

  function mark(message) {
    if (!message.mine || trip) return null;
    return message.readAt ? 'read' : message.deliveredAt ? 'delivered' : 'sent';
  }

  function item(m) {
    const state = mark(m);
    const author = m.mine ? 'you' : names.get(m.from) || shortID(m.from);
    return h(
      'li',
      { class: m.mine ? 'message mine' : 'message', 'data-testid': 'message-item', 'data-id': m.id, 'data-mine': String(m.mine), 'data-mark': state || '' },
      trip && !m.mine ? h('strong', { class: 'muted', 'data-testid': 'message-from' }, author) : null,
      m.deleted || m.text ? h('p', { class: m.deleted ? 'message-text muted' : 'message-text', 'data-testid': 'message-text' }, m.deleted ? 'message deleted' : m.text) : null,
      m.deleted ? null : photoGrid(m.photos || [], { label: (i, n) => `Photo ${i + 1} of ${n} sent by ${author}`, testid: 'message-photo', className: 'message-photos' }),
      h(
        'div',
        { class: 'muted' },
        h('time', { datetime: m.sentAt }, formatTime(m.sentAt)),
        state ? h('span', { 'data-testid': 'message-mark' }, ' · ' + state) : null,
        m.mine && !m.deleted
          ? action(
              'Delete for everyone',
              async () => {
                await del('/v1/messages/' + seg(m.id) + '?for=everyone');
                await show();
              },
              { 'data-testid': 'message-delete' },
            )
          : null,
      ),
    );
  }

  // Read here, its `message` notifications are read too (their subject is this id).
  async function readNotifications() {
    const answer = await get('/v1/notifications?limit=200', { quiet: true });
    const ids = answer.notifications.filter((n) => n.type === 'message' && n.subject === id && !n.read).map((n) => n.id);
    if (ids.length) await post('/v1/notifications/read', { ids }, { quiet: true });
  }

  async function show() {
    const page = await get('/v1/conversations/' + seg(id) + '/messages');
    rerender(list, page.messages.length ? page.messages.map(item) : [h('li', { class: 'placeholder' }, empty('No messages yet.'))]);
    await post('/v1/conversations/' + seg(id) + '/read', {}).catch(() => {});
    await readNotifications().catch(() => {});
    ctx.refreshUnread();
  }
  try {
    await show();
  } catch (error) {
    flash(error.message || String(error));
  }
  const again = debounce(() => show().catch(() => {}), 150);
  ctx.onEvent((event) => {
    if (event.type === 'message' || event.type === 'resync') again();
  });
}
