// The top bar's sync line: "Live" while the event stream is open, and, while a peer holds
// changes this daemon lacks (`GET /v1/peers`: `documents[].weLack`), "Receiving N changes
// from NAME" with a progress bar that fills as they arrive. Checked after `peer` events
// and changes by someone else, then every second while anything is still missing.

import { get } from './api.js';
import { h, mount } from './dom.js';

let me = null;
let timer = null;
let burst = 0; // the most missing ops seen since the last time nothing was missing
let streamOpen = false;

export function setIdentity(id) {
  me = id;
}

export function onEvent(event) {
  if (event.type === 'stream-open') {
    streamOpen = true;
    render(0, '');
    schedule(0);
  }
  if (event.type === 'stream-closed') {
    streamOpen = false;
    render(0, '');
  }
  if (event.type === 'peer' || event.type === 'resync' || (event.type === 'changed' && event.author && event.author !== me)) schedule(300);
}

function schedule(delay) {
  if (timer) return;
  timer = setTimeout(check, delay);
}

async function check() {
  timer = null;
  let missing = 0;
  let from = '';
  try {
    // Quiet: the page's progress bar is for what the user asked for, not this poll.
    const list = await get('/v1/peers', { quiet: true });
    for (const peer of list.peers || []) {
      const lacking = (peer.documents || []).reduce((sum, doc) => sum + (doc.weLack > 0 ? doc.weLack : 0), 0);
      if (lacking > 0 && peer.connected) {
        missing += lacking;
        from = from || peer.name;
      }
    }
  } catch {
    return;
  }
  render(missing, from);
  if (missing > 0) schedule(1000);
}

function render(missing, from) {
  const el = document.getElementById('sync');
  if (!el) return;
  if (missing <= 0) {
    burst = 0;
    el.className = streamOpen ? 'sync live' : 'sync offline';
    mount(el, streamOpen ? 'Live' : 'Reconnecting…');
    return;
  }
  burst = Math.max(burst, missing);
  el.className = 'sync receiving';
  mount(
    el,
    h('span', {}, `Receiving ${missing.toLocaleString()} change${missing === 1 ? '' : 's'}${from ? ' from ' + from : ''}`),
    h('progress', { max: String(burst), value: String(burst - missing), 'aria-label': 'Sync progress', dataset: { testid: 'sync-progress' } }),
  );
}
