import type { Handle } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { SvelteKitHandler } from 'zenstack-api/sveltekit';
import { assets, enhanced } from '$lib/server/db';

/**
 * Authentication: puts the signed-in user in `event.locals`. A stand-in that trusts an `x-user-id` header to
 * keep the example small; in an application, read the session cookie (`event.cookies`) or verify a JWT.
 */
const auth: Handle = async ({ event, resolve }) => {
    const id = Number(event.request.headers.get('x-user-id'));
    event.locals.user = Number.isInteger(id) && id > 0 ? { id } : undefined;
    return resolve(event);
};

// RPC API under /api/model: /api/model/<model>/<operation>
const api = SvelteKitHandler({ ...assets, prefix: '/api/model', getPrisma: (event) => enhanced(event.locals.user) });

export const handle = sequence(auth, api);
