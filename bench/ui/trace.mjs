// Reading a Chromium trace (categories devtools.timeline(.stack), blink.user_timing, v8.execute, toplevel) taken while keys
// were pressed: each key's window runs from the page's `bench-key <label>` mark to its `bench-painted <label>` mark
// (bench/ui/run.mjs's probe sets both), on the page's main thread. Times in the trace are in microseconds.

/** Trace events that run script (a layout inside one of them was forced by that script). */
const SCRIPT = new Set(['EventDispatch', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'EvaluateScript', 'v8.compile', 'v8.compileModule',
  'v8.evaluateModule', 'V8.Execute', 'v8.run', 'v8.callFunction', 'XHRReadyStateChange', 'XHRLoad', 'FireIdleCallback', 'V8.ParseFunction']);
const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet']);
const LAYOUT = new Set(['Layout']);
const PAINT = new Set(['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'UpdateLayer', 'UpdateLayerTree', 'Commit', 'CompositeLayers', 'PaintSetup', 'Decode Image']);

function classOf(name) {
  if (SCRIPT.has(name)) return 'script';
  if (STYLE.has(name)) return 'style';
  if (LAYOUT.has(name)) return 'layout';
  if (PAINT.has(name)) return 'paint';
  if (/GC/.test(name)) return 'gc';
  return null;
}

/** The keys pressed under the trace: label, start and end (µs), milliseconds, and the thread they ran on. */
export function pressWindows(events) {
  const starts = new Map();
  const presses = [];
  for (const event of events) {
    if (typeof event.name !== 'string') continue;
    if (event.name.startsWith('bench-key ')) starts.set(event.name.slice('bench-key '.length), event);
    else if (event.name.startsWith('bench-painted ')) {
      const label = event.name.slice('bench-painted '.length);
      const start = starts.get(label);
      if (start && event.ts >= start.ts) presses.push({ label, start: start.ts, end: event.ts, ms: (event.ts - start.ts) / 1000, pid: start.pid, tid: start.tid });
    }
  }
  return presses;
}

/** The thread's complete events overlapping the window, as {name, start, end}, sorted outermost first. */
const cache = new WeakMap();
function threadSpans(events, pid, tid) {
  let byThread = cache.get(events);
  if (!byThread) {
    byThread = new Map();
    const open = new Map();
    for (const event of events) {
      const key = `${event.pid}:${event.tid}`;
      if (!byThread.has(key)) byThread.set(key, []);
      if (event.ph === 'X' && typeof event.dur === 'number') byThread.get(key).push({ name: event.name, start: event.ts, end: event.ts + event.dur, args: event.args });
      else if (event.ph === 'B') {
        if (!open.has(key)) open.set(key, []);
        open.get(key).push(event);
      } else if (event.ph === 'E') {
        const begun = open.get(key)?.pop();
        if (begun) byThread.get(key).push({ name: begun.name, start: begun.ts, end: event.ts, args: begun.args });
      }
    }
    for (const spans of byThread.values()) spans.sort((a, b) => a.start - b.start || b.end - a.end);
    cache.set(events, byThread);
  }
  return byThread.get(`${pid}:${tid}`) ?? [];
}

const inWindow = (spans, press) => spans.filter((s) => s.end > press.start && s.start < press.end);

/**
 * The layouts forced inside script during the key's window: each one's milliseconds and the script event it ran
 * under (an event handler, a microtask, a timer, an animation frame callback).
 */
export function forcedLayouts(events, press) {
  const spans = inWindow(threadSpans(events, press.pid, press.tid), press);
  const out = [];
  for (const layout of spans.filter((s) => LAYOUT.has(s.name))) {
    const under = spans.filter((s) => SCRIPT.has(s.name) && s.start <= layout.start && s.end >= layout.end);
    // With disabled-by-default-devtools.timeline.stack, the script that asked for it (innermost frame first).
    const stack = layout.args?.beginData?.stackTrace ?? [];
    if (under.length) out.push({ ms: (layout.end - layout.start) / 1000, under: under.at(-1).name, stack: stack.slice(0, 4).map((f) => ({ functionName: f.functionName, url: f.url, line: f.lineNumber, column: f.columnNumber })) });
  }
  return out;
}

/**
 * Where the main thread's time went during the key's window, in milliseconds: each event's own time (less its
 * children's) counted to its class, or to the class of the event it ran inside (a style recalculation forced by
 * script counts as style; the script around it keeps only its own time); time in no event is idle (waiting for the
 * server or for the next frame).
 */
export function timeBreakdown(events, press) {
  const spans = inWindow(threadSpans(events, press.pid, press.tid), press);
  const totals = { script: 0, style: 0, layout: 0, paint: 0, gc: 0, other: 0, idle: 0 };
  /** The events whose own time is counted as other, by name. */
  const others = new Map();
  const clip = (s) => ({ start: Math.max(s.start, press.start), end: Math.min(s.end, press.end) });
  // A stack walk over spans sorted outermost first: each span's own time is its length less its children's.
  const stack = [];
  const close = (upTo) => {
    while (stack.length && stack.at(-1).end <= upTo) {
      const done = stack.pop();
      const own = Math.max(0, done.end - done.start - done.children) / 1000;
      totals[done.cls] += own;
      if (done.cls === 'other') others.set(done.name, (others.get(done.name) ?? 0) + own);
      if (stack.length) stack.at(-1).children += done.end - done.start;
    }
  };
  let busy = 0;
  for (const span of spans) {
    const { start, end } = clip(span);
    if (end <= start) continue;
    close(start);
    const parent = stack.at(-1);
    if (parent && end > parent.end) continue; // overlapping, not nested: a trace artefact, left out
    if (!parent) busy += end - start;
    stack.push({ name: span.name, start, end, children: 0, cls: classOf(span.name) ?? parent?.cls ?? 'other' });
  }
  close(Infinity);
  totals.idle = Math.max(0, (press.end - press.start - busy) / 1000);
  for (const key of Object.keys(totals)) totals[key] = Math.round(totals[key] * 100) / 100;
  return { ...totals, others: Object.fromEntries([...others].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name, ms]) => [name, Math.round(ms * 100) / 100])) };
}
