import { IndexedPaths } from '../../src/api/common/path-names';

/** The table of recurring serialization paths gives the same text as building it, within and past its bounds. */
describe('IndexedPaths', () => {
    it('answers prefix + index + suffix, the same string each time within its bounds', () => {
        const paths = new IndexedPaths();
        expect(paths.get('data.', 7, '.attributes.createdAt')).toBe('data.7.attributes.createdAt');
        expect(paths.get('', 0, '.at')).toBe('0.at');
        // filled up to the index asked for, earlier ones included
        expect(paths.get('', 3, '.at')).toBe('3.at');
        expect(paths.get('', 2, '.at')).toBe('2.at');
        expect(paths.get('', 999, '.at')).toBe('999.at');
        expect(paths.get('included.', 999, '.attributes.createdAt')).toBe('included.999.attributes.createdAt');
        expect(paths.size).toBe(8 + 1000 + 1000);
    });

    it('builds what it does not keep: large, negative or fractional indexes, and everything once it is full', () => {
        const paths = new IndexedPaths();
        expect(paths.get('', 1000, '.at')).toBe('1000.at');
        expect(paths.get('', 123456, '.at')).toBe('123456.at');
        expect(paths.get('x.', -1, '.y')).toBe('x.-1.y');
        expect(paths.get('x.', 1.5, '.y')).toBe('x.1.5.y');
        // 1,000 paths per suffix: the table is full after 50 of them, the answers stay right
        for (let i = 0; i < 80; i++) expect(paths.get(`p${i % 7}.`, 999, `.f${i}`)).toBe(`p${i % 7}.999.f${i}`);
        expect(paths.size).toBe(50_000);
        expect(paths.get('p0.', 5, '.f0')).toBe('p0.5.f0');
        expect(paths.get('p0.', 5, '.f79')).toBe('p0.5.f79');
    });
});
