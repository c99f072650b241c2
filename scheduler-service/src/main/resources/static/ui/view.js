// The operator's window. Every name and message from the server is put on the page as text
// (textContent), never as markup: a job named <script>alert(1)</script> shows as those characters.
'use strict';

const state = { csrfHeader: null, csrfToken: null, refreshMillis: 2000, timer: null, refreshes: 0 };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function show(id, visible) {
  document.getElementById(id).hidden = !visible;
}

async function call(path, options) {
  const init = Object.assign({ credentials: 'same-origin', headers: {} }, options || {});
  if (init.method && init.method !== 'GET' && state.csrfHeader) {
    init.headers[state.csrfHeader] = state.csrfToken;
  }
  const response = await fetch(path, init);
  let body = null;
  const type = response.headers.get('Content-Type') || '';
  if (type.includes('json')) body = await response.json();
  return { status: response.status, body: body };
}

function errorOf(answer) {
  return (answer.body && answer.body.error) || ('HTTP ' + answer.status);
}

function signedOut(message) {
  clearTimeout(state.timer);
  show('view', false);
  show('sign-in', true);
  show('sign-out', false);
  document.getElementById('who').textContent = '';
  document.getElementById('sign-in-error').textContent = message || '';
  document.body.dataset.state = 'signed-out';
}

function adopt(session) {
  state.csrfHeader = session.csrfHeader;
  state.csrfToken = session.csrfToken;
  state.refreshMillis = session.refreshMillis || state.refreshMillis;
  if (!session.signedIn) {
    signedOut();
    return;
  }
  document.getElementById('who').textContent = 'signed in as ' + session.username;
  show('sign-in', false);
  show('sign-out', true);
  show('view', true);
  refresh();
}

async function start() {
  const answer = await call('/api/v1/session');
  if (answer.status !== 200) {
    signedOut(errorOf(answer));
    return;
  }
  adopt(answer.body);
}

async function signIn(event) {
  event.preventDefault();
  const input = document.getElementById('token');
  const answer = await call('/api/v1/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: input.value }),
  });
  input.value = '';
  if (answer.status !== 200) {
    signedOut(errorOf(answer));
    return;
  }
  adopt(answer.body);
}

async function signOut() {
  await call('/api/v1/session/sign-out', { method: 'POST' });
  const answer = await call('/api/v1/session');
  if (answer.status === 200) adopt(answer.body);
  else signedOut();
}

function waited(seconds) {
  if (seconds === null || seconds === undefined) return '';
  if (seconds < 60) return seconds + 's';
  if (seconds < 3600) return Math.floor(seconds / 60) + 'm ' + (seconds % 60) + 's';
  return Math.floor(seconds / 3600) + 'h ' + Math.floor((seconds % 3600) / 60) + 'm';
}

function percent(value, scale) {
  if (!scale) return 0;
  return Math.max(0, Math.min(100, (100 * value) / scale));
}

// One row per resource: a track for the scale (the cluster's or the node's allocatable), the
// allocated part filled, the fair share and the guarantee as marks.
function bars(resources, withMarks) {
  const grid = el('div', 'bars');
  for (const r of resources) {
    grid.append(el('span', 'figure', r.resource));
    const track = el('div', 'bar');
    track.title = r.resource + ': allocated ' + r.allocatedText +
      (withMarks ? ', fair share ' + r.deservedText + ', guarantee ' + r.guaranteeText : '') +
      ' of ' + r.scaleText;
    const fill = el('div', 'fill' + (withMarks && r.deserved > 0 && r.allocated > r.deserved ? ' over' : ''));
    fill.style.width = percent(r.allocated, r.scale) + '%';
    track.append(fill);
    if (withMarks && r.deserved > 0) {
      const mark = el('div', 'mark deserved');
      mark.style.left = percent(r.deserved, r.scale) + '%';
      track.append(mark);
    }
    if (withMarks && r.guarantee > 0) {
      const mark = el('div', 'mark guarantee');
      mark.style.left = percent(r.guarantee, r.scale) + '%';
      track.append(mark);
    }
    grid.append(track);
    grid.append(el('span', 'figure', withMarks
      ? r.allocatedText + ' / share ' + r.deservedText + (r.guarantee > 0 ? ' / guar. ' + r.guaranteeText : '')
      : r.allocatedText + ' / ' + r.scaleText));
  }
  return grid;
}

function refused(container, answer) {
  container.replaceChildren(el('p', 'muted', errorOf(answer)));
}

