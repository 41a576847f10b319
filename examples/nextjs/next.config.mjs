/** @type {import('next').NextConfig} */
const nextConfig = {
    // In this repository the example imports zenstack-api from its sources (../../src, see tsconfig.json);
    // an app using the published package needs neither of the two settings below.
    experimental: { externalDir: true },
    // The Prisma client, ZenStack's runtime (which loads the generated node_modules/.zenstack) and the
    // native SQLite driver stay plain Node modules.
    serverExternalPackages: ['@prisma/client', '@prisma/adapter-better-sqlite3', 'better-sqlite3', '@zenstackhq/runtime'],
    eslint: { ignoreDuringBuilds: true },
};

export default nextConfig;
