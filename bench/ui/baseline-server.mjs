// The browser's floor for the UI benchmarks: a bare static server (run as its own process, so its start can be
// timed from spawn like web mode's) with two pages: /plain.html (a heading and a paragraph) and /rows.html (200
// rows; pressing N changes one row's text directly in the keydown handler, with no framework and no request).
import { createServer } from 'node:http';

const PLAIN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title></head>
<body><h1>Campaigns</h1><p>A plain static page.</p></body></html>`;

const rows = Array.from({ length: 200 }, (_, i) => `<li id="row-${i}">${i + 1}. Goblin ${i + 1}</li>`).join('');
const SCRIPT = `let turn = 0;
addEventListener('keydown', (event) => {
  if (event.key !== 'n') return;
  turn += 1;
  document.getElementById('row-' + (turn % 200)).textContent = 'Now acting: turn ' + turn;
});`;
const ROWS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rows</title></head>
<body><ol>${rows}</ol><script src="/rows.js"></script></body></html>`;

const pages = { '/plain.html': ['text/html', PLAIN], '/rows.html': ['text/html', ROWS], '/rows.js': ['text/javascript', SCRIPT] };
const server = createServer((req, res) => {
  const page = pages[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
  if (!page) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': `${page[0]}; charset=utf-8`, 'Cache-Control': 'no-store' });
  res.end(page[1]);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
