import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, TS_REGISTER } from './generate';

/**
 * `scripts/ts-register.js`, which `npm start`, the bench and the tests' child processes run TypeScript with: the
 * second run of a file loads no compiler, errors point into the `.ts` source, and output unused for 30 days goes.
 */

let dir: string;
beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenstack-api-ts-register-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(file: string): { status: number | null; stdout: string; stderr: string } {
    const probe = `require(${JSON.stringify(file)}); console.log('typescript loaded: ' + Object.keys(require.cache).some((f) => f.endsWith('/typescript/lib/typescript.js')));`;
    return spawnSync(process.execPath, ['-r', TS_REGISTER, '-e', probe], { cwd: PROJECT_ROOT, encoding: 'utf8' });
}

it('transpiles a file once, then runs the kept output without loading TypeScript', () => {
    const file = path.join(dir, 'enum-and-decorator.ts');
    // unique text: never kept by an earlier run
    fs.writeFileSync(
        file,
        `// ${randomBytes(8).toString('hex')}
enum Color { Red = 'red', Blue = 'blue' }
const seen: string[] = [];
function mark(_target: object, key: string): void { seen.push(key); }
class Box { @mark size(): number { return 1; } }
console.log(Color.Blue, seen.join(','), new Box().size());
`,
    );
    const first = run(file);
    expect(first.stderr).toBe('');
    expect(first.stdout.trim().split('\n')).toEqual(['blue size 1', 'typescript loaded: true']);
    const second = run(file);
    expect(second.stdout.trim().split('\n')).toEqual(['blue size 1', 'typescript loaded: false']);
});

it('reports an error at its line in the .ts file', () => {
    const file = path.join(dir, 'throws.ts');
    fs.writeFileSync(file, `// ${randomBytes(8).toString('hex')}\ninterface Shape { sides: number }\nconst s: Shape = { sides: 3 };\n\nthrow new Error('thrown with ' + s.sides);\n`);
    const result = run(file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Error: thrown with 3');
    expect(result.stderr).toContain(`${file}:5:7`);
});

it('removes kept output unused for 30 days when it next transpiles a file', () => {
    const stale = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'zenstack-api', 'ts', 'zz', `stale-${randomBytes(4).toString('hex')}.js`);
    const fresh = `${stale.slice(0, -3)}-fresh.js`;
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    for (const file of [stale, fresh]) fs.writeFileSync(file, '');
    const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    fs.utimesSync(stale, longAgo, longAgo);
    const file = path.join(dir, 'new-file.ts');
    fs.writeFileSync(file, `// ${randomBytes(8).toString('hex')}\nconsole.log('ran');\n`);
    try {
        expect(run(file).stdout).toContain('ran');
        expect(fs.existsSync(stale)).toBe(false);
        expect(fs.existsSync(fresh)).toBe(true);
    } finally {
        for (const f of [stale, fresh]) fs.rmSync(f, { force: true });
    }
});
