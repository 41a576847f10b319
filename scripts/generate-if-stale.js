// Runs `zenstack generate` for the project's schema.zmodel unless its output is already there for this very
// schema and these tool versions (`--force`: always). `npm start`, `npm test` and `npm run test:e2e` use it as it
// is, `npm run generate` with `--force`: a generation of the demo's schema costs 15-20 s of two cores, and CI
// generated three times.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const schemaFile = path.join(root, 'schema.zmodel');
const stampFile = path.join(root, 'node_modules', '.zenstack', '.generated-from');
/** What a generation leaves behind; a stamp without all of them (a tool wiped its folder) regenerates. */
const outputs = [
    'node_modules/.zenstack/enhance.js',
    'node_modules/.zenstack/model-meta.js',
    'node_modules/.zenstack/zod/index.js',
    'node_modules/.prisma/client/index.js',
    'prisma/schema.prisma',
];
/** The tools whose versions decide whether an output is stale (the test helper's cache reads the same list). */
const tools = require('./generation-tools.json');

function version(name) {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function inputsHash() {
    const hash = createHash('sha256');
    hash.update(fs.readFileSync(schemaFile));
    for (const name of tools) hash.update(`\n${name}@${version(name)}`);
    return hash.digest('hex');
}

const wanted = inputsHash();
const fresh =
    !process.argv.includes('--force') &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, 'utf8').trim() === wanted &&
    outputs.every((file) => fs.existsSync(path.join(root, file)));

if (fresh) {
    console.log('ZenStack and Prisma output is up to date with schema.zmodel (`npm run generate` regenerates it)');
} else {
    fs.rmSync(stampFile, { force: true });
    execFileSync(process.execPath, [path.join(root, 'node_modules/zenstack/bin/cli'), 'generate', '--schema', schemaFile], {
        cwd: root,
        stdio: 'inherit',
    });
    fs.writeFileSync(stampFile, `${wanted}\n`);
}
