import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/generate';
import { curlExamples } from './curl';
import { setupDemoDb, startDemo, type RunningDemo } from './support';

/**
 * Every `curl` example of the README and the handler docs, sent in its document's order to a freshly
 * seeded demo (one per document, as a reader would start it): none may answer a 5xx or fail, and each
 * answers the status the document shows for it. (`demo.test.ts` checks the README's answers in full.)
 */

const DOCUMENTS = ['README.md', 'docs/rpc.md', 'docs/rest-read.md', 'docs/rest-write.md'];

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
            // the demo listens on a free port; the documents say localhost:3000
            const res = await fetch(`${demo.url}${example.path}`, { method: example.method, headers: example.headers, body: example.body });
            const text = await res.text();
            const want = example.shows ?? 'not 5xx';
            const got =
                typeof want === 'number' ? res.status : want === 'not 5xx' ? (res.status < 500 ? want : res.status) : `${Math.floor(res.status / 100)}xx`;
            const line = `${example.method} ${example.path}`;
            answers.push(`${line} → ${got}${got === want ? '' : ` ${text.slice(0, 300)}`}`);
            expected.push(`${line} → ${want}`);
        }
        expect(answers).toEqual(expected);
    });
});
