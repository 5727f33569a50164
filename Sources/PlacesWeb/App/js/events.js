// Live changes: one `GET /v1/events` stream (NDJSON, Protocol/control-api.yaml) read
// with fetch, its lines handed to every subscriber. Reconnects after a drop (the daemon
// restarted, the laptop slept), and then tells subscribers to refresh (`{type:'resync'}`),
// since lines sent while it was away are lost.

const subscribers = new Set();
let running = false;
let connected = false;
let controller = null;
let generation = 0; // a stopped loop sees a newer generation and ends, even if restarted

export function subscribe(fn) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}

export const isConnected = () => connected;

function emit(event) {
  for (const fn of [...subscribers]) {
    try {
      fn(event);
    } catch (error) {
      console.error('event subscriber failed', error);
    }
  }
}

/** Starts the stream (idempotent). `resync`: tell subscribers to refresh once it is open. */
export function start(resync = false) {
  if (running) return;
  running = true;
  loop(++generation, resync);
}

export function stop() {
  running = false;
  generation++;
  if (controller) controller.abort();
}

// A page kept for Back/Forward must not hold its stream: the browser allows six connections
// to one host, and four kept pages' streams would leave the fifth visit none. Stopped when
// the page is hidden, started again (with a resync: events meanwhile are lost) when shown.
window.addEventListener('pagehide', () => stop());
window.addEventListener('pageshow', (event) => {
  if (event.persisted) start(true);
});

async function loop(mine, resync) {
  let delay = 250;
  let first = !resync;
  while (running && mine === generation) {
    controller = new AbortController();
    try {
      const response = await fetch('/v1/events', { credentials: 'same-origin', signal: controller.signal, headers: { Accept: 'application/x-ndjson' } });
      if (!response.ok) {
        if (response.status === 401) emit({ type: 'stream-unauthorized' });
        throw new Error('events: HTTP ' + response.status);
      }
      if (mine !== generation) {
        controller.abort();
        return;
      }
      connected = true;
      emit({ type: 'stream-open' });
      if (!first) emit({ type: 'resync' });
      first = false;
      delay = 250;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done || mine !== generation) break;
        buffer += decoder.decode(value, { stream: true });
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!line) continue;
          try {
            emit(JSON.parse(line));
          } catch {
            /* a line that is not JSON: skipped */
          }
        }
        if (buffer.length > 1 << 20) buffer = ''; // never grows without bound
      }
    } catch {
      if (!running || mine !== generation) return;
    }
    if (mine !== generation) return;
    if (connected) emit({ type: 'stream-closed' });
    connected = false;
    if (!running) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 5000);
  }
}
