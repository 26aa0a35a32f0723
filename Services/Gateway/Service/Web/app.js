// Glimpse: the device in a browser. Draws what glimpse-gateway renders (SVG), lays a
// transparent, labelled hit area over every widget and Live Activity (from the layout the
// same render answers), performs clicks as taps through the gateway, and re-renders when
// the gateway's event stream (Server-Sent Events) says something changed.
// why.js draws the side panel (details of the selection, the event log).
'use strict';

const $ = (selector, root = document) => root.querySelector(selector);

const state = {
  device: localStorage.getItem('glimpse.device') || '',
  dark: localStorage.getItem('glimpse.dark') === '1',
  page: 0,
  screen: null,          // Device.Show
  apps: new Map(),       // bundleId → InstalledApp
  settings: null,
  clock: null,
  selected: null,        // {type: 'widget', id} or {type: 'activity', id}
  lastSequence: 0,
};

// ---------------------------------------------------------------------------------------
// The JSON API

// A stack with a device key (--device-key) is opened as http://host:7700/#device-key=<key>:
// the key moves to this tab's session storage (and out of the address bar) and goes with
// every call as `authorization: Device <key>`. On loopback without a key, nothing changes.
const deviceKey = (() => {
  const given = new URLSearchParams(location.hash.slice(1)).get('device-key');
  if (given) {
    sessionStorage.setItem('glimpse.deviceKey', given);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('glimpse.deviceKey') || '';
})();

function credentials(headers) {
  return deviceKey ? { ...headers, authorization: 'Device ' + deviceKey } : headers;
}

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? `${body.status || status}: ${body.message}` : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function api(path, body = {}) {
  const answer = await fetch('/v1/' + path, {
    method: 'POST',
    headers: credentials({ 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch (_) { data = { message: text }; }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return data;
}

function showError(error) {
  const box = $('#error');
  box.textContent = String(error && error.message ? error.message : error);
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

function showOpenedUrl(url, from) {
  const box = $('#opened-url');
  box.textContent = `${from} opened ${url}`;
  box.dataset.url = url;
  box.hidden = false;
  clearTimeout(showOpenedUrl.timer);
  showOpenedUrl.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

// ---------------------------------------------------------------------------------------
// Layout helpers

const contains = (frame, x, y) => {
  const f = frame || {};
  const fx = f.x || 0, fy = f.y || 0;
  return x >= fx && y >= fy && x <= fx + (f.width || 0) && y <= fy + (f.height || 0);
};

// The deepest node under (x, y) that a tap reaches (an intent or a URL), or null.
function actionableAt(node, x, y) {
  if (!contains(node.frame, x, y)) return null;
  for (const child of node.children || []) {
    const hit = actionableAt(child, x, y);
    if (hit) return hit;
  }
  return node.intent || node.url ? node : null;
}

function textsOf(node, out = []) {
  if (node.text) out.push(node.text);
  for (const child of node.children || []) textsOf(child, out);
  return out;
}

function labelOf(node) {
  return (node.accessibilityLabel || textsOf(node).join(' ')).trim();
}

// What a tap names: the view's id, else its path, else its intent type or URL.
function elementName(target, root) {
  if (target === root) return '';  // the view itself: the gateway opens its widgetURL
  return target.id || target.path || (target.intent && target.intent.intentType) || target.url || '';
}

const familyName = (family) => (family || '').replace('WIDGET_FAMILY_', '').toLowerCase()
  .replace(/_([a-z])/g, (_, c) => c.toUpperCase());

function appName(bundleId) {
  const app = state.apps.get(bundleId);
  return (app && app.displayName) || bundleId || '';
}

function allWidgets() {
  const widgets = new Map();
  const screen = state.screen || {};
  for (const page of screen.homePages || [])
    for (const slot of page.slots || [])
      for (const widget of slot.widgets || []) widgets.set(String(widget.placementId), widget);
  for (const widget of (screen.lockScreen || {}).widgets || []) widgets.set(String(widget.placementId), widget);
  return widgets;
}

function allActivities() {
  const activities = new Map();
  for (const view of ((state.screen || {}).lockScreen || {}).activities || [])
    activities.set(view.activity.activityId, view);
  return activities;
}

// ---------------------------------------------------------------------------------------
// Drawing a rendering: the SVG as an image, hit areas from the layout

const svgUrl = (svg) => 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);

async function paintCanvas(canvas, svg) {
  if (canvas.dataset.svg === svg) return;
  const image = new Image();
  image.alt = '';
  image.src = svgUrl(svg);
  try { await image.decode(); } catch (_) { /* still shown once loaded */ }
  canvas.replaceChildren(image);
  canvas.dataset.svg = svg;
}

function sizePhone(phone, size) {
  const inner = phone.clientWidth || 340;
  phone.style.height = `${(size.height / size.width) * inner + 20}px`;
}

function placeHit(hit, frame, size) {
  hit.style.left = `${(100 * (frame.x || 0)) / size.width}%`;
  hit.style.top = `${(100 * (frame.y || 0)) / size.height}%`;
  hit.style.width = `${(100 * (frame.width || 0)) / size.width}%`;
  hit.style.height = `${(100 * (frame.height || 0)) / size.height}%`;
}

// The layout point under a mouse event on a hit area that covers `node`.
function pointIn(hit, node, event) {
  const box = hit.getBoundingClientRect();
  const f = node.frame || {};
  const x = (f.x || 0) + ((event.clientX - box.left) / (box.width || 1)) * (f.width || 0);
  const y = (f.y || 0) + ((event.clientY - box.top) / (box.height || 1)) * (f.height || 0);
  return [x, y];
}

function makeHit(kind, key, node, size, label) {
  const hit = document.createElement('div');
  hit.className = 'hit';
  hit.tabIndex = 0;
  hit.setAttribute('role', 'button');
  hit.setAttribute('aria-label', label);
  hit.dataset.kind = kind;
  hit.dataset.key = key;
  placeHit(hit, node.frame, size);
  const sel = state.selected;
  if (sel && ((sel.type === 'widget' && kind === 'widget') || (sel.type === 'activity' && kind !== 'widget')) && sel.id === key)
    hit.classList.add('selected');
  return hit;
}

function widgetLabel(node, stackSize) {
  const widget = allWidgets().get(String(node.name)) || {};
  const where = stackSize > 1 ? `Smart Stack of ${stackSize}, ` : '';
  // A widget without text (images, gauges, shapes) is still named: its kind, and what it is.
  const shows = labelOf(node) || (widget.placeholder ? 'placeholder' : `${widget.kind || 'widget'}, no text`);
  return `${appName(widget.bundleId)} ${familyName(widget.family)} widget, ${where}placement ${node.name}: ${shows}`;
}

// Every Button, Toggle and Link inside a widget's or activity's node, outermost first, in
// reading order: each becomes a focusable element of its own (Tab reaches it, Enter or Space
// taps it), laid over its frame inside the hit area.
function actionables(node, out = []) {
  for (const child of node.children || []) {
    if (child.intent || child.url) out.push(child);
    actionables(child, out);
  }
  return out;
}

function elementRole(target) {
  if (target.kind === 'toggle') return 'switch';
  return target.url && !target.intent ? 'link' : 'button';
}

function addElements(hit, root, onTap) {
  const f = root.frame || {};
  for (const target of actionables(root)) {
    const element = document.createElement('div');
    element.className = 'element';
    element.tabIndex = 0;
    const role = elementRole(target);
    element.setAttribute('role', role);
    if (role === 'switch') element.setAttribute('aria-checked', target.isOn ? 'true' : 'false');
    element.setAttribute('aria-label', labelOf(target) || elementName(target, root) || 'button');
    element.dataset.element = elementName(target, root);
    const t = target.frame || {};
    element.style.left = `${(100 * ((t.x || 0) - (f.x || 0))) / (f.width || 1)}%`;
    element.style.top = `${(100 * ((t.y || 0) - (f.y || 0))) / (f.height || 1)}%`;
    element.style.width = `${(100 * (t.width || 0)) / (f.width || 1)}%`;
    element.style.height = `${(100 * (t.height || 0)) / (f.height || 1)}%`;
    const tap = (event) => { event.preventDefault(); event.stopPropagation(); onTap(target); };
    element.addEventListener('click', tap);
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') tap(event);
      else event.stopPropagation();
    });
    hit.append(element);
  }
}

// Focus survives a redraw: the focused hit (or element inside it) is found again by its keys.
function focusKey() {
  const active = document.activeElement;
  if (!active || !active.closest) return null;
  const hit = active.closest('.hit');
  if (!hit) return null;
  return { kind: hit.dataset.kind, key: hit.dataset.key, element: active === hit ? null : active.dataset.element };
}

function restoreFocus(key) {
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  for (const hit of document.querySelectorAll('.hit')) {
    if (hit.dataset.kind !== key.kind || hit.dataset.key !== key.key) continue;
    const target = key.element === null ? hit
      : [...hit.querySelectorAll('.element')].find((e) => e.dataset.element === key.element) || hit;
    target.focus({ preventScroll: true });
    return;
  }
}

function activityLabel(activityId, node, presentation) {
  const view = allActivities().get(activityId);
  const bundle = view ? view.activity.bundleId : '';
  return `${appName(bundle)} Live Activity (${presentation}): ${labelOf(node)}`;
}

// Widgets (also the top of a Smart Stack) and Live Activities in a screen's layout.
function collectHits(node, out, stack) {
  if (node.kind === 'widget') out.push({ kind: 'widget', node, stack });
  else if (node.kind === 'activity') out.push({ kind: 'activity', node });
  if (node.kind === 'widget' || node.kind === 'activity') return out;
  const inStack = node.kind === 'smartStack' ? node : stack;
  for (const child of node.children || []) collectHits(child, out, inStack);
  return out;
}

function paintHits(layer, layout) {
  const size = layout.size;
  const hits = collectHits(layout.root, []).map(({ kind, node, stack }) => {
    if (kind === 'widget') {
      const count = stack ? (stack.children || []).filter((c) => c.kind === 'widget').length || 2 : 1;
      const hit = makeHit('widget', String(node.name), node, size, widgetLabel(node, count));
      hit.dataset.placement = String(node.name);
      const widget = allWidgets().get(String(node.name)) || {};
      hit.dataset.entrySequence = widget.entrySequence || '';
      hit.dataset.entryDate = (widget.entry && widget.entry.date) || '';
      hit.addEventListener('click', (event) => clickWidget(event, hit, node));
      addElements(hit, node, (target) => tapWidget(hit, node, target));
      return hit;
    }
    const activityId = node.id || '';
    const hit = makeHit('activity', activityId, node, size, activityLabel(activityId, node, 'lockScreen'));
    hit.dataset.activity = activityId;
    hit.addEventListener('click', (event) => clickActivity(event, hit, node, activityId, 'lockScreen'));
    addElements(hit, node, (target) => {
      select('activity', activityId);
      tapActivity(activityId, 'lockScreen', target, node);
    });
    return hit;
  });
  for (const hit of hits) hit.addEventListener('keydown', keyToClick);
  layer.replaceChildren(...hits);
}

function keyToClick(event) {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  if (event.target !== event.currentTarget) return;  // an element inside: it taps itself
  event.preventDefault();
  const box = event.currentTarget.getBoundingClientRect();
  event.currentTarget.dispatchEvent(new MouseEvent('click', {
    clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true,
  }));
}

async function paintScreen(phone, rendering) {
  const layout = rendering.layout;
  sizePhone(phone, layout.size);
  await paintCanvas($('.canvas', phone), rendering.svg);
  paintHits($('.hits', phone), layout);
}

// The Dynamic Island: its own rendering laid over the top of the Home Screen, clipped to
// the island's shapes (compact, the minimal pair, or expanded).
async function paintIsland(rendering, island, screenSize) {
  const box = $('#island');
  const layout = rendering && rendering.layout;
  const islands = layout ? (layout.root.children || []).filter((n) => n.kind === 'island') : [];
  if (!islands.length) { box.hidden = true; $('.hits', box).replaceChildren(); return; }
  box.hidden = false;
  const size = layout.size;
  box.style.height = `${(100 * size.height) / screenSize.height}%`;
  const url = svgUrl(rendering.svg);
  const ids = [island.activityId, island.detachedActivityId];
  const mode = (island.mode || '').replace('MODE_', '').toLowerCase();
  const hits = islands.map((node, index) => {
    const detached = node.name === 'minimalDetached' || (!/^minimal/.test(node.name || '') && index === 1);
    const activityId = node.id || (detached ? island.detachedActivityId : island.activityId) || ids[index] || '';
    const presentation = node.name || mode;
    const hit = makeHit('island', activityId, node, size, activityLabel(activityId, node, presentation));
    hit.dataset.activity = activityId;
    hit.dataset.presentation = presentation;
    const f = node.frame;
    const image = document.createElement('img');
    image.alt = '';
    image.src = url;
    image.style.cssText = `position:absolute;pointer-events:none;width:${(100 * size.width) / f.width}%;` +
      `left:${(-100 * (f.x || 0)) / f.width}%;top:${(-100 * (f.y || 0)) / f.height}%;` +
      `height:${(100 * size.height) / f.height}%`;
    hit.style.overflow = 'hidden';
    hit.style.borderRadius = `${Math.min(f.height / 2, 44) * (100 / f.width)}% / ${Math.min(f.height / 2, 44) * (100 / f.height)}%`;
    hit.append(image);
    hit.addEventListener('click', (event) => clickIsland(event, hit, node, activityId, mode));
    hit.addEventListener('keydown', keyToClick);
    if (mode === 'expanded') {
      addElements(hit, node, (target) => {
        select('activity', activityId);
        tapActivity(activityId, 'expanded', target, node);
      });
    }
    return hit;
  });
  $('.hits', box).replaceChildren(...hits);
  box.dataset.mode = mode;
  box.dataset.svg = rendering.svg;
}

// ---------------------------------------------------------------------------------------
// Clicks

function select(type, id) {
  state.selected = { type, id };
  for (const hit of document.querySelectorAll('.hit')) {
    const same = hit.dataset.key === id && (type === 'widget' ? hit.dataset.kind === 'widget' : hit.dataset.kind !== 'widget');
    hit.classList.toggle('selected', same);
  }
  Why.showDetail(state.selected);
}

async function clickWidget(event, hit, node) {
  const [x, y] = pointIn(hit, node, event);
  const target = actionableAt(node, x, y);
  select('widget', String(node.name));
  if (!target) return;
  await tapWidget(hit, node, target);
}

async function tapWidget(hit, node, target) {
  const placementId = String(node.name);
  select('widget', placementId);
  hit.classList.add('flash');
  setTimeout(() => hit.classList.remove('flash'), 400);
  try {
    const answer = await api('widgets/tap', { placementId, element: elementName(target, node) });
    if (answer.openedUrl) showOpenedUrl(answer.openedUrl, `${appName((answer.widget || {}).bundleId)} widget`);
  } catch (error) { showError(error); }
  requestRefresh('full');
}

async function tapActivity(activityId, presentation, target, root) {
  try {
    const answer = await api('activities/tap', { activityId, presentation, element: elementName(target, root) });
    if (answer.openedUrl) showOpenedUrl(answer.openedUrl, 'Live Activity');
  } catch (error) {
    showError(error);
  }
  requestRefresh('full');
}

function clickActivity(event, hit, node, activityId, presentation) {
  select('activity', activityId);
  const [x, y] = pointIn(hit, node, event);
  const target = actionableAt(node, x, y);
  if (target) tapActivity(activityId, presentation, target, node);
}

async function clickIsland(event, hit, node, activityId, mode) {
  select('activity', activityId);
  const [x, y] = pointIn(hit, node, event);
  const target = actionableAt(node, x, y);
  try {
    if (mode === 'expanded' && target && target !== node) {
      await tapActivity(activityId, 'expanded', target, node);
      return;
    }
    // A click is a long press: expanded while held; a click on the expanded island lets go.
    await api('activities/long_press', { activityId: mode === 'expanded' ? '' : activityId });
  } catch (error) { showError(error); }
  requestRefresh('full');
}

// ---------------------------------------------------------------------------------------
// Refreshing: everything the page shows, coalesced

function renderRequest(target, extra = {}) {
  const request = { target, svg: true, layout: true, embedImages: true, ...extra };
  // The stack's own model needs no field (a gateway without RenderRequest.device still answers).
  if (state.device && state.device !== (state.settings || {}).device) request.device = state.device;
  if (state.dark) request.colorScheme = 'COLOR_SCHEME_DARK';
  return api('device/render', request);
}

async function renderAll() {
  const [screen, home, lock, island] = await Promise.all([
    api('device/show'),
    renderRequest('TARGET_HOME_SCREEN', { page: state.page }),
    renderRequest('TARGET_LOCK_SCREEN'),
    renderRequest('TARGET_DYNAMIC_ISLAND').catch(() => null),
  ]);
  state.screen = screen;
  const focused = focusKey();
  await Promise.all([
    paintScreen($('#home'), home),
    paintScreen($('#lock'), lock),
  ]);
  await paintIsland(island, screen.dynamicIsland || {}, home.layout.size);
  restoreFocus(focused);
  paintStatus();
  scheduleNextChange(screen, [home, lock, island]);
}

// The screen changes by itself too (a countdown, the status bar's clock, an alert's
// expanded island folding back): each rendering says when it next does, in device time,
// and the page draws again then, without waiting for an event. A frozen manual clock
// does not move, so nothing changes by itself.
function scheduleNextChange(screen, renderings) {
  clearTimeout(state.nextChangeTimer);
  const clock = state.clock || {};
  if (clock.manual && clock.frozen) return;
  const times = renderings.filter((r) => r && r.nextChange).map((r) => new Date(r.nextChange).getTime());
  if (!times.length || !screen.now) return;
  const delay = Math.max(100, Math.min(...times) - new Date(screen.now).getTime());
  $('#connection').dataset.nextChange = new Date(Math.min(...times)).toISOString();
  state.nextChangeTimer = setTimeout(() => requestRefresh('tick'), Math.min(delay, 60000));
}

function paintStatus() {
  const screen = state.screen || {};
  $('#clock').textContent = formatTime(screen.now, true);
  const clock = state.clock || {};
  $('#clock-mode').textContent = !clock.manual ? 'real time' : clock.frozen ? 'manual · frozen' : 'manual · following';
  $('#locked').checked = !!screen.locked;
  const unreachable = screen.unreachableServices || [];
  $('#unreachable').hidden = !unreachable.length;
  $('#unreachable').textContent = unreachable.length ? `unreachable: ${unreachable.join(', ')}` : '';
  $('#lock').dataset.locked = screen.locked ? 'true' : 'false';
  const pages = (screen.homePages || []).length;
  const picker = $('#page');
  if (pages > 1 && !picker) {
    const select = document.createElement('select');
    select.id = 'page';
    select.setAttribute('aria-label', 'Home Screen page');
    select.addEventListener('change', () => { state.page = Number(select.value); requestRefresh('full'); });
    $('#home').before(select);
  }
  if ($('#page')) {
    $('#page').replaceChildren(...Array.from({ length: pages }, (_, i) => new Option(`page ${i + 1}`, i, false, i === state.page)));
  }
}

function formatTime(iso, withDate) {
  if (!iso) return '–';
  const date = new Date(iso);
  const text = date.toISOString();
  return withDate ? `${text.slice(0, 10)} ${text.slice(11, 19)} UTC` : text.slice(11, 19);
}

async function loadSettings() {
  const [settings, apps, clock] = await Promise.all([api('device/get_settings'), api('apps'), api('clock/now')]);
  state.settings = settings;
  state.clock = clock;
  state.apps = new Map((apps.apps || []).map((app) => [app.bundleId, app]));
  if (!state.device) state.device = settings.device || 'iPhone393x852';
  $('#model').value = state.device;
  $('#low-power').checked = !!settings.lowPowerMode;
  $('#dark').checked = state.dark;
  paintSwitches();
}

function paintSwitches() {
  const switches = (state.settings && state.settings.appSwitches) || {};
  const rows = [...state.apps.values()].map((app) => {
    const info = switches[app.bundleId] || { areActivitiesEnabled: true };
    const row = document.createElement('tr');
    const name = document.createElement('td');
    name.textContent = app.displayName || app.bundleId;
    row.append(name);
    for (const [field, request, label] of [
      ['areActivitiesEnabled', 'liveActivitiesEnabled', 'Live Activities'],
      ['frequentPushesEnabled', 'frequentUpdatesEnabled', 'Frequent pushes'],
    ]) {
      const cell = document.createElement('td');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = !!info[field];
      box.dataset.bundle = app.bundleId;
      box.dataset.setting = request;
      box.setAttribute('aria-label', `${label} for ${app.displayName || app.bundleId}`);
      box.addEventListener('change', () => updateSettings({ bundleId: app.bundleId, [request]: box.checked }));
      cell.append(box);
      row.append(cell);
    }
    return row;
  });
  $('#app-switches tbody').replaceChildren(...rows);
}

async function updateSettings(change) {
  try {
    state.settings = await api('device/update_settings', change);
    paintSwitches();
  } catch (error) { showError(error); }
  requestRefresh('full');
}

// Coalescing: events that change what shows ("full") re-render at once, or right after the
// render in flight; the clock following real time ("tick") re-renders at most once a second.
const refresh = { timer: null, due: 0, running: false, pending: null, lastRun: 0 };

function requestRefresh(kind) {
  if (refresh.running) {
    if (refresh.pending !== 'full') refresh.pending = kind;
    return;
  }
  const delay = kind === 'full' ? 0 : Math.max(0, 1000 - (performance.now() - refresh.lastRun));
  const due = performance.now() + delay;
  if (refresh.timer && refresh.due <= due) return;
  clearTimeout(refresh.timer);
  refresh.due = due;
  refresh.timer = setTimeout(runRefresh, delay, kind);
}

async function runRefresh(kind) {
  refresh.timer = null;
  refresh.running = true;
  refresh.pending = null;
  try {
    await renderAll();
    if (kind === 'full') await Why.refreshDetail();
    $('#connection').dataset.rendered = String(Date.now());
  } catch (error) {
    showError(error);
  } finally {
    refresh.running = false;
    refresh.lastRun = performance.now();
    if (refresh.pending) requestRefresh(refresh.pending);
  }
}

// ---------------------------------------------------------------------------------------
// Live: the event stream

function onEvent(event) {
  const sequence = Number(event.sequence || 0);
  if (sequence && sequence <= state.lastSequence) return;
  state.lastSequence = Math.max(state.lastSequence, sequence);
  document.body.dataset.lastSequence = String(state.lastSequence);
  Why.logEvent(event);
  if (event.kind === 'clock_moved') {
    const moved = event.clockMoved || {};
    const jump = (new Date(moved.to) - new Date(moved.from)) >= 2000;
    if (jump || !state.clock || !state.clock.manual) api('clock/now').then((c) => { state.clock = c; paintStatus(); }).catch(() => {});
    requestRefresh(jump ? 'full' : 'tick');
    return;
  }
  if (event.kind === 'settings_changed') {
    state.settings = (event.settingsChanged || {}).settings || state.settings;
    $('#low-power').checked = !!(state.settings || {}).lowPowerMode;
    paintSwitches();
  }
  if (event.kind === 'app_installed' || event.kind === 'app_uninstalled') loadSettings().catch(showError);
  requestRefresh('full');
}

// EventSource cannot send a header: with a device key, the same stream through fetch.
function keyedEventSource(url) {
  const source = { close() { controller.abort(); } };
  const controller = new AbortController();
  (async () => {
    const answer = await fetch(url, { headers: credentials({ accept: 'text/event-stream' }), signal: controller.signal });
    if (!answer.ok || !answer.body) throw new Error(`HTTP ${answer.status}`);
    source.onopen();
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        if (lines.some((line) => line.startsWith('event: error'))) throw new Error('the event stream failed');
        const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart());
        if (data.length) source.onmessage({ data: data.join('\n') });
      }
    }
  })().catch(() => { if (!controller.signal.aborted) source.onerror(); });
  return source;
}

function follow() {
  const query = encodeURIComponent(JSON.stringify({ afterSequence: String(state.lastSequence) }));
  const url = '/v1/events/follow?json=' + query;
  const source = deviceKey ? keyedEventSource(url) : new EventSource(url);
  const pill = $('#connection');
  source.onopen = () => { pill.dataset.state = 'live'; pill.textContent = 'live'; };
  source.onmessage = (message) => {
    try { onEvent(JSON.parse(message.data)); } catch (error) { console.error(error); }
  };
  source.onerror = () => {
    // Reconnect from the last event seen (EventSource would start over from the URL's).
    source.close();
    pill.dataset.state = 'down';
    pill.textContent = 'reconnecting…';
    setTimeout(() => { follow(); requestRefresh('full'); }, 1000);
  };
  state.source = source;
}

// ---------------------------------------------------------------------------------------
// Controls

function wireControls() {
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => clockCall('clock/advance', { by: button.dataset.advance }, button));
  }
  $('#freeze').addEventListener('click', (e) => clockCall('clock/freeze', {}, e.currentTarget));
  $('#follow').addEventListener('click', (e) => clockCall('clock/follow', {}, e.currentTarget));
  $('#locked').addEventListener('change', (e) => updateSettings({ locked: e.currentTarget.checked }));
  $('#low-power').addEventListener('change', (e) => updateSettings({ lowPowerMode: e.currentTarget.checked }));
  $('#dark').addEventListener('change', (e) => {
    state.dark = e.currentTarget.checked;
    localStorage.setItem('glimpse.dark', state.dark ? '1' : '0');
    requestRefresh('full');
  });
  $('#model').addEventListener('change', (e) => {
    state.device = e.currentTarget.value;
    localStorage.setItem('glimpse.device', state.device);
    requestRefresh('full');
  });
  $('#log-filter').addEventListener('input', (e) => Why.filterLog(e.currentTarget.value));
  window.addEventListener('resize', () => requestRefresh('tick'));
}

async function clockCall(path, body, button) {
  button.disabled = true;
  try {
    state.clock = await api(path, body);
    paintStatus();
  } catch (error) { showError(error); }
  finally { button.disabled = false; }
  requestRefresh('full');
}

async function start() {
  wireControls();
  try {
    await loadSettings();
    state.lastSequence = await Why.loadLog();
    await renderAll();
  } catch (error) { showError(error); }
  follow();
  document.body.dataset.ready = 'true';
}

window.Glimpse = { api, state, requestRefresh, appName, familyName, formatTime, allWidgets, allActivities, showError };
document.addEventListener('DOMContentLoaded', start);
