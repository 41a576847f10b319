import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR, PROJECT_ROOT } from './config';

/**
 * bench/RESULTS.md, docs/performance.md and the README hold hand-written prose around generated blocks
 * (`<!-- bench:NAME:start -->` … `<!-- bench:NAME:end -->`). A run replaces its block only.
 */

export const RESULTS_FILE = path.join(BENCH_DIR, 'RESULTS.md');
export const PERFORMANCE_DOC = path.join(PROJECT_ROOT, 'docs', 'performance.md');
export const README_FILE = path.join(PROJECT_ROOT, 'README.md');

const markers = (name: string) => [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`] as const;

/** Replaces the named block in `text`, or appends it when the file has none. */
export function replaceBlock(text: string, name: string, content: string): string {
    const [start, end] = markers(name);
    const block = `${start}\n${content.trim()}\n${end}`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) return `${text.trimEnd()}\n\n${block}\n`;
    return text.slice(0, from) + block + text.slice(to + end.length);
}

export function writeBlock(file: string, name: string, content: string): void {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, replaceBlock(text, name, content));
}
