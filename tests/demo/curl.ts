/**
 * The `curl` examples of a Markdown document, read as the shell would read them (the subset the docs use:
 * single and double quotes, a backslash at a line's end continuing the command, -X, -H, -d, -G with
 * --data-urlencode, -i, -s, -g), with what the document shows they answer.
 */

export interface CurlExample {
    /** The command as written (for messages). */
    text: string;
    method: string;
    /** Path and query, from `http://localhost:3000`. */
    path: string;
    headers: Record<string, string>;
    body?: string;
    /**
     * What the document shows right after the command: a status (`# HTTP/1.1 403 Forbidden`, `# 201 {…}`), an
     * answer that is an error (`# {"error"…` or `# {"errors"…`: some 4xx) or data (`# {"data"…`: some 2xx), or nothing.
     */
    shows?: number | '4xx' | '2xx';
    /**
     * The answer's JSON as the document shows it, if it does: in `#` lines right after the command (after a status
     * line and header lines), or in a ```json block right after the ```sh block when that holds this command alone.
     */
    answer?: string;
    /** Headers the document shows (`# location: …` right after the command), by lower-case name. */
    shownHeaders: Record<string, string>;
}

/** Shell words of `source` from `start` up to the end of the command; returns them and where the command ends. */
function words(source: string, start: number): { words: string[]; end: number } {
    const out: string[] = [];
    let word: string | undefined;
    let i = start;
    for (; i < source.length; i++) {
        const c = source[i];
        if (c === "'" || c === '"') {
            const close = source.indexOf(c, i + 1);
            if (close < 0) throw new Error(`unclosed quote in: ${source.slice(start, start + 200)}`);
            word = (word ?? '') + source.slice(i + 1, close);
            i = close;
        } else if (c === '\\' && source[i + 1] === '\n') {
            i++;
        } else if (c === '\n') {
            break;
        } else if (c === ' ' || c === '\t') {
            if (word !== undefined) out.push(word);
            word = undefined;
        } else {
            word = (word ?? '') + c;
        }
    }
    if (word !== undefined) out.push(word);
    return { words: out, end: i };
}

function toExample(args: string[], text: string): CurlExample {
    let method: string | undefined;
    let url: string | undefined;
    let body: string | undefined;
    let asQuery = false;
    const query: string[] = [];
    const headers: Record<string, string> = {};
    for (let i = 1; i < args.length; i++) {
        const a = args[i];
        if (a === '-X') method = args[++i];
        else if (a === '-H') {
            const [name, ...value] = args[++i].split(':');
            headers[name.trim().toLowerCase()] = value.join(':').trim();
        } else if (a === '-d') body = args[++i];
        else if (a === '-G') asQuery = true;
        else if (a === '--data-urlencode') {
            const [name, ...value] = args[++i].split('=');
            query.push(`${name}=${encodeURIComponent(value.join('='))}`);
        } else if (/^-[sgi]+$/.test(a)) continue;
        else if (a.startsWith('http')) url = a;
        else throw new Error(`curl option not understood: ${a} in ${text}`);
    }
    if (!url) throw new Error(`no URL in ${text}`);
    const { pathname, search } = new URL(url);
    const extra = asQuery && query.length ? `${search ? '&' : '?'}${query.join('&')}` : '';
    return { text, method: method ?? (body !== undefined ? 'POST' : 'GET'), path: `${pathname}${search}${extra}`, headers, body, shownHeaders: {} };
}

/**
 * The `#` lines right after a command: a status line, header lines, then the answer's JSON (a line starting with
 * `{` or `[`, possibly after the status, continued by lines that start with a space or JSON punctuation).
 */
function shownAfter(shown: string, example: CurlExample): void {
    const lines = shown.split('\n').slice(1);
    let n = 0;
    for (; n < lines.length && lines[n].startsWith('# '); n++) {
        const line = lines[n].slice(2);
        const header = /^([A-Za-z][\w-]*): (.*)$/.exec(line);
        if (/^HTTP\/1\.1 \d{3}/.test(line)) continue;
        if (header) example.shownHeaders[header[1].toLowerCase()] = header[2];
        else break;
    }
    const jsonStart = /^# (?:[1-5]\d\d )?[{[]/;
    if (n < lines.length && jsonStart.test(lines[n])) {
        const json = [lines[n].slice(2).replace(/^[1-5]\d\d /, '')];
        for (n++; n < lines.length && /^# [\s"{}[\]…]|^# \.\.\./.test(lines[n]); n++) json.push(lines[n].slice(2));
        example.answer = json.join('\n');
    }
    // JSON shown further down would go unchecked
    const stray = lines.slice(n).find((line) => jsonStart.test(line));
    if (stray) throw new Error(`an answer shown apart from its command (${example.text.split('\n')[0]}): ${stray}`);
}

/** Every `curl` command inside the ```sh blocks of `markdown`, in order. */
export function curlExamples(markdown: string): CurlExample[] {
    const examples: CurlExample[] = [];
    for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```\n(?:\s*```json\n([\s\S]*?)```)?/g)) {
        const code = block[1];
        const starts = [...code.matchAll(/^curl /gm)].map((m) => m.index!);
        starts.forEach((start, n) => {
            const { words: args, end } = words(code, start);
            const example = toExample(args, code.slice(start, end));
            // what the document shows between this command and the next one
            const shown = code.slice(end, starts[n + 1] ?? code.length);
            const status = /^# (?:HTTP\/1\.1 )?([1-5]\d\d)\b/m.exec(shown);
            const body = /^# \{"(errors?|data)"/m.exec(shown);
            shownAfter(shown, example);
            if (block[2] !== undefined && starts.length === 1 && example.answer === undefined) example.answer = block[2];
            const kind = body ?? (example.answer && /^\s*\{\s*"(errors?|data)"/.exec(example.answer));
            if (status) example.shows = Number(status[1]);
            else if (kind) example.shows = kind[1] === 'data' ? '2xx' : '4xx';
            examples.push(example);
        });
    }
    return examples;
}
