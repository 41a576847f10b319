// Makes the Prisma CLI use the WebAssembly schema engine shipped in the npm package
// instead of downloading a native binary (see ../shared/TOOLCHAIN.md).
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () => new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' }),
} as never);
