import { RestApiHandler } from '../../src/api/rest';

/** Options are validated once, when the handler is created, with a clear message. */
describe('RestApiHandler options', () => {
    it.each([
        [undefined, /"endpoint" option is required/],
        [{}, /"endpoint" option is required/],
        [{ endpoint: '' }, /"endpoint" option is required/],
        [{ endpoint: '/api' }, /"endpoint" must be an absolute URL/],
        [{ endpoint: 'ftp://example.com/api' }, /must be an http\(s\) URL/],
        [{ endpoint: 'http://x/api', pageSize: 0 }, /"pageSize" must be a positive integer or Infinity/],
        [{ endpoint: 'http://x/api', pageSize: 2.5 }, /"pageSize"/],
        [{ endpoint: 'http://x/api', maxPageSize: -1 }, /"maxPageSize"/],
        [{ endpoint: 'http://x/api', pageSize: 50, maxPageSize: 10 }, /"pageSize" \(50\) must not exceed "maxPageSize" \(10\)/],
        [{ endpoint: 'http://x/api', maxPageSize: Infinity }, /"maxPageSize" must be a positive integer/],
        [{ endpoint: 'http://x/api', maxIncludeDepth: 0 }, /"maxIncludeDepth"/],
        [{ endpoint: 'http://x/api', maxIncludedRecords: 0 }, /"maxIncludedRecords" must be a positive integer or Infinity/],
        [{ endpoint: 'http://x/api', maxIncludedRecords: 1.5 }, /"maxIncludedRecords"/],
        [{ endpoint: 'http://x/api', idDivider: '' }, /"idDivider"/],
        [{ endpoint: 'http://x/api', idDivider: '/' }, /"idDivider"/],
        [{ endpoint: 'http://x/api', idDivider: '%' }, /"idDivider"/],
        [{ endpoint: 'http://x/api', modelNameMapping: 'users' }, /"modelNameMapping" must be an object/],
        [{ endpoint: 'http://x/api', modelNameMapping: { User: 5 } }, /"modelNameMapping.User" must be a non-empty string/],
    ])('%j is refused at creation', (options, message) => {
        expect(() => RestApiHandler(options as never)).toThrow(message);
    });

    it.each([
        { endpoint: 'http://x/api' },
        { endpoint: 'https://x/api/', pageSize: Infinity },
        { endpoint: 'http://x', pageSize: 5, idDivider: '~' },
        { endpoint: 'http://x', maxIncludedRecords: Infinity },
        { endpoint: 'http://x', maxIncludedRecords: 1 },
        // as @zenstackhq/server 2.x: a null mapping is no mapping
        { endpoint: 'http://x', modelNameMapping: null, externalIdMapping: null } as never,
        { endpoint: 'http://x', modelNameMapping: { User: 'users' }, externalIdMapping: { User: 'email' }, urlSegmentCharset: 'a-z0-9@.%' },
    ])(
        '%j is accepted',
        (options) => {
            expect(typeof RestApiHandler(options)).toBe('function');
        },
    );
});
