// The control API, from the page: the same routes and JSON as the Unix socket
// (Protocol/control-api.yaml), through the app's own origin. State-changing requests
// carry the CSRF token the app's server set in the readable `places_csrf` cookie; the
// session itself travels in an HttpOnly cookie the page never sees.

/** A failed request: `status`, the problem's stable `code`, its `detail` and `field`. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || 'http-' + status;
    this.field = problem.field;
    this.problem = problem;
  }
}

export function csrfToken() {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'places_csrf') return rest.join('=');
  }
  return '';
}

let inFlight = 0;
function busy(delta) {
  inFlight += delta;
  const bar = document.getElementById('progress');
  if (bar) bar.hidden = inFlight <= 0;
}

/**
 * One request. `body` is JSON unless it is a Blob/File/ArrayBuffer (sent as is, with
 * `contentType`). Answers the parsed JSON, the text for other media types, or null for 204.
 * Throws ApiError with the problem document on any status ≥ 400. `options`: `accept`,
 * `contentType`, `signal`, `raw` (answer the Response), `quiet` (no progress bar).
 */
export async function api(method, path, body, options = {}) {
  const headers = { Accept: options.accept || 'application/json' };
  let payload;
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    payload = body;
    headers['Content-Type'] = options.contentType || body.type || 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  if (method !== 'GET' && method !== 'HEAD') headers['X-Places-CSRF'] = csrfToken();
  const shown = !options.quiet; // background polls do not light the progress bar
  if (shown) busy(1);
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, { code: 'unreachable', detail: 'The Places app server cannot be reached. Is `places gui` still running?' });
  } finally {
    if (shown) busy(-1);
  }
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') || '';
  if (!response.ok) {
    let problem = { title: response.statusText };
    if (type.includes('json')) {
      try {
        problem = await response.json();
      } catch {
        /* a problem that is not JSON */
      }
    } else {
      const text = await response.text();
      if (text) problem.detail = text;
    }
    const error = new ApiError(response.status, problem);
    if (response.status === 401 && error.code === 'logged-out') {
      window.dispatchEvent(new CustomEvent('places:logged-out'));
    }
    throw error;
  }
  if (options.raw) return response;
  if (type.includes('json')) return response.json();
  return response.text();
}

/**
 * Sends a file as the raw request body with XMLHttpRequest so the upload's progress can
 * be shown (fetch has no upload progress). Answers the parsed JSON; throws ApiError.
 */
export function upload(path, file, { contentType, onProgress } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType || file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-Places-CSRF', csrfToken());
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      });
    }
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
        return;
      }
      const problem = body && typeof body === 'object' ? body : { title: xhr.statusText, detail: xhr.responseText };
      const error = new ApiError(xhr.status, problem);
      if (xhr.status === 401 && error.code === 'logged-out') window.dispatchEvent(new CustomEvent('places:logged-out'));
      reject(error);
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { code: 'unreachable', detail: 'The upload failed: the Places app server cannot be reached.' })));
    xhr.send(file);
  });
}

export const get = (path, options) => api('GET', path, undefined, options);
export const post = (path, body, options) => api('POST', path, body, options);
export const put = (path, body, options) => api('PUT', path, body, options);
export const patch = (path, body, options) => api('PATCH', path, body, options);
export const del = (path, options) => api('DELETE', path, undefined, options);

/** A query string from an object, leaving out undefined, null and empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? '?' + text : '';
}

/** A path segment, percent-encoded. */
export const seg = (value) => encodeURIComponent(String(value));
