// Every call the /floor page makes to fos, in one module (docs/floor.md, "The /floor page"):
// sign-in, the public API with the signed-in token, and the queue of scans made while the
// network was down. The token lives in sessionStorage (gone when the tab closes); the queue in
// localStorage, each entry with its own Idempotency-Key, so a scan retried after a lost answer
// is applied once.

const SESSION = 'fos.floor.session';
const QUEUE = 'fos.floor.queue';

/** Thrown when no answer came (offline, connection lost): the caller may queue the request. */
export class NetworkError extends Error {}

/** A problem+json answer (or any non-2xx): status, message and the body (e.g. `expected`). */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export const session = () => JSON.parse(sessionStorage.getItem(SESSION) || 'null');
const saveSession = (s) => (s ? sessionStorage.setItem(SESSION, JSON.stringify(s)) : sessionStorage.removeItem(SESSION));

async function request(method, path, { body, token, key } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['x-access-token'] = token;
  if (key) headers['idempotency-key'] = key;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new NetworkError('No connection to the server.');
  }
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text.slice(0, 200) };
  }
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}

/** Signs in; a person in several fulfiller teams gets ApiError 409 with body.teams to choose from. */
export async function signIn(email, password, teamId) {
  const s = await request('POST', '/floor/session', { body: { email, password, ...(teamId ? { team_id: teamId } : {}) } });
  saveSession(s);
  return s;
}

export async function signOut() {
  const s = session();
  saveSession(null);
  if (s) await request('DELETE', '/floor/session', { token: s.access_token }).catch(() => undefined);
}

/** An API call with the session's token; an expired access token is refreshed once. */
async function call(method, path, opts = {}) {
  const s = session();
  if (!s) throw new ApiError(401, { detail: 'Sign in first.' });
  try {
    return await request(method, path, { ...opts, token: s.access_token });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    let fresh;
    try {
      fresh = await request('POST', '/floor/session/refresh', { body: { refresh_token: s.refresh_token } });
    } catch (refreshErr) {
      if (refreshErr instanceof ApiError) saveSession(null);
      throw refreshErr instanceof ApiError ? err : refreshErr;
    }
    saveSession({ ...s, ...fresh });
    return request(method, path, { ...opts, token: fresh.access_token });
  }
}

const enc = encodeURIComponent;
const sessionPath = (id) => `/v1/ops/picking-sessions/${enc(id)}`;
const foPath = (id) => `/v1/ops/fulfillment-orders/${enc(id)}`;

export const api = {
  me: () => call('GET', '/v1/me'),
  pickingSessions: () => call('GET', '/v1/ops/picking-sessions?limit=100&order=desc'),
  pickList: (id) => call('GET', `${sessionPath(id)}/pick-list`),
  sessionOrders: (id) => call('GET', `/v1/ops/v1/picking-sessions/${enc(id)}/fulfillment-orders?limit=50`),
  undoPickScan: (id, scanId) => call('DELETE', `${sessionPath(id)}/scans/${enc(scanId)}`),
  fulfillmentOrders: () => call('GET', '/v1/ops/fulfillment-orders?status=ACCEPTED,IN_PROGRESS&limit=100'),
  fulfillmentOrder: (id) => call('GET', foPath(id)),
  packScans: (id) => call('GET', `${foPath(id)}/pack-scans`),
  undoPackScan: (id, scanId) => call('DELETE', `${foPath(id)}/pack-scans/${enc(scanId)}`),
  pack: (id, body) => call('POST', `${foPath(id)}/pack`, { body, key: newKey() }),
  // Shipping a closed box (ship.js): the label is bought with the package's rate strategy, as `fos pack`
  // does, else the cheapest rate (the page has no strategy flag); fulfill without locked_by locks and
  // releases for the caller.
  label: (pkg) =>
    call('POST', `/v1/ops/packages/${enc(pkg.id)}/label`, { body: pkg.rate_strategy ? {} : { rate_strategy: 'CHEAPEST' }, key: newKey() }),
  fulfill: (pkgId) => call('POST', `/v1/ops/packages/${enc(pkgId)}/fulfill`, { body: {}, key: newKey() }),
  splitShortfall: (id) => call('POST', `${foPath(id)}/split-shortfall`, { body: {}, key: newKey() }),
};

