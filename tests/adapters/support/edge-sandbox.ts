import { build, type Plugin } from 'esbuild';
import vm from 'node:vm';
import { PROJECT_ROOT } from '../../support/generate';

/**
 * Runs the project's sources the way an edge runtime (Vercel Edge, Cloudflare Workers, Deno Deploy) would:
 * bundled by esbuild for a web platform (the `edge-light`/`workerd`/`worker` export conditions, no Node
 * built-in module resolvable: importing `node:*` fails the build, as it does for those targets), then
 * evaluated in a scope where only web-standard globals exist. Every other global of this Node process
 * (`Buffer`, `process`, `setImmediate`, `global` …) and the CommonJS names (`require`, `module`, `exports`,
 * `__dirname`, `__filename`) are shadowed as `undefined`, and `globalThis`/`self` hide them too.
 *
 * The bundle shares this realm's built-ins (Object, Date, Uint8Array …) with the test: the Prisma client and
 * ZenStack's enhancer stay outside (a real edge app bundles them too; here they run on Node, so that the
 * SQLite database is reachable), and values cross without realm mismatches.
 */

/** The web platform's globals (WinterCG's common minimum, which every edge runtime provides), besides ECMAScript's own. */
const WEB_GLOBALS = [
    'AbortController', 'AbortSignal', 'Blob', 'ByteLengthQueuingStrategy', 'CompressionStream', 'CountQueuingStrategy',
    'Crypto', 'CryptoKey', 'DecompressionStream', 'DOMException', 'Event', 'EventTarget', 'File', 'FormData', 'Headers',
    'ReadableByteStreamController', 'ReadableStream', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
    'ReadableStreamDefaultController', 'ReadableStreamDefaultReader', 'Request', 'Response', 'SubtleCrypto', 'TextDecoder',
    'TextDecoderStream', 'TextEncoder', 'TextEncoderStream', 'TransformStream', 'TransformStreamDefaultController', 'URL',
    'URLSearchParams', 'WebAssembly', 'WritableStream', 'WritableStreamDefaultController', 'WritableStreamDefaultWriter',
    'atob', 'btoa', 'clearInterval', 'clearTimeout', 'console', 'crypto', 'fetch', 'navigator', 'performance',
    'queueMicrotask', 'setInterval', 'setTimeout', 'structuredClone',
];

/** Names a module sees in CommonJS (and so under ts-jest) that no edge runtime has. */
const COMMONJS_NAMES = ['require', 'module', 'exports', '__filename', '__dirname'];

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The globals of this process that an edge runtime lacks: those neither ECMAScript's (a fresh context's) nor the web's. */
function nodeOnlyGlobals(): string[] {
    const standard = new Set<string>([...vm.runInNewContext('Object.getOwnPropertyNames(globalThis)'), ...WEB_GLOBALS, 'globalThis', 'self']);
    const own = Object.getOwnPropertyNames(globalThis).filter((name) => !standard.has(name) && IDENTIFIER.test(name) && name !== 'eval' && name !== 'arguments');
    return [...new Set([...own, 'Buffer', 'process', 'global', 'setImmediate', 'clearImmediate', ...COMMONJS_NAMES])];
}

/** `globalThis` as the bundle sees it: the web globals, none of the hidden ones. */
function webGlobalThis(hidden: Set<string>): typeof globalThis {
    return new Proxy(globalThis, {
        get: (target, key) => (typeof key === 'string' && hidden.has(key) ? undefined : Reflect.get(target, key)),
        has: (target, key) => !(typeof key === 'string' && hidden.has(key)) && Reflect.has(target, key),
        getOwnPropertyDescriptor: (target, key) => (typeof key === 'string' && hidden.has(key) ? undefined : Reflect.getOwnPropertyDescriptor(target, key)),
        ownKeys: (target) => Reflect.ownKeys(target).filter((key) => !(typeof key === 'string' && hidden.has(key))),
    });
}

/** Resolves the listed packages to values handed in from the test (a framework, the app's `@prisma/client`). */
function hostModules(names: string[]): Plugin {
    const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
    return {
        name: 'host-modules',
        setup(b) {
            b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'host' }));
            b.onLoad({ filter: /.*/, namespace: 'host' }, (args) => ({ contents: `module.exports = __edgeHost[${JSON.stringify(args.path)}];`, loader: 'js' }));
        },
    };
}

/**
 * Bundles `source` (an ES module whose relative imports start at the project root) for a web platform and
 * evaluates it without Node's globals; returns its exports. `host` supplies the packages a real edge app would
 * bundle alongside (frameworks, its Prisma client), resolved to the given values.
 */
export async function loadOnEdge<T>(source: string, host: Record<string, unknown> = {}): Promise<T> {
    const result = await build({
        stdin: { contents: source, resolveDir: PROJECT_ROOT, loader: 'ts', sourcefile: 'edge-entry.ts' },
        bundle: true,
        write: false,
        platform: 'browser',
        conditions: ['edge-light', 'workerd', 'worker'],
        format: 'iife',
        globalName: '__edgeExports',
        logLevel: 'silent',
        plugins: [hostModules(Object.keys(host))],
    });
    const code = result.outputFiles[0].text;
    const hidden = nodeOnlyGlobals();
    const web = webGlobalThis(new Set(hidden));
    const run = new Function(...hidden, '__edgeHost', 'globalThis', 'self', `${code}\nreturn __edgeExports;`);
    return run(...hidden.map(() => undefined), host, web, web) as T;
}
