import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/generate';
import { curlExamples, type CurlExample } from './curl';
import { differences, parseShown, type PerRun } from './shown-json';
import { setupDemoDb, startDemo, type RunningDemo } from './support';

/**
 * Every `curl` example of the README and the handler docs, sent in its document's order to a freshly
 * seeded demo (one per document, as a reader would start it): none may answer a 5xx or fail, each answers
 * the status the document shows for it, and the JSON and headers the document shows right after it (read
 * as `shown-json.ts` says: `…` abbreviates, everything shown must be true).
 */

const DOCUMENTS = ['README.md', 'docs/rpc.md', 'docs/rest-read.md', 'docs/rest-write.md'];
/** The host the documents write; the demo listens on a free port. */
const DOC_ORIGIN = 'http://localhost:3000';
/**
 * Values no document can know: `Post.createdAt` (`@default(now())` in schema.zmodel) is the time the seed or
 * an example created the post. A document may show a sample time there (the README does), or `…`.
 */
const PER_RUN: PerRun = { createdAt: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/ };

function statusProblem(example: CurlExample, status: number): string | undefined {
    const want = example.shows ?? 'not 5xx';
    const got = typeof want === 'number' ? status : want === 'not 5xx' ? (status < 500 ? want : status) : `${Math.floor(status / 100)}xx`;
    return got === want ? undefined : `status: shown ${want}, answered ${status}`;
}

/** Where the answer differs from what the document shows after the command. */
function answerProblems(example: CurlExample, origin: string, res: Response, text: string): string[] {
    const local = (shown: string) => shown.split(DOC_ORIGIN).join(origin);
    const problems: string[] = [];
    for (const [name, shown] of Object.entries(example.shownHeaders)) {
        if (res.headers.get(name) !== local(shown)) problems.push(`header ${name}: shown ${shown}, answered ${res.headers.get(name)}`);
    }
    if (example.answer !== undefined) {
        let answer: unknown;
        try {
            answer = JSON.parse(text);
        } catch {
            return [...problems, `body: shown JSON, answered ${text.slice(0, 200) || 'nothing'}`];
        }
        problems.push(...differences(parseShown(local(example.answer)), answer, PER_RUN).map((d) => `body ${d}`));
    }
    return problems;
}

describe.each(DOCUMENTS)('the curl examples of %s', (document) => {
    const examples = curlExamples(fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8'));
    const dbFile = path.join(PROJECT_ROOT, '.zenstack-test', 'db', `doc-${randomBytes(6).toString('hex')}.db`);
    let demo: RunningDemo;

    beforeAll(async () => {
        fs.mkdirSync(path.dirname(dbFile), { recursive: true });
        expect((await setupDemoDb({ DEMO_DB: dbFile })).status).toBe(0);
        demo = await startDemo({ DEMO_DB: dbFile });
    });

    afterAll(async () => {
        await demo?.stop();
        for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
    });

    it('has examples', () => {
        expect(examples.length).toBeGreaterThan(5);
    });

    it('answers each as the document shows, in order', async () => {
        const answers: string[] = [];
        const expected: string[] = [];
        for (const example of examples) {
            const res = await fetch(`${demo.url}${example.path}`, { method: example.method, headers: example.headers, body: example.body });
            const text = await res.text();
            const problem = statusProblem(example, res.status);
            const problems = [...(problem ? [`${problem} ${text.slice(0, 300)}`] : []), ...answerProblems(example, demo.url, res, text)];
            const line = `${example.method} ${example.path}`;
            answers.push(`${line} → ${problems.length ? problems.join('\n    ') : 'as shown'}`);
            expected.push(`${line} → as shown`);
        }
        expect(answers).toEqual(expected);
    });
});
