import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, TS_REGISTER } from '../support/generate';

/**
 * `zodSchemas: true` in an application where `zenstack generate` has not written the zod schemas: the
 * adapter must fail at start-up, not serve without the validation it was asked for. The application is
 * real: a folder whose node_modules links every installed package except ZenStack's generated output
 * (`.zenstack`), run with --preserve-symlinks so that ZenStack's runtime looks for it there.
 */

let app: string;

beforeAll(() => {
    app = fs.mkdtempSync(path.join(os.tmpdir(), 'zenstack-api-no-zod-'));
    fs.mkdirSync(path.join(app, 'node_modules'));
    const modules = path.join(PROJECT_ROOT, 'node_modules');
    for (const entry of fs.readdirSync(modules)) {
        if (entry !== '.zenstack') fs.symlinkSync(path.join(modules, entry), path.join(app, 'node_modules', entry));
    }
    for (const entry of ['src', 'tsconfig.json']) fs.symlinkSync(path.join(PROJECT_ROOT, entry), path.join(app, entry));
});

afterAll(() => {
    fs.rmSync(app, { recursive: true, force: true });
});

/** Runs `script` in that application; what it prints. */
function runInApp(script: string): string {
    const out = spawnSync(process.execPath, ['--preserve-symlinks', '-r', TS_REGISTER, '-e', script], { cwd: app, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`the script failed (${out.status}): ${out.stderr}`);
    return out.stdout.trim();
}

describe('zodSchemas: true without generated zod schemas', () => {
    it('Express: creating the middleware fails at start-up; without the option it is created', () => {
        const printed = runInApp(`
            const { ZenStackMiddleware } = require('./src/adapters/express');
            for (const zodSchemas of [true, false]) {
                try { ZenStackMiddleware({ zodSchemas, getPrisma: () => ({}) }); console.log(zodSchemas + ': created'); }
                catch (e) { console.log(zodSchemas + ': ' + e.message); }
            }`);
        expect(printed.split('\n')).toEqual([expect.stringMatching(/^true: ZenStackMiddleware: Unable to load zod schemas from default location/), 'false: created']);
    });

    it('Fastify: registering the plugin fails at start-up', () => {
        const printed = runInApp(`
            const Fastify = require('fastify');
            const { ZenStackFastifyPlugin } = require('./src/adapters/fastify');
            const app = Fastify();
            app.register(ZenStackFastifyPlugin, { prefix: '/api', zodSchemas: true, getPrisma: () => ({}) });
            app.ready().then(() => console.log('ready'), (e) => console.log(e.message)).finally(() => app.close());`);
        expect(printed).toMatch(/Unable to load zod schemas from default location/);
    });
});
