import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './generate';

export const BLOG_SCHEMA_TEXT = fs.readFileSync(path.join(PROJECT_ROOT, 'schema.zmodel'), 'utf8');
