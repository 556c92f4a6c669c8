// Types of scripts/bundle-runtime.mjs for the tests that import it.
export interface InlinedPackage {
  /** The package whose node_modules it is looked up from; the repository root's when absent. */
  readonly from?: string;
  /** The file compiled in place of its main entry (an ES module build), relative to the package folder. */
  readonly module?: string;
  /** Its licence file, relative to the package folder; 'LICENSE' when absent. */
  readonly licence?: string;
}
export declare const INLINED: Readonly<Record<string, InlinedPackage>>;
export declare const LICENSES_FILE: string;
export declare const OUT_DIR: string;
/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `pino/file` → `pino`. */
export declare function packageOf(specifier: string): string;
export declare function bundleRuntime(): Promise<void>;