// ---------- scans, and the queue of those the network did not take ----------

const SCAN_PATHS = { pick: (id) => `${sessionPath(id)}/scans`, pack: (id) => `${foPath(id)}/pack-scans` };

const newKey = () => `floor-${crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;

export const queued = () => JSON.parse(localStorage.getItem(QUEUE) || '[]');
const saveQueue = (q) => localStorage.setItem(QUEUE, JSON.stringify(q));

/**
 * Sends a scan (kind 'pick' or 'pack', to session or FO `target`). Resolves with the server's
 * answer; rejects with ApiError on a refusal. When the network fails, or scans are already
 * waiting (order matters), it is queued and resolves with { queued: entry }.
 */
export async function sendScan(kind, target, body) {
  const entry = { key: newKey(), kind, target, body, at: new Date().toISOString() };
  if (queued().length) {
    saveQueue([...queued(), entry]);
    return { queued: entry };
  }
  try {
    return await call('POST', SCAN_PATHS[kind](target), { body, key: entry.key });
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    saveQueue([...queued(), entry]);
    return { queued: entry };
  }
}

/**
 * Sends the queued scans in order, each with its own key (a retry after a lost answer replays,
 * never applies twice). Stops at the first that gets no answer. Calls onResult(entry, answer,
 * error) for each answered one; a refusal leaves the queue too (it is shown, not retried).
 */
export async function flushQueue(onResult) {
  for (;;) {
    const [entry] = queued();
    if (!entry) return true;
    let answer = null;
    let error = null;
    try {
      answer = await call('POST', SCAN_PATHS[entry.kind](entry.target), { body: entry.body, key: entry.key });
    } catch (err) {
      if (err instanceof NetworkError) return false;
      error = err;
    }
    saveQueue(queued().filter((e) => e.key !== entry.key));
    onResult(entry, answer, error);
  }
}

export const clearQueue = () => saveQueue([]);

// ---------- what a packer scans to open an order ----------

const bareNumber = (s) =>
  String(s ?? '')
    .trim()
    .replace(/^#/, '')
    .toLowerCase();

/** Is this fulfillment order the one `text` names: its tote, its order's number (with or without #, any case) or its id? */
export const namesOrder = (fo, text) =>
  fo.tote_name === text.trim() || fo.id === text.trim().toLowerCase() || bareNumber(fo.order_number) === bareNumber(text);

/**
 * The open fulfillment order a scan names when it is not among those the page has listed: the
 * tote it was picked into (`?tote=`), else its order's number (the orders list's search, kept on
 * an exact match, as `fos pack` does: src/cli/shared/refs.ts). null when none.
 */
export async function findPackOrder(text) {
  const open = 'status=ACCEPTED,IN_PROGRESS&limit=100';
  const inTote = await call('GET', `/v1/ops/fulfillment-orders?tote=${enc(text.trim())}&${open}`);
  if (inTote.data.length) return inTote.data[0];
  const number = bareNumber(text);
  if (number.length < 3) return null;
  // A picker's role may not read orders: then only the tote and the listed orders find it.
  const orders = await call('GET', `/v1/ops/orders/list?search=${enc(number)}&limit=100`).catch((err) => {
    if (err instanceof ApiError && err.status === 403) return { data: [] };
    throw err;
  });
  for (const o of orders.data.filter((x) => bareNumber(x.order_number) === number)) {
    const fos = await call('GET', `/v1/ops/fulfillment-orders?order_id=${enc(o.id)}&${open}`);
    if (fos.data.length) return fos.data[0];
  }
  return null;
}
