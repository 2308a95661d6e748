import { measureSizes } from './size/measure-size.js';
for (const r of await measureSizes()) console.log(r.id, r.gzipBytes, r.gzipBytesWithPeers, r.budgetGzip, r.ceilingWithPeersGzip, r.pass);
