/**
 * Generates one test schema in a process of its own: what `generate.ts` runs when no generator daemon serves its
 * test worker (outside jest, or the daemon is gone). The argument is the job, as JSON.
 */
import { runGenerateJob, type GenerateJob } from './generate-job';

runGenerateJob(JSON.parse(process.argv[2] ?? '') as GenerateJob).then(
    () => process.exit(0),
    (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exit(1);
    },
);
