import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/generate';

/**
 * Every relative link of the README and the docs points at a file that exists and, with a `#fragment`,
 * at a heading of that file, by the anchor GitHub makes of it (lower case, punctuation dropped, spaces as
 * hyphens, `-1`, `-2` … for repeats). Headings and links inside fenced code blocks do not count.
 */

const DOCUMENTS = ['README.md', ...fs.readdirSync(path.join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'bench/RESULTS.md'];

/** The lines of a Markdown file outside fenced code blocks. */
function proseLines(text: string): string[] {
    let fenced = false;
    return text.split('\n').filter((line) => {
        if (/^\s*(```|~~~)/.test(line)) {
            fenced = !fenced;
            return false;
        }
        return !fenced;
    });
}

/** The anchors GitHub gives the headings of a Markdown file. */
function anchors(text: string): Set<string> {
    const seen = new Map<string, number>();
    const result = new Set<string>();
    for (const line of proseLines(text)) {
        const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
        if (!heading) continue;
        const base = heading[1]
            .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
            .toLowerCase()
            .replace(/[^\p{L}\p{N}\s_-]/gu, '')
            .replace(/\s/g, '-');
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        result.add(count === 0 ? base : `${base}-${count}`);
    }
    return result;
}

/** Relative link targets of a Markdown file (inline links, not inside code spans or blocks). */
function links(text: string): string[] {
    const found: string[] = [];
    for (const line of proseLines(text)) {
        const prose = line.replace(/`[^`]*`/g, '');
        for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
            const target = match[1];
            if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) found.push(target);
        }
    }
    return found;
}

describe.each(DOCUMENTS)('the links of %s', (document) => {
    const text = fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8');

    it('reach an existing file and heading', () => {
        const broken: string[] = [];
        for (const target of links(text)) {
            const [file, fragment] = target.split('#');
            const resolved = file ? path.resolve(path.dirname(path.join(PROJECT_ROOT, document)), decodeURIComponent(file)) : path.join(PROJECT_ROOT, document);
            if (!fs.existsSync(resolved)) {
                broken.push(`${target}: no such file`);
                continue;
            }
            if (fragment !== undefined && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(fragment)) {
                broken.push(`${target}: no such heading`);
            }
        }
        expect(broken).toEqual([]);
    });
});

/** Repository paths the prose names in code spans (`tests/...`, `src/api/...`), not paths of an application's own. */
function repositoryPaths(text: string): string[] {
    const found = new Set<string>();
    for (const line of proseLines(text)) {
        for (const match of line.matchAll(/`((?:tests|scripts|docs|examples|bench|\.ci|src\/(?:api|adapters|server))\/[^`\s<>*]*)`/g)) {
            if (!match[1].startsWith('bench/.data/')) found.add(match[1]);
        }
    }
    return [...found];
}

describe.each(DOCUMENTS)('the names of %s', (document) => {
    const text = fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8');

    it('name repository files that exist', () => {
        expect(repositoryPaths(text).filter((p) => !fs.existsSync(path.join(PROJECT_ROOT, p)))).toEqual([]);
    });

    it('name npm scripts that package.json defines', () => {
        const scripts = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
        const named = [...text.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]);
        expect(named.filter((name) => !(name in scripts))).toEqual([]);
    });
});

/** Rows of a table that a blank line cuts off from it (GitHub ends a table at a blank line: they show as `|` text). */
function cutTableRows(text: string): string[] {
    const lines = proseLines(text);
    const cut: string[] = [];
    for (let i = 2; i < lines.length; i++) {
        if (lines[i].startsWith('|') && lines[i - 1].trim() === '' && lines[i - 2].startsWith('|') && !/^\|[\s|:-]+\|$/.test(lines[i + 1] ?? '')) {
            cut.push(lines[i].slice(0, 60));
        }
    }
    return cut;
}

describe.each(DOCUMENTS)('the tables of %s', (document) => {
    it('are not cut by blank lines', () => {
        expect(cutTableRows(fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8'))).toEqual([]);
    });
});
