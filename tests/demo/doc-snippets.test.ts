import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../support/generate';

/**
 * Every TypeScript block of the README and the docs type-checks against this package's exports (the
 * `zenstack-api/...` paths of package.json, mapped to `src/`). The application's own pieces the blocks
 * take for granted (`prisma`, `enhance`, a session helper, a `user` on the framework's request) are
 * declared in `doc-snippets/`; a block that uses a name an earlier block of its document imported (a
 * fragment continuing it) gets that import. Packages not installed here (nestjs-cls, TanStack Router,
 * Nest's Fastify platform) get minimal stand-ins there, so the check covers what the blocks pass to us.
 */

const DOCUMENTS = ['README.md', ...fs.readdirSync(path.join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const OUT = path.join(PROJECT_ROOT, '.zenstack-test', 'doc-snippets');
const SUPPORT = path.join(__dirname, 'doc-snippets');

interface Block {
    document: string;
    line: number;
    code: string;
}

function tsBlocks(document: string): Block[] {
    const lines = fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8').split('\n');
    const blocks: Block[] = [];
    let current: { line: number; indent: number; code: string[] } | undefined;
    lines.forEach((text, i) => {
        const fence = /^(\s*)```(\w*)\s*$/.exec(text);
        if (current) {
            if (fence) {
                blocks.push({ document, line: current.line, code: current.code.join('\n') });
                current = undefined;
            } else {
                current.code.push(text.slice(current.indent));
            }
        } else if (fence && (fence[2] === 'ts' || fence[2] === 'typescript')) {
            current = { line: i + 1, indent: fence[1].length, code: [] };
        }
    });
    return blocks;
}

/** Named and default imports of a block: local name → import line bringing it in. */
function importsOf(code: string): Map<string, string> {
    const found = new Map<string, string>();
    for (const m of code.matchAll(/^import\s+(?:type\s+)?(.+?)\s+from\s+'([^']+)';?$/gm)) {
        const [, clause, from] = m;
        const named = /\{([^}]*)\}/.exec(clause);
        for (const part of named ? named[1].split(',') : []) {
            const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop();
            if (name) found.set(name, `import { ${part.trim()} } from '${from}';`);
        }
        const star = /\*\s+as\s+(\w+)/.exec(clause);
        if (star) found.set(star[1], `import * as ${star[1]} from '${from}';`);
        const def = /^(\w+)/.exec(clause);
        if (def && !star) found.set(def[1], `import ${def[1]} from '${from}';`);
    }
    return found;
}

/** `paths` for every subpath package.json exports: `zenstack-api/x` → the source behind `dist/...`. */
function packagePaths(): Record<string, string[]> {
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string }> };
    const paths: Record<string, string[]> = {};
    for (const [sub, target] of Object.entries(pkg.exports)) {
        if (!target.types) continue;
        paths[path.posix.join('zenstack-api', sub)] = [target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')];
    }
    return paths;
}

const blocks = DOCUMENTS.flatMap(tsBlocks);

describe('TypeScript blocks of the README and docs', () => {
    it('are found', () => {
        expect(blocks.length).toBeGreaterThan(20);
    });

    it('type-check against the package exports', () => {
        fs.rmSync(OUT, { recursive: true, force: true });
        fs.mkdirSync(OUT, { recursive: true });
        const files: string[] = [];
        const names = new Map<string, Block>();
        const earlier = new Map<string, Map<string, string>>();
        for (const block of blocks) {
            const seen = earlier.get(block.document) ?? new Map<string, string>();
            const own = importsOf(block.code);
            const added = [...seen].filter(([name]) => !own.has(name) && new RegExp(`\\b${name}\\b`).test(block.code) && !new RegExp(`(const|let|class|function)\\s+${name}\\b`).test(block.code));
            const file = path.join(OUT, `${block.document.replace(/\W/g, '_')}_${block.line}.ts`);
            // `export {}` keeps a block without imports a module, so blocks do not share a scope
            fs.writeFileSync(file, `${added.map(([, line]) => line).join('\n')}\n${block.code}\nexport {};\n`);
            files.push(file);
            names.set(file, block);
            for (const [name, line] of own) seen.set(name, line);
            earlier.set(block.document, seen);
        }
        const program = ts.createProgram([...files, ...fs.readdirSync(SUPPORT).map((f) => path.join(SUPPORT, f))], {
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.ESNext,
            moduleResolution: ts.ModuleResolutionKind.Node10,
            lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
            types: ['node'],
            strict: true,
            esModuleInterop: true,
            skipLibCheck: true,
            experimentalDecorators: true,
            emitDecoratorMetadata: true,
            noEmit: true,
            baseUrl: PROJECT_ROOT,
            paths: packagePaths(),
        });
        const problems = ts
            .getPreEmitDiagnostics(program)
            .filter((d) => d.file && names.has(d.file.fileName))
            .map((d) => {
                const block = names.get(d.file!.fileName)!;
                return `${block.document} (block at line ${block.line}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
            });
        expect(problems).toEqual([]);
    });
});
