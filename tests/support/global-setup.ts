import { generateSchemaAsync } from './generate';
import { startGenerators } from './generator-processes';
import { BLOG_SCHEMA_TEXT } from './blog-text';

/**
 * Starts a schema generator per jest worker (at most four: each holds a few hundred MB), then generates the blog
 * schema for both providers, side by side, before the workers start.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
    const count = Math.min(Math.max(globalConfig.maxWorkers, 1), 4);
    await startGenerators(count);
    await Promise.all([generateSchemaAsync(BLOG_SCHEMA_TEXT, 'sqlite', [], 0), generateSchemaAsync(BLOG_SCHEMA_TEXT, 'postgresql', [], 1)]);
}
