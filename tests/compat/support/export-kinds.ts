/**
 * Prints, as one JSON line, the names and kinds (`typeof`) of what each module exports:
 * `node -r scripts/ts-register.js export-kinds.ts <module> …`. Run as a plain Node process,
 * because jest's module loader cannot load ES-module packages (Nest 12) that Node 20.19+ itself requires.
 */
/** A module's exports by name, with their kinds, or the first line of the error loading it threw. */
export type ExportKinds = { exports: Record<string, string> } | { error: string };

const kinds: Record<string, ExportKinds> = {};
for (const id of process.argv.slice(2)) {
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(id) as Record<string, unknown>;
        const names = Object.keys(mod).filter((name) => name !== '__esModule');
        kinds[id] = { exports: Object.fromEntries(names.map((name) => [name, typeof mod[name]])) };
    } catch (err) {
        kinds[id] = { error: String((err as Error)?.message ?? err).split('\n')[0] };
    }
}
process.stdout.write(`${JSON.stringify(kinds)}\n`);
