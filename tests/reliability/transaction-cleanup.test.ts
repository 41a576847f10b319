import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { withTransactionCleanup } from '../../src';
import { loadSchema } from '../support/schema';

/** The wrapper changes nothing but failed COMMIT/ROLLBACK handling (those are in the fault tests). */
describe('withTransactionCleanup', () => {
    it('keeps what Prisma reads from the factory and refuses what is not one', () => {
        const factory = new PrismaBetterSQLite3({ url: 'file::memory:' });
        const wrapped = withTransactionCleanup(factory);
        expect([wrapped.provider, wrapped.adapterName]).toEqual([factory.provider, factory.adapterName]);
        expect(() => withTransactionCleanup({} as never)).toThrow(TypeError);
    });

    it('commits and rolls back interactive transactions as before', async () => {
        const s = await loadSchema();
        const client = s.createClient(withTransactionCleanup(new PrismaBetterSQLite3({ url: s.databaseUrl })));
        try {
            await client.$transaction(async (tx: typeof client) => {
                await tx.user.create({ data: { email: 'kept@cleanup.test' } });
            });
            await expect(
                client.$transaction(async (tx: typeof client) => {
                    await tx.user.create({ data: { email: 'dropped@cleanup.test' } });
                    throw new Error('abort');
                }),
            ).rejects.toThrow('abort');
            await client.user.create({ data: { email: 'after@cleanup.test' } });
            const emails = (await s.prisma.user.findMany({ orderBy: { id: 'asc' } })).map((u: { email: string }) => u.email);
            expect(emails).toEqual(['kept@cleanup.test', 'after@cleanup.test']);
        } finally {
            await client.$disconnect();
            await s.cleanup();
        }
    });
});
