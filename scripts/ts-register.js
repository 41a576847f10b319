/**
 * Runs the project's TypeScript in Node (`node -r ./scripts/ts-register.js file.ts`): what
 * `ts-node/register/transpile-only` does (each file through TypeScript's `transpileModule`, no type check: `npm run
 * typecheck` does that), with the output kept on disk under `node_modules/.cache/zenstack-api/ts`, keyed by the
 * file's text and name, tsconfig.json and the TypeScript version. A start whose files are all kept loads no
 * compiler: the demo listens in about 1.5 s instead of 4.5 s (2 cores), and the test run starts such processes
 * dozens of times. Stack traces point into the `.ts` files (inline source maps, Node's own support for them).
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'zenstack-api', 'ts');
/** Part of every key: bump it when the compile options in `load` change, so that older output is not reused. */
const FORMAT = '1';

const tsconfigText = fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8');
const tsVersion = JSON.parse(fs.readFileSync(require.resolve('typescript/package.json', { paths: [ROOT] }), 'utf8')).version;
const keyPrefix = `${FORMAT}\0${tsVersion}\0${tsconfigText}\0`;

/** Kept files unused this long go when a process next transpiles something: edits do not pile up for ever. */
const KEEP_MS = 30 * 24 * 3600 * 1000;

function prune() {
    const now = Date.now();
    let dirs = [];
    try {
        dirs = fs.readdirSync(CACHE_DIR);
    } catch {
        return;
    }
    for (const dir of dirs) {
        const full = path.join(CACHE_DIR, dir);
        try {
            for (const name of fs.readdirSync(full)) {
                const file = path.join(full, name);
                if (now - fs.statSync(file).mtimeMs > KEEP_MS) fs.rmSync(file, { force: true });
            }
        } catch {
            // another process pruned it first
        }
    }
}

let compiler;
/** TypeScript and the project's compiler options, loaded on the first file not kept (about 0.5 s). */
function load() {
    if (compiler) return compiler;
    prune();
    const ts = require(require.resolve('typescript', { paths: [ROOT] }));
    const { config, error } = ts.parseConfigFileTextToJson('tsconfig.json', tsconfigText);
    if (error) throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
    const { options, errors } = ts.convertCompilerOptionsFromJson(config.compilerOptions ?? {}, ROOT);
    if (errors.length > 0) throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(errors[0].messageText, '\n')}`);
    Object.assign(options, {
        module: ts.ModuleKind.CommonJS,
        sourceMap: false,
        inlineSourceMap: true,
        inlineSources: false,
        declaration: false,
        noEmit: false,
    });
    delete options.outDir;
    compiler = { ts, options };
    return compiler;
}

/** Marks a kept file used (for prune), at most once a day. */
function touch(file) {
    try {
        if (Date.now() - fs.statSync(file).mtimeMs > 24 * 3600 * 1000) fs.utimesSync(file, new Date(), new Date());
    } catch {
        // read-only: it is pruned when unused or not
    }
}

function transpile(source, filename) {
    // the output depends on the file's name, not its folder (the source map names the file only)
    const key = crypto.createHash('sha256').update(keyPrefix).update(path.basename(filename)).update('\0').update(source).digest('hex');
    const kept = path.join(CACHE_DIR, key.slice(0, 2), `${key.slice(2)}.js`);
    try {
        const code = fs.readFileSync(kept, 'utf8');
        touch(kept);
        return code;
    } catch {
        // not kept yet
    }
    const { ts, options } = load();
    const out = ts.transpileModule(source, { compilerOptions: options, fileName: filename, reportDiagnostics: false });
    try {
        fs.mkdirSync(path.dirname(kept), { recursive: true });
        // written whole under another name, then renamed: a process racing this one never reads half a file
        const partial = `${kept}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
        fs.writeFileSync(partial, out.outputText);
        fs.renameSync(partial, kept);
    } catch {
        // a read-only or full disk: the next start transpiles again
    }
    return out.outputText;
}

const inNodeModules = (filename) => filename.split(path.sep).includes('node_modules');

// stack traces through the inline source maps
process.setSourceMapsEnabled(true);

Module._extensions['.ts'] = function compileTs(module, filename) {
    if (inNodeModules(filename)) throw new Error(`${filename}: TypeScript inside node_modules is not compiled (publish JavaScript)`);
    module._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
};
