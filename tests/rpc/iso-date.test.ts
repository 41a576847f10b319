import { isoString } from '../../src/api/common/iso-date';

/** The fast ISO formatter must print exactly what Date.prototype.toISOString prints. */
describe('isoString', () => {
    const same = (ms: number) => {
        const date = new Date(ms);
        return [isoString(date), date.toISOString()];
    };

    it('matches toISOString at calendar edges', () => {
        const edges = [
            Date.UTC(1970, 0, 1),
            -1,
            Date.UTC(2000, 1, 29, 23, 59, 59, 999),
            Date.UTC(2100, 1, 28, 12),
            Date.UTC(1900, 2, 1),
            Date.UTC(2024, 11, 31, 23, 59, 59, 999),
            Date.UTC(1000, 0, 1),
            Date.UTC(1000, 0, 1) - 1,
            -62_167_219_200_000, // 0000-01-01T00:00:00.000Z, the first date of the fast path
            -62_167_219_200_001, // -000001-12-31T23:59:59.999Z: built-in
            253_402_300_799_999, // 9999-12-31T23:59:59.999Z, the last
            253_402_300_800_000, // +010000-01-01T00:00:00.000Z: built-in
            8.64e15,
            -8.64e15,
        ];
        for (const ms of edges) {
            const [ours, builtIn] = same(ms);
            expect(ours).toBe(builtIn);
        }
    });

    it('matches toISOString over the years 0000-9999 (200,000 spread instants)', () => {
        let seed = 12345;
        const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
        const span = 253_402_300_799_999 + 62_167_219_200_000;
        const mismatches: string[] = [];
        for (let i = 0; i < 200_000; i++) {
            const ms = Math.floor(-62_167_219_200_000 + next() * span);
            const [ours, builtIn] = same(ms);
            if (ours !== builtIn) mismatches.push(`${ms}: ${ours} != ${builtIn}`);
        }
        expect(mismatches).toEqual([]);
    });

    it('defers to the subclass and to the built-in error for invalid dates', () => {
        class Shifted extends Date {
            override toISOString() {
                return 'custom';
            }
        }
        expect(isoString(new Shifted(0))).toBe('custom');
        expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
    });
});
