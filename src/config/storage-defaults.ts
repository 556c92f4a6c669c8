// Defaults of the storage limits, read by the configuration (STORAGE_*) and by providers built in code alike.
/** Live ctx.state entries one tenant may hold (STORAGE_MAX_ENTRIES_PER_TENANT). */
export const DEFAULT_MAX_ENTRIES_PER_TENANT = 10_000;
/** How often expired entries nobody reads again are removed (STORAGE_SWEEP_INTERVAL_MS). */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
