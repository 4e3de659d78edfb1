import { build } from 'esbuild';
const r = await build({ entryPoints: { cli: 'src/cli/entry.ts' }, outdir: '/tmp/h8/out', chunkNames: 'chunks/[name]-[hash]', splitting: true, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', metafile: true, write: false, logLevel: 'error' });
const m = r.metafile;
// static closure from entry
const outs = m.outputs;
const entry = Object.keys(outs).find(k => k.endsWith('cli.js'));
const seen = new Set(); const stack=[entry];
while (stack.length) { const o = stack.pop(); if (seen.has(o)) continue; seen.add(o); for (const i of outs[o].imports) if (i.kind==='import-statement' && outs[i.path]) stack.push(i.path); }
const ext = new Set(); let bytes=0; const inputs=[];
for (const o of seen) { bytes+=outs[o].bytes; for (const i of outs[o].imports) if (i.external && i.kind==='import-statement') ext.add(i.path); for (const k of Object.keys(outs[o].inputs)) inputs.push(k); }
console.log('static bytes', bytes, [...ext].join(' '));
console.log(inputs.filter(x=>x.startsWith('src')).sort().join('\n'));
console.log('---outputs'); for (const [k,v] of Object.entries(outs)) if (!k.endsWith('.map')) console.log(k, v.bytes, v.entryPoint??'', Object.keys(v.inputs).filter(x=>x.includes('main.ts')).join());
{
const mainOut = Object.keys(outs).find(k => outs[k].entryPoint === 'src/cli/main.ts');
const seen2=new Set(); const st=[mainOut];
while (st.length) { const o=st.pop(); if (seen2.has(o)) continue; seen2.add(o); for (const i of outs[o].imports) if (i.kind==='import-statement' && outs[i.path]) st.push(i.path); }
const ext2=new Set(); let b=0; const ins=[];
for (const o of seen2){ b+=outs[o].bytes; for (const i of outs[o].imports) if (i.external && i.kind==='import-statement') ext2.add(i.path); for (const k of Object.keys(outs[o].inputs)) ins.push(k);}
console.log('MAIN static bytes', b, [...ext2].filter(x=>!x.startsWith('node:')).join(' '));
console.log(ins.filter(x=>x.startsWith('src')).sort().join('\n'));
}
