import { ConnectionGate } from '../../src/driver/connection-gate';

/** The order in which the gate hands out the connection (no database: the gate is plain logic). */
describe('ConnectionGate', () => {
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    it('runs statements at once while no transaction holds or waits for the connection', async () => {
        const gate = new ConnectionGate();
        const ran: string[] = [];
        const a = gate.statement(async () => ran.push('a'));
        const b = gate.statement(async () => ran.push('b'));
        // synchronously: neither waited for a turn
        expect(ran).toEqual(['a', 'b']);
        await Promise.all([a, b]);
    });

    it('queues statements behind an open transaction, and lets them run before the next transaction', async () => {
        const gate = new ConnectionGate();
        const events: string[] = [];
        await gate.acquire();
        events.push('tx1 holds');
        const s1 = gate.statement(async () => events.push('s1'));
        const tx2 = gate.acquire().then(() => events.push('tx2 holds'));
        const s2 = gate.statement(async () => events.push('s2'));
        await settle();
        expect(events).toEqual(['tx1 holds']);

        gate.release();
        await Promise.all([s1, tx2]);
        await settle();
        // s1 came before tx2 and runs; s2 came after tx2 and waits for it
        expect(events).toEqual(['tx1 holds', 's1', 'tx2 holds']);

        gate.release();
        await s2;
        expect(events).toEqual(['tx1 holds', 's1', 'tx2 holds', 's2']);
        // free again: the next statement runs at once
        const ran: string[] = [];
        const s3 = gate.statement(async () => ran.push('s3'));
        expect(ran).toEqual(['s3']);
        await s3;
    });

    it('passes a statement failure to its caller and keeps the order for the others', async () => {
        const gate = new ConnectionGate();
        await gate.acquire();
        const failing = gate.statement(async () => {
            throw new Error('constraint');
        });
        const next = gate.statement(async () => 'ok');
        gate.release();
        await expect(failing).rejects.toThrow('constraint');
        await expect(next).resolves.toBe('ok');
    });
});
