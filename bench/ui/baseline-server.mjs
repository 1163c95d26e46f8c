// The browser's floor for the UI benchmarks: a bare static server (run as its own process, so its start can be
// timed from spawn like web mode's) with:
// - /plain.html: a heading and a paragraph (first paint);
// - /rows.html: 200 rows, nothing else (heap, scrolling);
// - /roundtrip.html: the same 200 rows under a strip saying who acts; pressing N makes the round trip the runner
//   makes, with no framework: the keydown sends one message on a WebSocket to this server (web mode's transport,
//   renderer/src/lib/api.ts), the server answers with the next turn, and the page changes the strip and moves the
//   "now" row. A key's latency here is the browser's and the socket's share of the runner's: keydown → request →
//   reply → DOM change → painted frame, measured by the same probe.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const PLAIN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title></head>
<body><h1>Campaigns</h1><p>A plain static page.</p></body></html>`;

const rows = Array.from({ length: 200 }, (_, i) => `<li id="row-${i}">${i + 1}. Goblin ${i + 1}</li>`).join('');
const ROWS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rows</title></head>
<body><ol>${rows}</ol></body></html>`;

const ROUND_TRIP_SCRIPT = `const socket = new WebSocket(new URL('socket', location.href).href.replace(/^http/, 'ws'));
let asked = 0;
socket.onmessage = (message) => {
  const { turn, round } = JSON.parse(message.data);
  document.querySelector('.now')?.classList.remove('now');
  const row = document.getElementById('row-' + (turn % 200));
  row.classList.add('now');
  row.textContent = (turn % 200 + 1) + '. Goblin ' + (turn % 200 + 1) + ' (acting, turn ' + turn + ')';
  document.getElementById('strip').textContent = 'Round ' + round + ' · Now acting: Goblin ' + (turn % 200 + 1);
};
addEventListener('keydown', (event) => {
  if (event.key !== 'n' || socket.readyState !== WebSocket.OPEN) return;
  asked += 1;
  socket.send(JSON.stringify({ id: asked, name: 'encounters:append', input: { event: { type: 'END_TURN' } } }));
});`;
const ROUND_TRIP = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Round trip</title>
<style>li { padding: 0.3rem; font-size: 1.4rem; } li.now { font-size: 1.8rem; outline: 2px solid; }</style></head>
<body><p id="strip">Round 1</p><ol>${rows}</ol><script src="/roundtrip.js"></script></body></html>`;

const pages = {
  '/plain.html': ['text/html', PLAIN],
  '/rows.html': ['text/html', ROWS],
  '/roundtrip.html': ['text/html', ROUND_TRIP],
  '/roundtrip.js': ['text/javascript', ROUND_TRIP_SCRIPT],
};
const server = createServer((req, res) => {
  const page = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
  if (!page) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': `${page[0]}; charset=utf-8`, 'Cache-Control': 'no-store' });
  res.end(page[1]);
});

// The socket answers each call with the next turn: the reply the page needs, nothing stored.
let turn = 0;
const sockets = new WebSocketServer({ server, path: '/socket' });
sockets.on('connection', (socket) => {
  socket.on('message', (data) => {
    const { id } = JSON.parse(String(data));
    turn += 1;
    socket.send(JSON.stringify({ id, turn, round: 1 + Math.floor(turn / 200) }));
  });
});

server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/`));
process.on('SIGTERM', () => {
  for (const client of sockets.clients) client.terminate();
  server.close(() => process.exit(0));
});
