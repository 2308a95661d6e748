import { measureSizes } from './size/measure-size.js';
const f = (await measureSizes())[0]!;
console.log(f.label, f.gzipBytes);
for (const i of f.largestInputs) console.log(String(i.bytes).padStart(8), i.path);
