import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Type-checks a consumer file in the application under one `module`/`moduleResolution` setting, as the user's
 * `tsc --noEmit` with `skipLibCheck: false` would, and reports the errors in the consumer file and in the
 * package's declaration files. Errors inside other packages' declarations (a framework's own types needing the
 * DOM library, say) are theirs, not ours, and are left out.
 */

export type TypeCheckMode = {
    name: string;
    module: ts.ModuleKind;
    moduleResolution: ts.ModuleResolutionKind;
    /** `.ts` (CommonJS under `node16`, as the application's package.json has no `"type"`), `.cts` or `.mts`. */
    extension: '.ts' | '.cts' | '.mts';
    /**
     * NestJS 12 is published as ES modules only; `node16` (unlike `nodenext` since TypeScript 5.8, and Node.js
     * 20.19+) does not let CommonJS code, the package's declarations included, import them.
     */
    nestjs: boolean;
};

const { ModuleKind, ModuleResolutionKind } = ts;

export const TYPE_CHECK_MODES: TypeCheckMode[] = [
    { name: 'node10', module: ModuleKind.CommonJS, moduleResolution: ModuleResolutionKind.Node10, extension: '.ts', nestjs: true },
    { name: 'node16, CommonJS consumer', module: ModuleKind.Node16, moduleResolution: ModuleResolutionKind.Node16, extension: '.cts', nestjs: false },
    { name: 'node16, ESM consumer', module: ModuleKind.Node16, moduleResolution: ModuleResolutionKind.Node16, extension: '.mts', nestjs: false },
    { name: 'nodenext, CommonJS consumer', module: ModuleKind.NodeNext, moduleResolution: ModuleResolutionKind.NodeNext, extension: '.cts', nestjs: true },
    { name: 'nodenext, ESM consumer', module: ModuleKind.NodeNext, moduleResolution: ModuleResolutionKind.NodeNext, extension: '.mts', nestjs: true },
    { name: 'bundler', module: ModuleKind.ESNext, moduleResolution: ModuleResolutionKind.Bundler, extension: '.ts', nestjs: true },
];

/** Declaration files parsed once and shared by the programs of all modes (keyed by how they were parsed). */
const parsed = new Map<string, ts.SourceFile>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
        if (!fileName.endsWith('.d.ts') && !fileName.endsWith('.d.mts') && !fileName.endsWith('.d.cts')) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
        const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat : undefined;
        const key = `${fileName}\0${JSON.stringify(languageVersion)}\0${format}`;
        let file = parsed.get(key);
        if (!file) {
            file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
            if (file) parsed.set(key, file);
        }
        return file;
    };
    return host;
}

/** The errors of `source`, written to `<dir>/consumer<ext>`, and of the package's declarations it reaches, as `file(line,col): message`. */
export function typeCheck(dir: string, packageDir: string, mode: TypeCheckMode, source: string): string[] {
    const file = path.join(dir, `consumer${mode.extension}`);
    fs.writeFileSync(file, source);
    const options: ts.CompilerOptions = {
        module: mode.module,
        moduleResolution: mode.moduleResolution,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts'],
        types: ['node'],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
    };
    const program = ts.createProgram({ rootNames: [file], options, host: cachingHost(options) });
    const ours = program.getSourceFiles().filter((f) => f.fileName === file || f.fileName.startsWith(packageDir + path.sep));
    const diagnostics = [
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
    return diagnostics.map((d) => {
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        if (!d.file || d.start === undefined) return message;
        const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
        return `${path.relative(dir, d.file.fileName)}(${line + 1},${character + 1}): ${message}`;
    });
}
