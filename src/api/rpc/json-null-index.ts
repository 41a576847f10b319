import type { JsonNullSlot } from './input';

/**
 * The Json null markers of the arguments, found by the place they lie at or under. Restoring referentialEqualities
 * copies a value (and the markers under it) to each repeated place: looking the markers up by scanning every slot
 * for each place cost the number of slots once per place (quadratic: 30,000 places sharing one row of a createMany
 * took 30 s of CPU).
 */
export class JsonNullIndex {
    private readonly byPlace = new Map<string, JsonNullSlot[]>();

    constructor(readonly slots: JsonNullSlot[]) {
        for (const slot of slots) this.register(slot);
    }

    /** Lists a slot; it is found under its own path and under each path it lies below. */
    add(slot: JsonNullSlot): void {
        this.slots.push(slot);
        this.register(slot);
    }

    /** The slots at `path` or under it. */
    under(path: string): readonly JsonNullSlot[] {
        return this.byPlace.get(path) ?? [];
    }

    private register(slot: JsonNullSlot): void {
        for (const place of placesOf(slot.path)) {
            const list = this.byPlace.get(place);
            if (list) list.push(slot);
            else this.byPlace.set(place, [slot]);
        }
    }
}

/** A dotted path and each path above it (`a.b.c` → `a`, `a.b`, `a.b.c`); an escaped dot (`a\.b`) does not divide. */
function placesOf(path: string): string[] {
    const out: string[] = [];
    for (let i = 0; i < path.length; i++) {
        if (path[i] === '\\' && path[i + 1] === '.') i++;
        else if (path[i] === '.') out.push(path.slice(0, i));
    }
    out.push(path);
    return out;
}
