// Baseline for `npm run bench`: the cheapest possible JSON server. For each
// request target the benchmark loads it answers the bytes the API answers that
// target (read once from disk), as a static file server holding them as files
// would, minus disk I/O.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = new Map(Object.entries(JSON.parse(readFileSync(process.env.BODIES, 'utf8'))).map(([k, v]) => [k, Buffer.from(v)]));
createServer((req, res) => {
  const body = bodies.get(req.url);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
