import { generateSchema } from './generate';
import { BLOG_SCHEMA_TEXT } from './blog-text';

/** Generates the blog schema once before the workers start, for both providers. */
export default async function globalSetup(): Promise<void> {
    generateSchema(BLOG_SCHEMA_TEXT, 'sqlite');
    generateSchema(BLOG_SCHEMA_TEXT, 'postgresql');
}
