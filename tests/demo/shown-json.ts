/**
 * The JSON a document shows as an answer, read as a pattern, and the check of a real answer against it.
 *
 * The documents abbreviate with an ellipsis (`…`, or `...`), and only in these ways, each with one meaning:
 * - a bare `…` as a value: any value (`"self":…`);
 * - `…` among an object's members: the object has other members too (`{ "type": "post", … }`, `{…}`);
 *   an object shown without one has exactly the members shown;
 * - `…` as an array's last element: more elements may follow; an array without one has exactly those shown;
 * - `…` inside a string: any run of characters there (`"…&page[limit]=1"`, `".../comment/1/post"`, `"…"`);
 * - text that ends right after an ellipsis: the containers still open are closed there (`{"data":{…}, ...`).
 * Everything else is compared exactly (member order aside), except the values `perRun` names, which a
 * document cannot know (a record's creation time): there any value of the right form stands for any other.
 */

export type Pattern =
    | { kind: 'any' }
    | { kind: 'exact'; value: null | boolean | number }
    | { kind: 'string'; parts: string[] }
    | { kind: 'object'; members: [string, Pattern][]; open: boolean }
    | { kind: 'array'; items: Pattern[]; open: boolean };

const ELLIPSIS = /…|\.\.\./;

class Reader {
    private i = 0;
    constructor(private readonly text: string) {}

    fail(what: string): never {
        throw new Error(`shown JSON: ${what} at ${this.i}: ${this.text.slice(Math.max(0, this.i - 40), this.i + 40)}`);
    }

    skip(): void {
        while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i++;
    }

    atEnd(): boolean {
        this.skip();
        return this.i >= this.text.length;
    }

    /** Consumes an ellipsis if one comes next. */
    ellipsis(): boolean {
        this.skip();
        const m = /^(?:…|\.\.\.)/.exec(this.text.slice(this.i));
        if (m) this.i += m[0].length;
        return !!m;
    }

    take(c: string): boolean {
        this.skip();
        if (this.text[this.i] !== c) return false;
        this.i++;
        return true;
    }

    string(): string {
        this.skip();
        const m = /^"(?:[^"\\]|\\.)*"/.exec(this.text.slice(this.i));
        if (!m) this.fail('a string expected');
        this.i += m[0].length;
        return JSON.parse(m[0]) as string;
    }

    /** A value; `truncated` is set when the text ended after an ellipsis inside it. */
    value(state: { truncated: boolean }): Pattern {
        if (this.ellipsis()) return { kind: 'any' };
        this.skip();
        const c = this.text[this.i];
        if (c === '{') return this.object(state);
        if (c === '[') return this.array(state);
        if (c === '"') {
            const s = this.string();
            return { kind: 'string', parts: s.split(ELLIPSIS) };
        }
        const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.i));
        if (!m) this.fail('a value expected');
        this.i += m[0].length;
        return { kind: 'exact', value: JSON.parse(m[0]) as null | boolean | number };
    }

    /** Members up to `}` (consumed), or to the end of a truncated text or of a `fragment` (members without braces). */
    members(state: { truncated: boolean }, fragment = false): { members: [string, Pattern][]; open: boolean } {
        const members: [string, Pattern][] = [];
        let open = false;
        for (let first = true; ; first = false) {
            if (fragment ? this.atEnd() : this.take('}')) return { members, open };
            if (!first && !this.take(',')) this.fail('"," or "}" expected');
            if (this.ellipsis()) {
                open = true;
                if (this.atEnd()) {
                    state.truncated = true;
                    return { members, open };
                }
                continue;
            }
            const key = this.string();
            if (!this.take(':')) this.fail('":" expected');
            members.push([key, this.value(state)]);
            // cut off inside: what follows is not shown
            if (state.truncated) return { members, open: true };
        }
    }

    object(state: { truncated: boolean }): Pattern {
        this.take('{');
        return { kind: 'object', ...this.members(state) };
    }

    array(state: { truncated: boolean }): Pattern {
        this.take('[');
        const items: Pattern[] = [];
        for (let first = true; ; first = false) {
            if (this.take(']')) return { kind: 'array', items, open: false };
            if (!first && !this.take(',')) this.fail('"," or "]" expected');
            if (this.ellipsis()) {
                if (this.atEnd()) state.truncated = true;
                else if (!this.take(']')) this.fail('an ellipsis in an array stands only for its last elements');
                return { kind: 'array', items, open: true };
            }
            items.push(this.value(state));
            if (state.truncated) return { kind: 'array', items, open: true };
        }
    }
}

