// #/messages: conversations with friends and trips' conversations (id `trip:ITIN`), newest
// first, with unread counts; a new message to a friend. #/messages/:id: one conversation, oldest first, with sent / delivered / read marks
// on yours and "message deleted" where the author deleted one for everyone; opening it marks
// it read. Live on `message` events.
// Testids:
//   conversations-list, conversation-item (li, data-id, data-unread), conversation-unread,
//   conversation-preview, message-new-to (select), message-new-text, message-new-send,
//   messages-list, message-item (li, data-id, data-mine, data-mark="sent|delivered|read"),
//   message-text, message-mark, message-delete (yours: delete for everyone), message-text-input,
//   message-send, conversation-mute, message-from (a trip message of another member: its author).

import { get, post, put, del, seg } from '../api.js';
import { h, mount, action, empty, form, flash, formatTime, shortID } from '../dom.js';
import { debounce, rerender } from '../ui.js';

function who(conversation) {
  if (conversation.trip) return 'Trip: ' + (conversation.trip.name || shortID(conversation.trip.id));
  return (conversation.with || []).map((p) => p.name || shortID(p.id)).join(', ') || shortID(conversation.id);
}

function preview(message) {
  if (!message) return '';
  if (message.deleted) return 'message deleted';
  const text = message.text || (message.photos && message.photos.length ? 'a photo' : '');
  return (message.mine ? 'You: ' : '') + text;
}

function mark(message) {
  // A trip's conversation has no per-member marks (docs/messages.md).
  if (!message.mine || tripConversation) return null;
  return message.readAt ? 'read' : message.deliveredAt ? 'delivered' : 'sent';
}

export async function render(main, params, ctx) {
  return params.id ? conversation(main, params.id, ctx) : conversations(main, ctx);
}

async function conversations(main, ctx) {
  const list = h('ol', { class: 'list conversations-list', 'data-testid': 'conversations-list', 'aria-label': 'Conversations, newest first' });
  const to = h('select', { name: 'to', 'data-testid': 'message-new-to', required: true });
  const text = h('textarea', { name: 'text', rows: 2, maxlength: 4000, required: true, 'data-testid': 'message-new-text', 'aria-label': 'Message' });
  const compose = form(
    { class: 'stack', 'aria-label': 'New message' },
    [h('label', {}, 'To ', to), text, h('button', { type: 'submit', 'data-testid': 'message-new-send' }, 'Send')],
    async () => {
      const sent = await post('/v1/messages', { to: to.value, text: text.value });
      ctx.navigate('#/messages/' + seg(sent.conversation));
    },
  );
  mount(main, h('h2', {}, 'Messages'), compose, list);

  const friends = (await get('/v1/friends')).friends.filter((f) => f.state === 'friend');
  to.replaceChildren(...friends.map((f) => h('option', { value: f.id }, f.name || shortID(f.id))));
  compose.hidden = !friends.length;

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
        : [h('li', { class: 'placeholder' }, empty(friends.length ? 'No messages yet. Write to a friend above.' : 'Add friends to write to them.'))],
    );
  }
  await show();
  const again = debounce(() => show().catch(() => {}), 150);
  ctx.onEvent((event) => {
    if (event.type === 'message') again();
  });
}

let tripConversation = false;

async function conversation(main, id, ctx) {
  tripConversation = id.startsWith('trip:');
  const names = new Map();
  const title = h('h2', {}, 'Conversation');
  const list = h('ol', { class: 'list messages-list', 'data-testid': 'messages-list', 'aria-label': 'Messages, oldest first', 'aria-live': 'polite' });
  const input = h('textarea', { name: 'text', rows: 2, maxlength: 4000, required: true, 'data-testid': 'message-text-input', 'aria-label': 'Your message' });
  const compose = form({ class: 'stack', 'aria-label': 'Reply' }, [input, h('button', { type: 'submit', 'data-testid': 'message-send' }, 'Send')], async () => {
    await post('/v1/messages', { to: id, text: input.value });
    input.value = '';
    await show();
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
  }

  function item(m) {
    const state = mark(m);
    return h(
      'li',
      { class: m.mine ? 'message mine' : 'message', 'data-testid': 'message-item', 'data-id': m.id, 'data-mine': String(m.mine), 'data-mark': state || '' },
      tripConversation && !m.mine ? h('strong', { class: 'muted', 'data-testid': 'message-from' }, names.get(m.from) || shortID(m.from)) : null,
      h('p', { class: m.deleted ? 'message-text muted' : 'message-text', 'data-testid': 'message-text' }, m.deleted ? 'message deleted' : m.text || ''),
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

  async function show() {
    const page = await get('/v1/conversations/' + seg(id) + '/messages');
    rerender(list, page.messages.length ? page.messages.map(item) : [h('li', { class: 'placeholder' }, empty('No messages yet.'))]);
    await post('/v1/conversations/' + seg(id) + '/read', {}).catch(() => {});
    ctx.refreshUnread();
  }
  try {
    await show();
  } catch (error) {
    flash(error.message || String(error));
  }
  const again = debounce(() => show().catch(() => {}), 150);
  ctx.onEvent((event) => {
    if (event.type === 'message') again();
  });
}
