// Types of scripts/bundle-runtime.mjs for the tests that import it.
export interface InlinedImport {
  /** The package the specifier belongs to. */
  readonly package: string;
  /** Look the package up from within this package's folder (its own dependency), not from the repository. */
  readonly within?: string;
  /** Its ES module build, relative to the package folder. */
  readonly module: string;
  /** Its licence file, relative to the package folder. */
  readonly licence: string;
}
/** Imports compiled into the bundle, by specifier. */
export declare const INLINED: Readonly<Record<string, InlinedImport>>;
export declare const LICENSES_FILE: string;
export declare const OUT_DIR: string;
export declare function bundleRuntime(): Promise<void>;