/**
 * Reads the JSON a document shows. A text that starts with a member (`"links": {…}`) shows some members of
 * an object. Refuses a text that ends before its containers close, unless an ellipsis comes last.
 */
export function parseShown(text: string): Pattern {
    const reader = new Reader(text);
    const state = { truncated: false };
    let pattern: Pattern;
    if (/^\s*"(?:[^"\\]|\\.)*"\s*:/.test(text)) {
        pattern = { kind: 'object', ...reader.members(state, true), open: true };
    } else {
        pattern = reader.value(state);
    }
    if (!reader.atEnd()) reader.fail('the end expected');
    return pattern;
}

/** Values a document cannot know, by member name: a shown value of the form stands for any value of the form. */
export type PerRun = Record<string, RegExp>;

function globMatches(parts: string[], actual: string): boolean {
    const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${escaped.join('[\\s\\S]*')}$`).test(actual);
}

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 120));

/** Where `actual` differs from `pattern`: one line per difference, with its path; none when it matches. */
export function differences(pattern: Pattern, actual: unknown, perRun: PerRun = {}, path = '', key = ''): string[] {
    const at = path || '(the body)';
    switch (pattern.kind) {
        case 'any':
            return actual === undefined ? [`${at}: missing`] : [];
        case 'exact':
            return actual === pattern.value ? [] : [`${at}: shown ${show(pattern.value)}, answered ${show(actual)}`];
        case 'string': {
            if (typeof actual === 'string' && globMatches(pattern.parts, actual)) return [];
            const form = perRun[key];
            const shown = pattern.parts.join('…');
            if (form && pattern.parts.length === 1 && form.test(shown) && typeof actual === 'string' && form.test(actual)) return [];
            return [`${at}: shown ${JSON.stringify(shown)}, answered ${show(actual)}`];
        }
        case 'array': {
            if (!Array.isArray(actual)) return [`${at}: shown an array, answered ${show(actual)}`];
            const out: string[] = [];
            if (pattern.open ? actual.length < pattern.items.length : actual.length !== pattern.items.length) {
                out.push(`${at}: shown ${pattern.items.length}${pattern.open ? ' or more' : ''} elements, answered ${actual.length}`);
            }
            for (let n = 0; n < Math.min(pattern.items.length, actual.length); n++) {
                out.push(...differences(pattern.items[n], actual[n], perRun, `${path}[${n}]`, key));
            }
            return out;
        }
        case 'object': {
            if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: shown an object, answered ${show(actual)}`];
            const record = actual as Record<string, unknown>;
            const out: string[] = [];
            const shownKeys = new Set(pattern.members.map(([k]) => k));
            for (const [k, p] of pattern.members) {
                const childPath = path ? `${path}.${k}` : k;
                if (!(k in record)) out.push(`${childPath}: shown, not answered`);
                else out.push(...differences(p, record[k], perRun, childPath, k));
            }
            if (!pattern.open) {
                for (const k of Object.keys(record)) if (!shownKeys.has(k)) out.push(`${path ? `${path}.${k}` : k}: answered, not shown (and no "…" there)`);
            }
            return out;
        }
    }
}

/** The ```json block that follows the paragraph `label` (a line of its own) in `markdown`. */
export function jsonBlockAfter(markdown: string, label: string): string {
    const at = markdown.split('\n').indexOf(label);
    const block = at < 0 ? null : /^\s*```json\n([\s\S]*?)```/.exec(markdown.split('\n').slice(at + 1).join('\n'));
    if (!block) throw new Error(`no JSON block after "${label}"`);
    return block[1];
}
