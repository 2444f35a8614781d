// Runs Dominds 1.29's own compiled persistence code (npm `dominds@1.29.0`, dist/persistence.js)
// under node, for the .dialogs/ interop test (dialogs_interop_test.cjs).
//
// dist/ requires `@longrun-ai/kernel` (1.18.0), which the npm registry does not serve (404). The
// package carries that kernel's compiled modules itself, though: its web app's source map
// (webapp/dist/assets/main-*.js.map) embeds `packages/kernel/dist/**` with their sources. This
// loader compiles those modules from the map — Dominds' own code, taken from the tarball at test
// time, nothing of it committed — and resolves `@longrun-ai/kernel/<path>` to them. `yaml`, a
// dependency dominds declares, comes from this folder's npm install (tests/interop/package.json).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

function kernelSources(packageDir) {
  const assets = path.join(packageDir, 'webapp', 'dist', 'assets');
  const mapFile = fs.readdirSync(assets).find((name) => /^main-.*\.js\.map$/.test(name));
  if (!mapFile) throw new Error(`no web app source map in ${assets}`);
  const map = JSON.parse(fs.readFileSync(path.join(assets, mapFile), 'utf8'));
  const sources = new Map();
  map.sources.forEach((source, i) => {
    const at = source.indexOf('packages/kernel/dist/');
    if (at >= 0 && map.sourcesContent && typeof map.sourcesContent[i] === 'string') {
      sources.set(source.slice(at + 'packages/kernel/dist/'.length).replace(/\.js$/, ''), map.sourcesContent[i]);
    }
  });
  return sources;
}

// Installs the resolution of `@longrun-ai/kernel/*` and `yaml`; returns require() of dist/<name>.
function loadDominds(packageDir) {
  const sources = kernelSources(packageDir);
  const compiled = new Map();
  const kernelModule = (sub) => {
    const key = sub === '' ? 'index' : sub;
    if (compiled.has(key)) return compiled.get(key).exports;
    const source = sources.get(key) ?? sources.get(`${key}/index`);
    if (source === undefined) throw new Error(`@longrun-ai/kernel/${sub}: not in the package's source map`);
    const filename = path.join(packageDir, '.kernel-from-source-map', `${key}.js`);
    const mod = new Module(filename, module);
    mod.filename = filename;
    compiled.set(key, mod);
    mod._compile(source, filename);
    return mod.exports;
  };
  const yamlPath = require.resolve('yaml', { paths: [path.join(__dirname, '..')] });
  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === '@longrun-ai/kernel' || request.startsWith('@longrun-ai/kernel/')) {
      return kernelModule(request.slice('@longrun-ai/kernel/'.length));
    }
    if (request.startsWith('./') && parent && parent.filename.includes('.kernel-from-source-map')) {
      const sub = path.relative(path.join(packageDir, '.kernel-from-source-map'),
                                path.resolve(path.dirname(parent.filename), request));
      return kernelModule(sub.replace(/\.js$/, ''));
    }
    if (request === 'yaml') return originalLoad.call(this, yamlPath, parent, isMain);
    return originalLoad.call(this, request, parent, isMain);
  };
  return (name) => require(path.join(packageDir, 'dist', name));
}

module.exports = { loadDominds };
