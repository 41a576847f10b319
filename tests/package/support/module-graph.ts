import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The packages a published file reaches: it and the package's files it imports, transitively (relative
 * specifiers), read as text. For `.js` files the `require('…')` calls (lazy ones inside functions too), for
 * `.d.ts` files the `from '…'`, `import('…')` and `/// <reference types>` specifiers.
 */

const JS_IMPORT = /\brequire\((['"])([^'"]+)\1\)/g;
const DTS_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|<reference\s+types=)(['"])([^'"]+)\1/g;

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for a Node.js built-in module. */
export function packageOf(specifier: string): string | undefined {
    if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return undefined;
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveRelative(from: string, specifier: string, extension: '.js' | '.d.ts'): string {
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
    const candidates = [`${base}${extension}`, path.join(base, `index${extension}`)];
    const found = candidates.find((file) => fs.existsSync(file));
    if (!found) throw new Error(`${from} imports ${specifier}, which is not in the package`);
    return found;
}

/** The packages (by name) the files reachable from `entry` import, each with one file importing it. */
export function packagesReached(entry: string): Map<string, string> {
    const extension = entry.endsWith('.d.ts') ? '.d.ts' : '.js';
    const pattern = extension === '.d.ts' ? DTS_IMPORT : JS_IMPORT;
    const reached = new Map<string, string>();
    const seen = new Set<string>();
    const queue = [entry];
    while (queue.length > 0) {
        const file = queue.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        for (const match of fs.readFileSync(file, 'utf8').matchAll(pattern)) {
            const specifier = match[2];
            if (specifier.startsWith('.')) {
                queue.push(resolveRelative(file, specifier, extension));
                continue;
            }
            const name = packageOf(specifier);
            if (name && !reached.has(name)) reached.set(name, file);
        }
    }
    return reached;
}
