// Types of scripts/api-report.mjs for the test that imports it.
export declare const API_REPORT_PATH: string;
export declare function renderApiReport(root?: string): string;
