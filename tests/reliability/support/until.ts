/** Polls until `check` holds (a condition of the database, never a duration); fails after many tries, `pause` ms apart. */
export async function until(what: string, check: () => Promise<boolean>, pause = 10): Promise<void> {
    for (let i = 0; i < 500; i++) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, pause));
    }
    throw new Error(`gave up waiting until ${what}`);
}
