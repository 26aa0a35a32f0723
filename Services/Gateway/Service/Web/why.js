// The "why" beside the device: the selected widget's timeline, reload policy, budget and
// last provider error, or the selected Live Activity's state, dates and push log; and the
// event log, streamed (app.js feeds it from the Server-Sent Events channel).
'use strict';

const Why = (() => {
  const LOG_LIMIT = 400;
  let filterText = '';

  // A tiny element builder: h('td', {class: 'x'}, 'text', child…).
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') node.className = value;
      else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const G = () => window.Glimpse;
  const time = (iso) => (iso ? G().formatTime(iso, true) : '—');
  const short = (iso) => (iso ? G().formatTime(iso, false) : '');
  const words = (enumValue, prefix) => (enumValue || '').replace(prefix, '').toLowerCase().replace(/_/g, ' ');

  function definitionList(rows) {
    return h('dl', {}, rows.filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([term, value, cls]) => [h('dt', {}, term), h('dd', { class: cls }, value)]));
  }

  // Text contents of a view tree (glimpse.widget.v1.View as JSON).
  function viewTexts(view, out = []) {
    if (!view || typeof view !== 'object') return out;
    for (const [key, value] of Object.entries(view)) {
      if ((key === 'content' || key === 'title') && typeof value === 'string') out.push(value);
      else if (typeof value === 'object') viewTexts(value, out);
    }
    return out;
  }

  function policyText(timeline) {
    if (!timeline) return 'no timeline yet';
    if (timeline.atEnd) return '.atEnd: ask again after the last entry';
    if (timeline.after) return `.after(${time(timeline.after)})`;
    if (timeline.never) return '.never: only explicit reloads';
    return 'unspecified';
  }

  function budgetText(budget) {
    if (!budget) return '';
    const used = budget.used || 0, limit = budget.limit || 0;
    return `${used}/${limit} used in the rolling ${Math.round((budget.windowSeconds || 86400) / 3600)} h window, ${budget.remaining || 0} left`;
  }

  function nextReloadText(budget) {
    if (!budget) return '';
    const why = words(budget.waitingFor, 'WAIT_REASON_');
    return budget.nextReloadAt ? `${time(budget.nextReloadAt)} (waiting for: ${why})` : `none scheduled (${why || 'nothing wanted'})`;
  }

  function errorText(error) {
    if (!error || !error.code) return '';
    return `${error.code}: ${error.message || ''} — ${error.failures || 1} in a row at ${time(error.at)}` +
      (error.retryAt ? `, retry at ${time(error.retryAt)}` : '');
  }

  // -------------------------------------------------------------------------------------
  // Details of the selection

  async function widgetDetail(placementId) {
    const api = G().api;
    const [status, widget] = await Promise.all([
      api('widgets/timeline', { placementId }).catch(() => null),
      api('widgets/get', { placementId }),
    ]);
    const timeline = status && status.timeline;
    const budget = (status && status.budget) || widget.budget;
    const lastError = (status && status.lastError) || widget.lastError;
    const current = (status && status.currentEntry) || widget.entry;
    const location = widget.location || {};
    const where = location.screen === 'SCREEN_LOCK' ? `Lock Screen, slot ${location.slot || 0}`
      : `Home Screen page ${(location.page || 0) + 1}, slot ${location.slot || 0}` +
        (location.stackPosition ? `, stack position ${location.stackPosition}` : '');

    const entries = (timeline && timeline.entries) || (current ? [current] : []);
    const now = new Date((G().state.screen || {}).now || Date.now());
    let currentIndex = entries.findIndex((e) => current && e.date === current.date);
    if (currentIndex < 0) entries.forEach((e, i) => { if (new Date(e.date) <= now) currentIndex = i; });
    const rows = entries.map((entry, i) => h('tr', { class: i === currentIndex ? 'current' : null, 'aria-current': i === currentIndex ? 'true' : null },
      h('td', {}, String(i + 1)), h('td', {}, time(entry.date)),
      h('td', {}, viewTexts(entry.view).join(' · ') || (entry.widgetUrl || '')),
      h('td', {}, i === currentIndex ? 'showing' : new Date(entry.date) > now ? 'upcoming' : 'past')));

    const elements = (widget.elements || []).map((e) => h('li', {},
      `${e.label || e.id || e.path} — ${e.button ? 'Button ' + e.button.intentType : e.toggle ? `Toggle ${e.toggle.intentType} (${e.isOn ? 'on' : 'off'})` : 'Link ' + e.link}` +
      (e.id ? ` (id ${e.id})` : '')));

    return h('section', { 'data-detail': 'widget', 'data-placement': placementId },
      h('h2', {}, `${G().appName(widget.bundleId)} · ${widget.kind} (${G().familyName(widget.family)})`),
      definitionList([
        ['Placement', `${placementId} — ${where}`],
        ['Showing', widget.placeholder ? 'the placeholder' : `entry of ${time(current && current.date)}`],
        ['Reload policy', status ? policyText(timeline) : '(Widgets.Timeline unavailable)'],
        ['Budget', budgetText(budget)],
        ['Next reload', nextReloadText(budget)],
        ['Window frees', budget && budget.windowFreesAt ? time(budget.windowFreesAt) : ''],
        ['Last error', errorText(lastError) || 'none', lastError && lastError.code ? 'bad' : null],
        ['Stale', widget.stale ? 'glimpse-timeline unreachable: last known state' : ''],
      ]),
      h('h3', {}, `Timeline (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'})`),
      h('table', { class: 'timeline' }, h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'date'), h('th', {}, 'shows'), h('th', {}, ''))), h('tbody', {}, rows)),
      elements.length ? [h('h3', {}, 'Tappable'), h('ul', {}, elements)] : null);
  }

  function pretty(json) {
    try { return JSON.stringify(JSON.parse(json), null, 1); } catch (_) { return json || ''; }
  }

  async function activityPushes(activity) {
    const api = G().api;
    // The endpoint's log is per app (PushesRequest has no activity): keep this activity's.
    const pushes = (await api('activities/pushes', { bundleId: activity.bundleId })).pushes || [];
    const mine = (p) => p.deviceToken === activity.pushToken ||
      (p.outcomes || []).some((o) => o.activityId === activity.activityId) ||
      (p.states || []).some((s) => s.activityId === activity.activityId);
    return pushes.filter((p) => !activity.pushToken || mine(p));
  }

  async function activityDetail(activityId) {
    const view = await G().api('activities/get', { activityId });
    const activity = view.activity || {};
    const content = activity.content || {};
    const now = new Date((G().state.screen || {}).now || Date.now());
    const stale = content.staleDate && new Date(content.staleDate) <= now;
    const pushes = await activityPushes(activity).catch(() => []);
    const rows = pushes.slice(-50).reverse().map((p) => h('tr', {},
      h('td', {}, short(p.receivedAt)),
      h('td', {}, `${p.event || p.pushType || ''} p${p.priority || 10}`),
      h('td', { class: (p.status || 200) === 200 ? null : 'bad' }, `${p.status || ''} ${p.reason || ''}`),
      h('td', {}, (p.outcomes || []).map((o) => h('div', { class: /APPLIED|STARTED/.test(o.kind) ? 'good' : 'bad' },
        `${words(o.kind, 'KIND_')}${o.detail ? ': ' + o.detail : ''}${o.until ? ` (until ${short(o.until)})` : ''}`)))));
    return h('section', { 'data-detail': 'activity', 'data-activity': activityId },
      h('h2', {}, `${G().appName(activity.bundleId)} · ${activity.attributesType}`),
      definitionList([
        ['Activity', activityId],
        ['State', words(activity.state, 'ACTIVITY_STATE_') + (view.stale ? ' (glimpse-activity unreachable)' : '')],
        ['Shows', (view.presentations || []).join(', ') || 'nowhere'],
        ['Started', time(activity.activatedAt)],
        ['Stale date', content.staleDate ? `${time(content.staleDate)}${stale ? ' — stale now' : ''}` : 'never stale', stale ? 'bad' : null],
        ['Dismissal', activity.dismissalDate ? time(activity.dismissalDate) : (activity.endedAt ? 'system default' : 'not ended')],
        ['Ended', activity.endedAt ? time(activity.endedAt) : ''],
        ['Relevance', content.relevanceScore !== undefined ? String(content.relevanceScore) : '0'],
        ['Last alert', activity.lastAlert ? `${activity.lastAlert.title || ''} — ${activity.lastAlert.body || ''} at ${time(activity.lastAlertAt)}` : ''],
      ]),
      h('h3', {}, 'Content state'), h('pre', {}, pretty(content.stateJson)),
      h('h3', {}, 'Attributes'), h('pre', {}, pretty(activity.attributesJson)),
      h('h3', {}, `Push log (${pushes.length})`),
      rows.length ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'at'), h('th', {}, 'push'), h('th', {}, 'answer'), h('th', {}, 'device did'))), h('tbody', {}, rows))
        : h('p', { class: 'hint' }, 'No pushes yet.'));
  }

  let detailToken = 0;
  async function showDetail(selected) {
    const token = ++detailToken;
    const box = document.getElementById('detail');
    if (!selected) return;
    try {
      const section = selected.type === 'widget' ? await widgetDetail(selected.id) : await activityDetail(selected.id);
      if (token === detailToken) box.replaceChildren(section);
    } catch (error) {
      if (token === detailToken) box.replaceChildren(h('h2', {}, 'Details'), h('p', { class: 'bad' }, String(error.message || error)));
    }
  }

  const refreshDetail = () => showDetail(G().state.selected);

  // -------------------------------------------------------------------------------------
  // The event log

  function whyLine(event) {
    switch (event.kind) {
      case 'reload_performed': {
        const reload = (event.reloadPerformed || {}).reload || {};
        return [`${words(reload.reason, 'RELOAD_REASON_')}, ${reload.charged ? 'charged' : 'free'}` +
          (reload.retry ? `, retry ${reload.retry}` : '') + ` · budget ${budgetText(reload.budget)}`, null];
      }
      case 'reload_requested': {
        const request = event.reloadRequested || {};
        const deferred = (request.placements || []).some((b) => /BUDGET|SPACING|LOW_POWER|MINIMUM/.test(b.waitingFor || ''));
        const parts = (request.placements || []).map((b) => `#${b.placementId}: ${b.used || 0}/${b.limit || 0}, ` +
          (b.nextReloadAt ? `next ${short(b.nextReloadAt)} (${words(b.waitingFor, 'WAIT_REASON_')})` : words(b.waitingFor, 'WAIT_REASON_')));
        return [`${words(request.reason, 'RELOAD_REASON_')}${deferred ? ' — deferred' : ''} · ${parts.join('; ')}`, deferred ? 'bad' : null];
      }
      case 'provider_failed':
        return [errorText((event.providerFailed || {}).error), 'bad'];
      case 'intent_performed': {
        const intent = event.intentPerformed || {};
        const response = intent.response || {};
        const result = response.performed ? 'performed' : response.failed ? `failed: ${response.failed.message}`
          : response.refused ? `refused: ${words(response.refused.reason, 'REFUSAL_')} ${response.refused.message || ''}` : '';
        return [`${intent.intentType || ''} (${intent.element || ''}) ${result}`, response.performed ? 'good' : 'bad'];
      }
      case 'push_received': {
        const push = event.pushReceived || {};
        const outcomes = (push.outcomes || []).map((o) => `${words(o.kind, 'KIND_')}${o.detail ? ': ' + o.detail : ''}`);
        const ok = (push.status || 200) === 200 && (push.outcomes || []).every((o) => /APPLIED|STARTED/.test(o.kind));
        return [`${push.event || push.pushType || ''} p${push.priority || 10} → ${push.status || ''} ${push.reason || ''} · ${outcomes.join('; ')}`, ok ? 'good' : 'bad'];
      }
      case 'activity_changed': {
        const change = event.activityChanged || {};
        if (change.dropped) return [`dropped: ${words(change.dropped.kind, 'KIND_')} ${change.dropped.detail || ''}`, 'bad'];
        if (change.state) return [`${words(change.state.from, 'ACTIVITY_STATE_') || '—'} → ${words(change.state.to, 'ACTIVITY_STATE_')} (${change.state.reason || ''})`, null];
        if (change.content && change.content.alert) return [`alert: ${change.content.alert.title || ''}`, null];
        return ['', null];
      }
      case 'url_opened':
        return [(event.urlOpened || {}).url, null];
      default:
        return ['', null];
    }
  }

  function eventRow(event) {
    const [line, tone] = whyLine(event);
    const row = h('li', { 'data-kind': event.kind, 'data-sequence': event.sequence, 'data-tone': tone },
      h('span', { class: 'at' }, short(event.at)),
      h('span', { class: 'kind' }, event.kind),
      h('span', { class: 'summary' }, event.summary || ''),
      line ? h('span', { class: 'why-line' }, line) : null);
    row.hidden = !matches(row);
    return row;
  }

  const matches = (row) => !filterText || row.textContent.toLowerCase().includes(filterText);

  // Clock ticks while the clock follows real time are not worth a line.
  function worthLogging(event) {
    if (event.kind !== 'clock_moved') return true;
    const moved = event.clockMoved || {};
    return new Date(moved.to) - new Date(moved.from) >= 2000;
  }

  function logEvent(event, { animate = true } = {}) {
    if (!worthLogging(event)) return;
    const list = document.getElementById('events');
    const row = eventRow(event);
    if (animate) {
      row.classList.add('new');
      setTimeout(() => row.classList.remove('new'), 700);
    }
    list.prepend(row);
    while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
  }

  const ALL_BUT_TICKS = ['entry_changed', 'reload_performed', 'reload_requested', 'provider_failed', 'intent_performed',
    'push_received', 'activity_changed', 'url_opened', 'app_installed', 'app_uninstalled', 'widget_placed',
    'widget_removed', 'settings_changed', 'service_reachability'];

  // The log so far (without clock ticks); returns the last sequence to follow from.
  async function loadLog() {
    let after = 0;
    let kept = [];
    for (;;) {
      const page = await G().api('events', { afterSequence: String(after), limit: 1000, kinds: ALL_BUT_TICKS });
      const events = page.events || [];
      kept = kept.concat(events).slice(-LOG_LIMIT);
      if (!events.length) break;
      after = Number(page.lastSequence || events[events.length - 1].sequence);
      if (events.length < 1000) break;
    }
    for (const event of kept) logEvent(event, { animate: false });
    return after;
  }

  function filterLog(text) {
    filterText = text.trim().toLowerCase();
    for (const row of document.getElementById('events').children) row.hidden = !matches(row);
  }

  return { showDetail, refreshDetail, logEvent, loadLog, filterLog };
})();