function renderQueues(answer) {
  const container = document.getElementById('queues');
  const filter = document.getElementById('queue-filter');
  if (answer.status !== 200) {
    refused(container, answer);
    return;
  }
  const rows = [];
  const names = [];
  for (const q of answer.body.queues) {
    names.push(q.name);
    const row = el('div', 'queue');
    row.dataset.queue = q.name;
    const name = el('div', 'name', '\u2003'.repeat(q.depth) + q.name);
    name.append(el('span', 'counts',
      q.pendingJobs + ' pending · ' + q.inqueueJobs + ' admitted · ' + q.runningJobs + ' running' +
      (q.overused ? ' · at its share' : '')));
    if (q.usage) name.append(el('span', 'counts', 'used (decayed): ' + q.usage));
    if (q.treeProblem) name.append(el('span', 'problem', q.treeProblem));
    row.append(name, bars(q.resources, true));
    rows.push(row);
  }
  container.replaceChildren(...rows);
  const chosen = filter.value;
  const options = [el('option', null, 'all')];
  options[0].value = '';
  for (const n of names) {
    const option = el('option', null, n);
    option.value = n;
    options.push(option);
  }
  filter.replaceChildren(...options);
  filter.value = names.includes(chosen) ? chosen : '';
}

function renderPending(answer) {
  const body = document.querySelector('#pending tbody');
  if (answer.status !== 200) {
    const row = el('tr');
    const cell = el('td', 'muted', errorOf(answer));
    cell.colSpan = 7;
    row.append(cell);
    body.replaceChildren(row);
    return;
  }
  const rows = answer.body.jobs.map((job) => {
    const row = el('tr');
    row.dataset.job = job.namespace + '/' + job.name;
    row.append(
      el('td', null, job.queue),
      el('td', null, job.position),
      el('td', 'job', job.namespace + '/' + job.name),
      el('td', 'stage', job.stage || ''),
      el('td', null, waited(job.waitedSeconds)),
      el('td', 'reason', job.reason),
      el('td', 'message', job.message));
    return row;
  });
  if (rows.length === 0) {
    const row = el('tr');
    const cell = el('td', 'muted', 'no waiting job you may see');
    cell.colSpan = 7;
    row.append(cell);
    rows.push(row);
  }
  body.replaceChildren(...rows);
}

function renderNodes(answer) {
  const container = document.getElementById('nodes');
  if (answer.status !== 200) {
    refused(container, answer);
    return;
  }
  container.replaceChildren(...answer.body.nodes.map((node) => {
    const row = el('div', 'node');
    row.dataset.node = node.name;
    const name = el('div', 'name', node.name);
    if (!node.ready) name.append(el('span', 'notready', 'not ready'));
    if (node.unschedulable) name.append(el('span', 'notready', 'cordoned'));
    row.append(name, bars(node.resources, false));
    const jobs = node.jobs.map((j) => j.namespace + '/' + j.name + ' (' + j.pods + ')').join(', ');
    row.append(el('div', 'jobs', jobs || 'no job you may see'));
    return row;
  }));
}

function renderEvictions(answer) {
  const body = document.querySelector('#evictions tbody');
  if (answer.status !== 200) {
    body.replaceChildren();
    return;
  }
  body.replaceChildren(...answer.body.evictions.map((e) => {
    const row = el('tr');
    row.append(
      el('td', null, new Date(e.at).toLocaleTimeString()),
      el('td', null, e.victimNamespace + '/' + e.victimName),
      el('td', null, e.preemptorNamespace + '/' + e.preemptorName),
      el('td', null, e.wholeJob ? e.pods + ' (whole job)' : e.pods),
      el('td', 'reason', e.cause),
      el('td', 'message', e.reason));
    return row;
  }));
}

async function refresh() {
  clearTimeout(state.timer);
  const queue = document.getElementById('queue-filter').value;
  const pendingPath = '/api/v1/pending' + (queue ? '?queue=' + encodeURIComponent(queue) : '');
  try {
    const [queues, pending, nodes, evictions] = await Promise.all([
      call('/api/v1/queues'), call(pendingPath), call('/api/v1/nodes'), call('/api/v1/evictions'),
    ]);
    if ([queues, pending, nodes, evictions].some((a) => a.status === 401)) {
      signedOut('the session ended; sign in again');
      return;
    }
    const problem = [queues, pending, nodes, evictions].find((a) => a.status === 503);
    document.getElementById('problem').textContent = problem ? errorOf(problem) : '';
    if (pending.body && pending.body.cycle) {
      document.getElementById('cycle').textContent =
        'last cycle ' + new Date(pending.body.cycle).toLocaleTimeString();
    }
    renderQueues(queues);
    renderPending(pending);
    renderNodes(nodes);
    renderEvictions(evictions);
    state.refreshes += 1;
    document.body.dataset.refreshes = String(state.refreshes);
    document.body.dataset.state = problem ? 'no-cycle' : 'ready';
  } catch (error) {
    document.getElementById('problem').textContent = 'cannot reach the scheduler: ' + error;
  }
  state.timer = setTimeout(refresh, state.refreshMillis);
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('sign-in-form').addEventListener('submit', signIn);
  document.getElementById('sign-out').addEventListener('click', signOut);
  document.getElementById('queue-filter').addEventListener('change', refresh);
  start();
});
