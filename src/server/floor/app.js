// The /floor page: sign in, choose a picking session (pick.js) or pack (pack.js); undo, the
// queue of offline scans, and the scanner and camera input. Every server call is in api.js.
// No framework, no build step.

import { api, ApiError, flushQueue, queued, session, signIn, signOut } from './api.js';
import { cameraAvailable, cameraScan, wedge } from './scan.js';
import { $, appliers, h, hooks, renderQueue, say, sayError, show, state } from './ui.js';
import { openSession, pickScan, undonePick } from './pick.js';
import { packScan, renderPack, showPack } from './pack.js';

// ---------- sign in ----------

function showSignIn(message) {
  show('sign-in');
  if (message) say(message, 'error');
  $('email').focus();
}

$('sign-in-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  try {
    await signIn($('email').value, $('password').value, $('team-choice').hidden ? undefined : $('team').value);
    $('password').value = '';
    say('');
    await showHome();
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && err.body.teams) {
      $('team').replaceChildren(...err.body.teams.map((t) => h('option', { value: t.team_id }, t.team_name)));
      $('team-choice').hidden = false;
      return say('Choose the team you work for.');
    }
    sayError(err);
  }
});

$('sign-out').addEventListener('click', async () => {
  await signOut();
  showSignIn();
});

// ---------- sessions ----------

async function showHome() {
  show('home');
  try {
    const { data } = await api.pickingSessions();
    $('sessions').replaceChildren(
      ...(data.length ? data : [{ empty: true }]).map((s) =>
        s.empty
          ? h('li', { class: 'muted' }, 'No picking sessions.')
          : h(
              'li',
              {},
              h(
                'button',
                { class: 'big choice', onclick: () => openSession(s.id) },
                s.name,
                h('small', {}, `${s.fulfillment_order_count} orders`),
              ),
            ),
      ),
    );
  } catch (err) {
    sayError(err);
  }
}

// ---------- undo, queue, wiring ----------

$('undo').addEventListener('click', async () => {
  const last = state.undo.pop();
  if (!last) return say('Nothing to undo.');
  try {
    if (last.kind === 'pick') {
      await api.undoPickScan(last.target, last.scan.id);
      undonePick(last.scan);
    } else {
      await api.undoPackScan(last.target, last.scan.id);
      renderPack(await api.packScans(last.target));
    }
    say(`Undone: ${last.scan.sku} ×${last.scan.quantity}`);
  } catch (err) {
    state.undo.push(last);
    sayError(err);
  }
});

let flushing = false;
async function retry() {
  if (flushing || !queued().length || !session()) return;
  flushing = true;
  try {
    const all = await flushQueue((entry, answer, error) => (error ? sayError(error) : appliers[entry.kind](answer, entry.target)));
    if (all) say('Queued scans sent ✓');
  } finally {
    flushing = false;
    renderQueue();
  }
}

wedge($('scan'), (text) => (state.screen === 'pick' ? pickScan(text) : packScan(text)));
// The scanner types into the scan input: focus returns to it after any tap elsewhere.
document.addEventListener('click', (e) => {
  if (!$('scan-bar').hidden && !['INPUT', 'SELECT'].includes(e.target.tagName)) $('scan').focus();
});
if (cameraAvailable()) {
  $('camera').hidden = false;
  let camera = null;
  $('camera').addEventListener('click', async () => {
    if (camera) return camera.stop(); // a second tap closes the camera
    camera = cameraScan($('video'));
    const text = await camera.result.catch((err) => {
      say(`Camera: ${err.message}`, 'error');
      return null;
    });
    camera = null;
    if (text) await (state.screen === 'pick' ? pickScan(text) : packScan(text));
  });
}
$('go-pack').addEventListener('click', () => ((state.sessionId = null), showPack()));
$('pick-to-pack').addEventListener('click', showPack);
$('pick-back').addEventListener('click', showHome);
$('pack-back').addEventListener('click', () => (state.fo ? showPack() : state.sessionId ? openSession(state.sessionId) : showHome()));
hooks.signedOut = showSignIn;
hooks.retry = retry;
window.addEventListener('online', retry);
setInterval(retry, 5000);

renderQueue();
if (session()) showHome().then(retry);
else showSignIn();
