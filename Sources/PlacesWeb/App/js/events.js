// Live changes: one `GET /v1/events` stream (NDJSON, Protocol/control-api.yaml) read
// with fetch, its lines handed to every subscriber. Reconnects after a drop (the daemon
// restarted, the laptop slept), and then tells subscribers to refresh (`{type:'resync'}`),
// since lines sent while it was away are lost.

const subscribers = new Set();
let running = false;
let connected = false;
let controller = null;

export function subscribe(fn) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}

export const isConnected = () => connected;

function emit(event) {
  for (const fn of [...subscribers]) {
    try { fn(event); } catch (error) { console.error('event subscriber failed', error); }
  }
}

/** Starts the stream once (idempotent). */
export function start() {
  if (running) return;
  running = true;
  loop();
}

export function stop() {
  running = false;
  if (controller) controller.abort();
}

async function loop() {
  let delay = 250;
  let first = true;
  while (running) {
    controller = new AbortController();
    try {
      const response = await fetch('/v1/events', { credentials: 'same-origin', signal: controller.signal, headers: { Accept: 'application/x-ndjson' } });
      if (!response.ok) {
        if (response.status === 401) emit({ type: 'stream-unauthorized' });
        throw new Error('events: HTTP ' + response.status);
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
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (!line) continue;
          try { emit(JSON.parse(line)); } catch { /* a line that is not JSON: skipped */ }
        }
        if (buffer.length > 1 << 20) buffer = ''; // never grows without bound
      }
    } catch (error) {
      if (!running) return;
    }
    if (connected) emit({ type: 'stream-closed' });
    connected = false;
    if (!running) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 5000);
  }
}
