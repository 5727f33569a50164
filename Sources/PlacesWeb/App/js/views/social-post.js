// One post as a card (the feed and a friend's profile): author, time, audience, text,
// place, photos, like, comments (listed on demand, added, deleted). The card keeps its
// node across live refreshes (`update(post)`), so an open comment box and a half-typed
// comment survive a like arriving from elsewhere.
// testids: post-item (data-id), post-author, post-text, post-photo (img), post-place,
//   post-audience-label, post-like (aria-pressed), post-like-count, post-comments-toggle,
//   post-comment-count, post-delete (+ post-delete-confirm), post-comments, comment-item
//   (data-id), comment-text, comment-delete, comment-form, comment-input, comment-submit

import { get, post as postJSON, put, del, seg } from '../api.js';
import { h, mount, form, action, empty, clearErrors } from '../dom.js';
import { confirmButton, plural } from '../ui.js';
import { photoGrid } from '../photos.js';
import { personLink, avatar, audienceLabel, timeAgo } from './social-common.js';

/**
 * opts: { me, myName, friends: Map id → Friend, groups: [FriendGroup], onDeleted(id) }.
 * Answers { el, update(post), post }.
 */
export function postCard(initial, opts) {
  const card = { post: initial, commentsOpen: false, commentsLoaded: -1 };
  const el = h('li', { class: 'post card', dataset: { testid: 'post-item', id: initial.id } });
  const head = h('header', { class: 'post-head' });
  const body = h('div', { class: 'post-body' });
  const likeButton = h('button', { type: 'button', class: 'post-like', dataset: { testid: 'post-like' } });
  const likeCount = h('span', { class: 'post-like-count muted', dataset: { testid: 'post-like-count' }, 'aria-live': 'polite' });
  const commentsToggle = h('button', { type: 'button', class: 'post-comments-toggle', 'aria-expanded': 'false', dataset: { testid: 'post-comments-toggle' } });
  const commentsId = 'comments-' + initial.id;
  commentsToggle.setAttribute('aria-controls', commentsId);
  const commentList = h('ul', { class: 'comment-list', 'aria-label': 'Comments' });
  const commentsBox = h('section', { class: 'post-comments', id: commentsId, hidden: true, dataset: { testid: 'post-comments' } });
  const actions = h('div', { class: 'post-actions row' }, likeButton, likeCount, commentsToggle);
  const likeError = h('span', { class: 'field-error', role: 'alert', hidden: true });
  actions.append(likeError);

  // Not disabled while it runs: a disabled button loses the keyboard focus.
  likeButton.addEventListener('click', async () => {
    if (likeButton.getAttribute('aria-busy') === 'true') return;
    likeButton.setAttribute('aria-busy', 'true');
    likeError.hidden = true;
    try {
      const path = '/v1/posts/' + seg(card.post.id) + '/like';
      const updated = card.post.liked ? await del(path) : await put(path);
      update(updated);
    } catch (error) {
      likeError.textContent = error.message;
      likeError.hidden = false;
    } finally {
      likeButton.removeAttribute('aria-busy');
    }
  });

  commentsToggle.addEventListener('click', () => {
    card.commentsOpen = !card.commentsOpen;
    commentsBox.hidden = !card.commentsOpen;
    commentsToggle.setAttribute('aria-expanded', String(card.commentsOpen));
    if (card.commentsOpen) {
      loadComments();
      const input = commentsBox.querySelector('textarea');
      if (input) input.focus();
    }
  });

  const commentForm = form(
    { class: 'comment-form', dataset: { testid: 'comment-form' }, 'aria-label': 'Add a comment' },
    [
      h('label', { class: 'visually-hidden', for: 'ci-' + initial.id }, 'Your comment'),
      h('textarea', { id: 'ci-' + initial.id, name: 'text', rows: 2, maxlength: 2000, required: true, placeholder: 'Write a comment…', dataset: { testid: 'comment-input' } }),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'comment-submit' } }, 'Comment')),
    ],
    async (values, formEl) => {
      const text = (values.text || '').trim();
      if (!text) throw Object.assign(new Error('Write something first.'), { field: 'text' });
      await postJSON('/v1/posts/' + seg(card.post.id) + '/comments', { text });
      formEl.reset();
      clearErrors(formEl);
      card.post = { ...card.post, comments: card.post.comments + 1 };
      renderActions();
      await loadComments(true);
    },
  );
  commentsBox.append(commentList, commentForm);

  el.append(head, body, actions, commentsBox);

  async function loadComments(force = false) {
    if (!force && card.commentsLoaded === card.post.comments) return;
    try {
      const list = await get('/v1/posts/' + seg(card.post.id) + '/comments');
      card.commentsLoaded = list.comments.length;
      renderComments(list.comments);
    } catch (error) {
      mount(commentList, h('li', { class: 'field-error', role: 'alert' }, error.message));
    }
  }

  function renderComments(comments) {
    if (!comments.length) {
      mount(commentList, h('li', { class: 'empty' }, 'No comments yet.'));
      return;
    }
    mount(
      commentList,
      comments.map((c) => {
        const canDelete = c.author === opts.me || card.post.mine;
        return h(
          'li',
          { class: 'comment', dataset: { testid: 'comment-item', id: c.id } },
          h(
            'div',
            { class: 'comment-head' },
            personLink(c.authorName, c.author, { friend: opts.friends && opts.friends.has(c.author), me: opts.me }),
            ' ',
            h('span', { class: 'muted' }, timeAgo(c.createdAt)),
          ),
          h('p', { class: 'comment-text', dataset: { testid: 'comment-text' } }, c.text),
          canDelete
            ? action(
                'Delete',
                async () => {
                  await del('/v1/posts/' + seg(card.post.id) + '/comments/' + seg(c.id));
                  card.post = { ...card.post, comments: Math.max(0, card.post.comments - 1) };
                  renderActions();
                  await loadComments(true);
                },
                { class: 's-link danger', 'aria-label': 'Delete this comment', dataset: { testid: 'comment-delete' } },
              )
            : null,
        );
      }),
    );
  }

  function renderHead() {
    const p = card.post;
    const friend = opts.friends && opts.friends.get(p.author);
    mount(
      head,
      avatar(friend && friend.picture, p.mine ? opts.myName || p.authorName || 'you' : p.authorName || (friend && friend.name)),
      h(
        'div',
        { class: 'post-meta' },
        h('span', { dataset: { testid: 'post-author' } }, personLink(p.authorName, p.author, { friend: !!friend, me: opts.me })),
        h(
          'span',
          { class: 'muted' },
          ' · ',
          timeAgo(p.createdAt),
          ' · ',
          h('span', { class: 'audience', dataset: { testid: 'post-audience-label' } }, 'To: ' + audienceLabel(p.audience, opts.groups)),
        ),
      ),
      p.mine
        ? confirmButton(
            'Delete',
            async () => {
              await del('/v1/posts/' + seg(p.id));
              if (opts.onDeleted) opts.onDeleted(p.id);
            },
            { confirmLabel: 'Delete this post', class: 'danger post-delete', 'aria-label': 'Delete this post', dataset: { testid: 'post-delete' } },
          )
        : null,
    );
  }

  function bodyKey(p) {
    return JSON.stringify([p.text, p.place, p.photos.map((x) => x.id)]);
  }

  function renderBody() {
    const p = card.post;
    const who = p.mine ? 'you' : p.authorName || 'a friend';
    mount(
      body,
      p.text ? h('p', { class: 'post-text', dataset: { testid: 'post-text' } }, p.text) : null,
      p.place ? placeLine(p.place) : null,
      photoGrid(p.photos, { label: (i, n) => `Photo ${i + 1} of ${n} posted by ${who}`, testid: 'post-photo' }),
    );
    body.dataset.key = bodyKey(p);
  }

  function renderActions() {
    const p = card.post;
    likeButton.textContent = p.liked ? '♥ Liked' : '♡ Like';
    likeButton.setAttribute('aria-pressed', p.liked ? 'true' : 'false');
    likeButton.setAttribute('aria-label', p.liked ? 'Unlike this post' : 'Like this post');
    likeCount.textContent = plural(p.likes, 'like');
    commentsToggle.replaceChildren('💬 ', h('span', { dataset: { testid: 'post-comment-count' } }, plural(p.comments, 'comment')));
  }

  function update(next) {
    const old = card.post;
    card.post = next;
    if (old.authorName !== next.authorName || old.audience !== next.audience || old.createdAt !== next.createdAt || !head.firstChild) renderHead();
    if (body.dataset.key !== bodyKey(next)) renderBody();
    renderActions();
    if (card.commentsOpen && card.commentsLoaded !== next.comments) loadComments(true);
  }

  renderHead();
  renderBody();
  renderActions();
  return {
    el,
    update,
    get post() {
      return card.post;
    },
    refreshComments: () => card.commentsOpen && loadComments(true),
  };
}

/** Where a post was written: its name and address as text, with a link to the map. */
export function placeLine(place) {
  const words = [place.name, place.address].filter(Boolean).join(', ') || `${Number(place.latitude).toFixed(4)}, ${Number(place.longitude).toFixed(4)}`;
  const hasPoint = typeof place.latitude === 'number' && typeof place.longitude === 'number';
  return h(
    'p',
    { class: 'post-place muted', dataset: { testid: 'post-place' } },
    '📍 ',
    hasPoint ? h('a', { href: `geo:${place.latitude},${place.longitude}`, title: 'Open in a map app' }, words) : words,
  );
}

/** Reads every card's post from a fresh list and updates or creates cards (keyed by id). */
export function syncCards(cards, posts, opts) {
  const nodes = [];
  const seen = new Set();
  for (const p of posts) {
    seen.add(p.id);
    let card = cards.get(p.id);
    if (card) card.update(p);
    else {
      card = postCard(p, opts);
      cards.set(p.id, card);
    }
    nodes.push(card.el);
  }
  for (const id of [...cards.keys()]) if (!seen.has(id)) cards.delete(id);
  return nodes;
}

export const noPosts = (text) => empty(text);
