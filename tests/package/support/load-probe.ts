import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Loads modules the way an application does, in a plain Node.js process started in the application's directory:
 * from an `.mjs` file, by native `import()` (for a CommonJS module, Node's cjs-module-lexer decides which named
 * exports ESM code sees) and by `require` (through `createRequire`). Jest's own module loader is not involved.
 */

/** The export names of one module, or the first line of the error loading it threw. */
export type Loaded = { cjs: string[]; esm: string[] } | { error: string };

const PROBE = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const result = {};
for (const id of process.argv.slice(2)) {
    try {
        const esm = Object.keys(await import(id)).sort();
        const cjs = Object.keys(require(id)).sort();
        result[id] = { cjs, esm };
    } catch (err) {
        result[id] = { error: String(err?.message ?? err).split('\\n')[0] };
    }
}
process.stdout.write(JSON.stringify(result));
`;

/** Runs `node <file>` in `dir` with a clean module search path; throws with its stderr when it fails. */
export function runNode(dir: string, file: string, args: string[] = []): string {
    const env = { ...process.env, NODE_PATH: '', NODE_OPTIONS: '' };
    try {
        return execFileSync(process.execPath, [file, ...args], { cwd: dir, encoding: 'utf8', env, stdio: 'pipe' });
    } catch (err) {
        const { stderr, message } = err as { stderr?: string; message: string };
        throw new Error(`node ${file} failed in ${dir}:\n${stderr || message}`);
    }
}

/** What each module id exports, loaded from `dir` (an application with the modules installed). */
export function loadAll(dir: string, ids: string[]): Record<string, Loaded> {
    fs.writeFileSync(path.join(dir, 'load-probe.mjs'), PROBE);
    return JSON.parse(runNode(dir, 'load-probe.mjs', ids)) as Record<string, Loaded>;
}

/**
 * An `.mjs` file with a static named import of each given name, as application code writes it
 * (`import { RPCApiHandler } from 'zenstack-api/api'`): Node refuses to link it when one of the names is not
 * among the module's ESM exports.
 */
export function namedImportsModule(imports: Record<string, string[]>): string {
    return Object.entries(imports)
        .filter(([, names]) => names.length > 0)
        .map(([id, names], i) => `import { ${names.map((name) => `${name} as m${i}_${name}`).join(', ')} } from '${id}';`)
        .join('\n');
}
