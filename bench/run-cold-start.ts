// `npm run bench:cold`: only the cold-start and memory section of `npm run bench` (BENCH_COLD_RUNS, BENCH_COLD_LOAD,
// BENCH_COLD_CONCURRENCY shape it).
import { coldStartSection } from './cold-start-report.js';

process.stdout.write(`\n${await coldStartSection()}\n`);
