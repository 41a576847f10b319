import { loadSchema, type TestSchema } from '../support/schema';
import { rpcAs } from './rpc-call';

/**
 * ZenStack validates the records an update changed and names the one that failed (`entity {"id":"…"} failed
 * validation`). An `updateMany` reaches rows the user may update but not read, so that message told Bob the key of
 * Alice's private document. The 422 keeps the rule's message and leaves the record's key out.
 */

const SCHEMA = `
model User {
  id   Int   @id
  docs Doc[]
  @@allow('all', true)
}

model Doc {
  id      String @id
  owner   User   @relation(fields: [ownerId], references: [id])
  ownerId Int
  low     Int    @default(0)
  high    Int    @default(10)
  @@validate(low <= high, 'low must not exceed high')
  @@allow('read', auth().id == ownerId)
  @@allow('update', true)
  @@allow('create', true)
}
`;

let s: TestSchema;

beforeAll(async () => {
    s = await loadSchema(SCHEMA);
    await s.prisma.user.createMany({ data: [{ id: 1 }, { id: 2 }] });
    await s.prisma.doc.create({ data: { id: 'alice-private-7f3a', ownerId: 1 } });
});

afterAll(async () => {
    await s.cleanup();
});

it('a 422 after updateMany names the rule, not the key of a record the user cannot read', async () => {
    const res = await rpcAs(s, { id: 2 }, 'PUT', '/doc/updateMany', { where: {}, data: { low: 20 } });
    const { text } = res;
    expect(res.status).toBe(422);
    expect(text).toContain('low must not exceed high');
    expect(text).not.toContain('alice-private');
    expect(res.body.error.message).toMatch(/^denied by policy: doc entities failed 'postUpdate' check, failed validation: \[/);
    expect((await s.prisma.doc.findUnique({ where: { id: 'alice-private-7f3a' } })).low).toBe(0);
});
