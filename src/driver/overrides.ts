/** A proxy that serves `overrides` and otherwise the target's members, methods bound to the target (private fields). */
export function withOverrides<T extends object>(target: T, overrides: Record<string | symbol, unknown>): T {
    return new Proxy(target, {
        get(t, prop) {
            if (Object.prototype.hasOwnProperty.call(overrides, prop)) {
                return overrides[prop];
            }
            const value: unknown = Reflect.get(t, prop, t);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
        },
    });
}
