// Types of scripts/bundle-runtime.mjs for the tests that import it.
export interface InlinedPackage {
  /** Where the package is looked up from: the repository root, or the folder of the package named here. */
  readonly from: string;
  /** Its ES module build, relative to the package folder. */
  readonly module: string;
  /** Its licence file, relative to the package folder. */
  readonly licence: string;
}
export declare const INLINED: Readonly<Record<string, InlinedPackage>>;
export declare const LICENSES_FILE: string;
export declare const OUT_DIR: string;
export declare function bundleRuntime(): Promise<void>;
