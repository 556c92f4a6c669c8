// Types of scripts/bundle-runtime.mjs for the tests that import it.
export interface InlinedPackage {
  /** The file compiled in place of its main entry (an ES module build), relative to the package folder. */
  readonly module?: string;
}
/** The packages compiled into the bundle with everything they import; the rest stay imports. */
export declare const INLINED: Readonly<Record<string, InlinedPackage>>;
/** Modules the inlined packages require that the runtime never runs, compiled in as stubs that throw: name → source. */
export declare const STUBS: Readonly<Record<string, string>>;
/** Built-ins the inlined packages require at load but rarely use, compiled in as stand-ins that load them on first use. */
export declare const LAZY_BUILTINS: Readonly<Record<'assert' | 'node:https', string>>;
export declare const LICENSES_FILE: string;
/** A file inside a package under node_modules (the innermost one): [, the package's folder, its name]. */
export declare const IN_PACKAGE: RegExp;
export declare const OUT_DIR: string;
/** The folders of the ES module and the CommonJS builds under OUT_DIR. */
export declare const ESM: 'esm';
export declare const CJS: 'cjs';
/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `pino/file` → `pino`. */
export declare function packageOf(specifier: string): string;
/** Bundles into OUT_DIR: both builds, the runtime loader and an entry facade per package.json export. */
export declare function bundleRuntime(): Promise<void>;
